// A user-written environment: plain ESM JavaScript, one named export.
// A run file names it as `./my-env.js:TankEnvironment` (relative to the run
// file), and arena constructs it with `new TankEnvironment(init)`.
//
// `static paramsSchema` declares the params (any Standard Schema: zod,
// valibot, arktype): `arena validate` and `arena run` check the run file's
// params against it, every problem with its YAML path and line, before
// anything runs; the constructor reads its params with the same schema.
//
// The Environment port (see arena's src/ports/environment.ts):
//   constructor({ uid, params, keyOrder, seed, logger })   builds no world yet
//   proposeDefinition()  the definition a meta agent may patch, or null
//   start(params)        builds the world, returns { sensors, actuators, readings }
//   step(actions)        returns { readings, rewards, done }
//   reset()              restarts in place, returns what start returns
//   close()
//   saveState() / loadState(state)   optional, for exact resume

import { z } from 'zod';

/** A water tank: keep the level near `target` by opening the outlet valve. */
export class TankEnvironment {
  static paramsSchema = z.strictObject({
    target: z.number().positive().default(5),
    capacity: z.number().positive().default(10),
    inflow: z.number().min(0).default(1),
  });

  constructor({ uid, params, seed }) {
    this.uid = uid;
    this.params = TankEnvironment.paramsSchema.parse(params);
    this.random = mulberry32(seed);
    this.level = 0;
    this.steps = 0;
  }

  proposeDefinition() {
    return null;
  }

  start(params) {
    ({
      target: this.target,
      capacity: this.capacity,
      inflow: this.inflow,
    } = TankEnvironment.paramsSchema.parse(params));
    return this.reset();
  }

  step(actions) {
    const valve = Math.min(1, Math.max(0, actions[`${this.uid}.valve`] ?? 0));
    const inflow = this.inflow * (0.5 + this.random());
    this.level = Math.min(this.capacity, Math.max(0, this.level + inflow - 2 * valve));
    this.steps += 1;
    return {
      readings: this.readings(),
      rewards: { [`${this.uid}.reward.level_error`]: -Math.abs(this.level - this.target) },
      done: this.level >= this.capacity,
    };
  }

  reset() {
    this.level = this.target / 2;
    this.steps = 0;
    return {
      sensors: [{ uid: `${this.uid}.level`, space: { type: 'Box', low: 0, high: this.capacity } }],
      actuators: [{ uid: `${this.uid}.valve`, space: { type: 'Box', low: 0, high: 1 } }],
      readings: this.readings(),
    };
  }

  close() {}

  saveState() {
    return { random: this.random.state() };
  }

  loadState(state) {
    this.random = mulberry32(0, state.random);
  }

  readings() {
    return { [`${this.uid}.level`]: this.level };
  }
}

/** A small seeded generator: every random number comes from the run's seed. */
function mulberry32(seed, state = seed >>> 0) {
  let s = state >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.state = () => s;
  return next;
}
