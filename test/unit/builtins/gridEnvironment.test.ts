import { describe, expect, it } from 'vitest';
import {
  GridActionError,
  GridLifecycleError,
  GridScenarioError,
  GridTopologyError,
} from '../../../src/builtins/grid/errors.js';
import { GridEnvironment } from '../../../src/builtins/grid/gridEnvironment.js';
import { deepFreeze, type JsonObject } from '../../../src/domain/shared/json.js';
import type { Readings } from '../../../src/ports/environment.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';
import { workedExampleParams } from './gridScenarios.js';

function makeEnvironment(params: JsonObject, seed = 7): GridEnvironment {
  return new GridEnvironment({ uid: 'midas', params, keyOrder: {}, seed, logger: silentLogger() });
}

function runEpisode(env: GridEnvironment, actions: Readings): Readings[] {
  const trace: Readings[] = [];
  for (;;) {
    const { readings, rewards, done } = env.step(actions);
    trace.push(readings, rewards);
    if (done) return trace;
  }
}

const hold = { 'midas.pv_curtail.6': 0, 'midas.pv_q.6': 0 };

describe('GridEnvironment', () => {
  it('builds the worked example on the default 7-bus feeder with one PV unit', () => {
    const params = workedExampleParams();
    const { sensors, actuators, readings } = makeEnvironment(params).start(params);
    expect(actuators).toEqual([
      { uid: 'midas.pv_curtail.6', space: { type: 'Box', low: 0, high: 1 } },
      { uid: 'midas.pv_q.6', space: { type: 'Box', low: -0.66, high: 0.66 } },
    ]);
    expect(sensors.map((sensor) => sensor.uid)).toEqual([
      ...[1, 2, 3, 4, 5, 6].map((bus) => `midas.bus.${bus}.vm_pu`),
      ...['0-1', '1-2', '2-3', '3-4', '4-5', '5-6'].map((line) => `midas.line.${line}.loading`),
      'midas.pv.6.available_mw',
      'midas.time_of_day',
    ]);
    expect(readings['midas.time_of_day']).toBe(0);
    expect(readings['midas.pv.6.available_mw']).toBe(0);
  });

  it('runs one day of 15-minute steps and is done exactly at the end', () => {
    const params = workedExampleParams();
    const env = makeEnvironment(params);
    env.start(params);
    expect(runEpisode(env, hold)).toHaveLength(2 * 96);
    expect(() => env.step(hold)).toThrowError(GridLifecycleError);
    env.reset();
    expect(env.step(hold).done).toBe(false);
  });

  it('violates the voltage band at noon with a doubled PV unit unless it is curtailed', () => {
    const params = workedExampleParams(4.4);
    const noonRewards = (actions: Readings): Readings => {
      const env = makeEnvironment(params);
      env.start(params);
      for (let step = 0; step < 52; step++) env.step(actions);
      return env.step(actions).rewards;
    };
    expect(noonRewards(hold)['midas.reward.voltage_violation']).toBeLessThan(0);
    const curtailed = noonRewards({ 'midas.pv_curtail.6': 0.6, 'midas.pv_q.6': 0 });
    expect(curtailed['midas.reward.voltage_violation']).toBe(0);
    expect(curtailed['midas.reward.curtailed_energy']).toBeLessThan(0);
    const absorbing = noonRewards({ 'midas.pv_curtail.6': 0, 'midas.pv_q.6': -1.32 });
    expect(absorbing['midas.reward.voltage_violation']).toBeGreaterThan(
      noonRewards(hold)['midas.reward.voltage_violation']!,
    );
  });

  it('gives identical episodes for identical seeds and different noise for other seeds', () => {
    const params = workedExampleParams();
    const episodes = (seed: number): Readings[] => {
      const env = makeEnvironment(params, seed);
      env.start(params);
      const first = runEpisode(env, hold);
      env.reset();
      return [...first, ...runEpisode(env, hold)];
    };
    expect(episodes(3)).toEqual(episodes(3));
    expect(episodes(3)).not.toEqual(episodes(4));
  });

  it('resumes exactly from saved state at an episode barrier', () => {
    const params = workedExampleParams();
    const original = makeEnvironment(params);
    original.start(params);
    runEpisode(original, hold);
    const saved = original.saveState();
    const resumed = makeEnvironment(params);
    resumed.start(params);
    resumed.loadState(JSON.parse(JSON.stringify(saved)));
    original.reset();
    resumed.reset();
    expect(runEpisode(resumed, hold)).toEqual(runEpisode(original, hold));
  });

  it('never mutates the params it starts from', () => {
    const params = deepFreeze(workedExampleParams());
    const env = makeEnvironment(params);
    expect(() => env.start(params)).not.toThrow();
    expect(() => env.proposeDefinition()).not.toThrow();
  });

  it('starts from an override with new load and PV scales', () => {
    const params = workedExampleParams();
    const env = makeEnvironment(params);
    env.start(params);
    const { actuators } = env.start(workedExampleParams(1));
    expect(actuators[1]?.space).toEqual({ type: 'Box', low: -0.3, high: 0.3 });
  });

  it('reads a generated feeder and explicit lines', () => {
    const generated = { scenario: { grid_params: { buses: 10 } } };
    expect(makeEnvironment(generated).start(generated).sensors).toHaveLength(9 + 9 + 1);
    const explicit = {
      scenario: {
        grid_params: {
          lines: [
            [0, 5, 1, 1, 5],
            [5, 9, 1, 1, 5],
          ],
          v_nom_kv: 10,
        },
        der_params: {
          midasmv: {
            mapping: {
              '9': [
                ['PV', 1],
                ['PV', 0.5],
              ],
            },
          },
        },
      },
    };
    const { actuators } = makeEnvironment(explicit).start(explicit);
    expect(actuators.map((actuator) => actuator.uid)).toEqual([
      'midas.pv_curtail.9',
      'midas.pv_q.9',
      'midas.pv_curtail.9.1',
      'midas.pv_q.9.1',
    ]);
  });

  it('names the field and what was expected in scenario errors', () => {
    const start = (params: JsonObject) => () => makeEnvironment(params).start(params);
    expect(start({ scenario: { step_size: -1 } })).toThrowError(/^\/scenario\/step_size: /);
    expect(start({ scenario: { step_size: -1 } })).toThrowError(GridScenarioError);
    expect(
      start({ scenario: { comdata_params: { midasmv: { active_mapping: { '9': [] } } } } }),
    ).toThrowError(/active_mapping\/9: bus 9 is not on the feeder/);
    expect(
      start({
        scenario: { comdata_params: { midasmv: { active_mapping: { '3': [['Bakery', 1]] } } } },
      }),
    ).toThrowError(/active_mapping\/3\/0\/0: unknown load profile 'Bakery', expected one of/);
    expect(start({ scenario: {}, noise: 1 })).toThrowError(
      /^params: unknown key "noise" \(known: scenario, definition, noise_std,/,
    );
    expect(
      start({ scenario: { der_params: { midasmv: { mapping: { six: [['PV', 1]] } } } } }),
    ).toThrowError(/mapping\/six: expected bus numbers such as "3" as keys/);
    const badProfile = {
      scenario: { der_params: { midasmv: { mapping: { '6': [['Wind', 1]] } } } },
    };
    expect(() => makeEnvironment(badProfile).proposeDefinition()).toThrowError(
      /^\/scenario\/der_params\/midasmv\/mapping\/6\/0\/0: /,
    );
    expect(
      start({
        scenario: {
          grid_params: {
            lines: [
              [0, 1, 1, 1, 1],
              [1, 0, 1, 1, 1],
            ],
          },
        },
      }),
    ).toThrowError(GridTopologyError);
  });

  it('rejects unknown actuators and non-finite actions by name', () => {
    const params = workedExampleParams();
    const env = makeEnvironment(params);
    expect(() => env.step(hold)).toThrowError(GridLifecycleError);
    env.start(params);
    expect(() => env.step({ 'midas.pv_curtail.7': 0 })).toThrowError(GridActionError);
    expect(() => env.step({ 'midas.pv_q.6': Number.NaN })).toThrowError(
      /'midas.pv_q.6' must be a finite number/,
    );
  });

  it('proposes the three documented definition UIDs of the worked example', () => {
    const example = workedExampleParams();
    const params = {
      scenario: { ...(example.scenario as JsonObject), step_size: 900, end: 86_400 },
      definition: { include: ['active_mapping', 'mapping/6'] },
    };
    const proposal = makeEnvironment(params).proposeDefinition();
    expect(proposal.scenarioPointer).toBe('/scenario');
    expect(proposal.selectors.map(({ uid, value, space }) => ({ uid, value, space }))).toEqual([
      {
        uid: 'midas.definition./comdata_params/midasmv/active_mapping/3/0/1',
        value: 0.427,
        space: { type: 'Box', low: 0, high: 0.854 },
      },
      {
        uid: 'midas.definition./comdata_params/midasmv/active_mapping/4/0/1',
        value: 0.913,
        space: { type: 'Box', low: 0, high: 1.826 },
      },
      {
        uid: 'midas.definition./der_params/midasmv/mapping/6/0/1',
        value: 2.2,
        space: { type: 'Box', low: 0, high: 4.4 },
      },
    ]);
  });

  it('proposes selectors in the declaration order of its key order, not integer-first', () => {
    const params = workedExampleParams();
    const env = new GridEnvironment({
      uid: 'midas',
      params,
      keyOrder: {
        '': ['scenario'],
        '/scenario': ['der_params', 'comdata_params'],
        '/scenario/comdata_params/midasmv/active_mapping': ['4', '3'],
      },
      seed: 1,
      logger: silentLogger(),
    });
    expect(env.proposeDefinition().selectors.map((selector) => selector.pointer)).toEqual([
      '/der_params/midasmv/mapping/6/0/1',
      '/comdata_params/midasmv/active_mapping/4/0/1',
      '/comdata_params/midasmv/active_mapping/3/0/1',
    ]);
  });
});
