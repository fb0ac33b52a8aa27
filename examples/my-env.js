// A user-written environment: plain ESM JavaScript, one named export, and no
// import at all: copy this file next to your run file and it runs as it is.
// A run file names it as `./my-env.js:TankEnvironment` (relative to the run
// file), and arena constructs it with `new TankEnvironment(init)`.
//
// `static paramsSchema` declares the params as a Standard Schema
// (https://standardschema.dev): an object whose `~standard.validate(params)`
// returns `{ value }` or `{ issues: [{ path, message }] }`. Here it is written
// by hand; a zod, valibot or arktype schema is one too (`static paramsSchema =
// z.strictObject({ ... })`, once that package is installed). `arena validate`
// and `arena run` check the run file's params against it, every problem with
// its YAML path and line, before anything runs; the constructor reads its
// params with the same schema.
//
// The Environment port (see arena's src/ports/environment.ts):
//   constructor({ uid, params, keyOrder, seed, logger })   builds no world yet
//   proposeDefinition()  the definition a meta agent may patch, or null
//   start(params)        builds the world, returns { sensors, actuators, readings }
//   step(actions)        returns { readings, rewards, done }
//   reset()              restarts in place, returns what start returns
//   close()
//   saveState() / loadState(state)   optional, for exact resume

/** Each param: its default and the smallest value it takes (`above`: exclusive). */
const params = {
  target: { default: 5, above: 0 },
  capacity: { default: 10, above: 0 },
  inflow: { default: 1, atLeast: 0 },
};

/** The params as a Standard Schema, by hand: unknown keys and out-of-range numbers are issues. */
const paramsSchema = {
  '~standard': {
    version: 1,
    vendor: 'my-env',
    validate(input) {
      const given = input ?? {};
      if (typeof given !== 'object' || Array.isArray(given)) {
        return {
          issues: [{ path: [], message: 'expected a mapping of target, capacity, inflow' }],
        };
      }
      const issues = [];
      const value = {};
      const names = Object.keys(params);
      for (const [key, rule] of Object.entries(params)) {
        const number = given[key] ?? rule.default;
        if (typeof number !== 'number' || !Number.isFinite(number)) {
          issues.push({ path: [key], message: `expected number, got ${JSON.stringify(number)}` });
        } else if ('above' in rule && !(number > rule.above)) {
          issues.push({ path: [key], message: `Too small: expected number to be >${rule.above}` });
        } else if ('atLeast' in rule && !(number >= rule.atLeast)) {
          issues.push({
            path: [key],
            message: `Too small: expected number to be >=${rule.atLeast}`,
          });
        }
        value[key] = number;
      }
      for (const key of Object.keys(given)) {
        if (names.includes(key)) continue;
        const meant = names.find((name) => closeTo(key, name));
        const hint = meant === undefined ? '' : `; did you mean "${meant}"?`;
        issues.push({
          path: [key],
          message: `unknown key${hint} (expected one of: ${names.join(', ')})`,
        });
      }
      return issues.length > 0 ? { issues } : { value };
    },
  },
};

/** Read params with the schema, as the constructor and `start` do: a problem throws, naming it. */
function readParams(input) {
  const result = paramsSchema['~standard'].validate(input);
  if (result.issues) {
    const problems = result.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`TankEnvironment params: ${problems.join('; ')}`);
  }
  return result.value;
}

/** Whether `key` is one typo from `name`: a letter added, dropped, changed, or two swapped. */
function closeTo(key, name) {
  if (Math.abs(key.length - name.length) > 1 || key === name) return false;
  let start = 0;
  while (key[start] === name[start]) start++;
  const rest = (a, b) => key.slice(start + a) === name.slice(start + b);
  const swapped = key[start] === name[start + 1] && key[start + 1] === name[start] && rest(2, 2);
  return rest(1, 1) || rest(0, 1) || rest(1, 0) || swapped;
}

/** A water tank: keep the level near `target` by opening the outlet valve. */
export class TankEnvironment {
  static paramsSchema = paramsSchema;

  constructor({ uid, params, seed }) {
    this.uid = uid;
    this.params = readParams(params);
    this.random = mulberry32(seed);
    this.level = 0;
    this.steps = 0;
  }

  proposeDefinition() {
    return null;
  }

  start(params) {
    ({ target: this.target, capacity: this.capacity, inflow: this.inflow } = readParams(params));
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
