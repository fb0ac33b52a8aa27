import type { Clock } from '../../runtime/clock.js';
import { systemClock } from '../../runtime/clock.js';
import type { CalibrationRecord, CalibrationStore } from '../judgeStore.js';

/**
 * Calibrations kept in memory, for an embedding that judges without a
 * database (and for tests): the judge store's calibration rules over an
 * array, newest last. Records are copied in and out as plain JSON.
 *
 * @example
 * ```ts
 * const calibrations = memoryCalibrationStore();
 * await calibrations.recordCalibration({ fingerprint, fingerprintParts, judgeName: 'strict', labelsSha256, n: 200, kappa: 0.71, kappaCi: [0.62, 0.79], falsePassRate: 0.05, confusion });
 * (await calibrations.calibrationOf(fingerprint))?.kappa; // 0.71
 * ```
 */
export function memoryCalibrationStore(options: { readonly clock?: Clock } = {}): CalibrationStore {
  const clock = options.clock ?? systemClock;
  const rows: CalibrationRecord[] = [];
  const newest = (match: (row: CalibrationRecord) => boolean): CalibrationRecord | null => {
    for (let index = rows.length - 1; index >= 0; index--) {
      if (match(rows[index]!)) return structuredClone(rows[index]!);
    }
    return null;
  };
  return {
    async recordCalibration(calibration) {
      const record = structuredClone({ ...calibration, calibratedAt: clock.now().toISOString() });
      rows.push(record);
      return structuredClone(record);
    },
    async calibrationOf(fingerprint) {
      return newest((row) => row.fingerprint === fingerprint);
    },
    async latestCalibration(judgeName) {
      return newest((row) => row.judgeName === judgeName);
    },
  };
}
