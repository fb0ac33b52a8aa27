import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { GridEnvironment } from '../../src/builtins/grid/gridEnvironment.js';
import type { JsonObject } from '../../src/domain/shared/json.js';
import { contains, type Space } from '../../src/domain/shared/spaces.js';
import type { Readings } from '../../src/ports/environment.js';
import { silentLogger } from '../../src/ports/runtime/logger.js';

const busCount = 12;
const bus = fc.integer({ min: 1, max: busCount - 1 }).map(String);
const scenario = fc.record({
  loads: fc.dictionary(
    bus,
    fc.array(
      fc.tuple(
        fc.constantFrom('Household', 'Office', 'Hospital'),
        fc.double({ min: 0, max: 3, noNaN: true }),
      ),
      { minLength: 1, maxLength: 2 },
    ),
  ),
  pv: fc.dictionary(
    bus,
    fc.array(fc.tuple(fc.constant('PV'), fc.double({ min: 0, max: 6, noNaN: true })), {
      minLength: 1,
      maxLength: 2,
    }),
  ),
  steps: fc.integer({ min: 1, max: 12 }),
});
// Actions in, on and far outside each actuator's space, plus left-out actuators.
const rawAction = fc.option(fc.double({ min: -10, max: 10, noNaN: true }), { nil: undefined });

function paramsOf(generated: {
  loads: Record<string, [string, number][]>;
  pv: Record<string, [string, number][]>;
  steps: number;
}): JsonObject {
  return {
    scenario: {
      step_size: 3600,
      end: 3600 * generated.steps,
      grid_params: { buses: busCount },
      comdata_params: { midasmv: { active_mapping: generated.loads } },
      der_params: { midasmv: { mapping: generated.pv } },
    },
  };
}

function expectWithin(readings: Readings, sensors: readonly { uid: string; space: Space }[]): void {
  expect(Object.keys(readings).sort()).toEqual(sensors.map((sensor) => sensor.uid).sort());
  for (const sensor of sensors) expect(contains(sensor.space, readings[sensor.uid]!)).toBe(true);
}

describe('GridEnvironment properties', () => {
  test.prop(
    [
      scenario,
      fc.array(fc.array(rawAction, { minLength: 8, maxLength: 8 }), {
        minLength: 12,
        maxLength: 12,
      }),
      fc.nat(),
    ],
    {
      numRuns: 60,
    },
  )(
    'readings stay in the declared sensor spaces, rewards are finite with their documented signs, and done comes exactly at end',
    (generated, actionRows, seed) => {
      const params = paramsOf(generated);
      const env = new GridEnvironment({
        uid: 'g',
        params,
        keyOrder: {},
        seed,
        logger: silentLogger(),
      });
      const { sensors, actuators, readings } = env.start(params);
      expectWithin(readings, sensors);
      for (let step = 0; step < generated.steps; step++) {
        const row = actionRows[step]!;
        const actions: Record<string, number> = {};
        actuators.forEach((actuator, index) => {
          const value = row[index % row.length];
          if (value !== undefined) actions[actuator.uid] = value;
        });
        const result = env.step(actions);
        expectWithin(result.readings, sensors);
        expect(Object.keys(result.rewards).sort()).toEqual([
          'g.reward.curtailed_energy',
          'g.reward.line_overload',
          'g.reward.pv_energy',
          'g.reward.voltage_violation',
        ]);
        for (const [uid, value] of Object.entries(result.rewards)) {
          expect(Number.isFinite(value)).toBe(true);
          expect(uid.endsWith('pv_energy') ? value >= 0 : value <= 0).toBe(true);
        }
        expect(result.done).toBe(step === generated.steps - 1);
      }
    },
  );
});
