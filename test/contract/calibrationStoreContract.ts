import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/ports/runtime/clock.js';
import type { CalibrationStore, NewCalibration } from '../../src/ports/store/judgeStore.js';

/** A calibration as `arena judge calibrate` stores one. */
export const sampleCalibration = (overrides: Partial<NewCalibration> = {}): NewCalibration => ({
  fingerprint: 'f'.repeat(64),
  fingerprintParts: { rubric: { version: '1', text: 'Pass a correct answer.' } },
  judgeName: 'strict',
  labelsSha256: 'a'.repeat(64),
  n: 200,
  kappa: 0.71,
  kappaCi: [0.62, 0.79],
  falsePassRate: 0.05,
  confusion: {
    labels: ['passed', 'failed'],
    matrix: [
      [90, 5],
      [10, 95],
    ],
  },
  ...overrides,
});

/**
 * The calibration rules every store keeps the same (SQLite, PostgreSQL, memory):
 * a calibration reads back as written, dated by the store's clock; the newest of a
 * fingerprint and of a judge name is the one found.
 */
export function describeCalibrationStoreContract(
  adapter: string,
  current: () => { store: CalibrationStore; clock: ManualClock },
): void {
  describe(`${adapter} calibrations`, () => {
    it('finds none before one is recorded', async () => {
      const { store } = current();
      expect(await store.calibrationOf('f'.repeat(64))).toBeNull();
      expect(await store.latestCalibration('strict')).toBeNull();
    });

    it('reads a calibration back as it was recorded, with the date of the store clock', async () => {
      const { store, clock } = current();
      const recorded = await store.recordCalibration(sampleCalibration());
      expect(recorded.calibratedAt).toBe(clock.now().toISOString());
      expect(await store.calibrationOf('f'.repeat(64))).toEqual(recorded);
      const noInterval = await store.recordCalibration(
        sampleCalibration({
          fingerprint: 'e'.repeat(64),
          kappa: null,
          kappaCi: null,
          falsePassRate: null,
        }),
      );
      expect(await store.calibrationOf('e'.repeat(64))).toEqual(noInterval);
    });

    it('finds the newest calibration of a fingerprint and of a judge name', async () => {
      const { store, clock } = current();
      await store.recordCalibration(sampleCalibration({ kappa: 0.5 }));
      clock.advance(1000);
      await store.recordCalibration(sampleCalibration({ fingerprint: 'b'.repeat(64), kappa: 0.6 }));
      clock.advance(1000);
      await store.recordCalibration(sampleCalibration({ kappa: 0.8 }));
      await store.recordCalibration(
        sampleCalibration({ judgeName: 'lenient', fingerprint: 'c'.repeat(64) }),
      );
      expect((await store.calibrationOf('f'.repeat(64)))?.kappa).toBe(0.8);
      expect((await store.calibrationOf('b'.repeat(64)))?.kappa).toBe(0.6);
      expect((await store.latestCalibration('strict'))?.kappa).toBe(0.8);
      expect((await store.latestCalibration('lenient'))?.fingerprint).toBe('c'.repeat(64));
    });
  });
}
