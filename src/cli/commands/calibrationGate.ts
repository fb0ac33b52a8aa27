import { judgeFingerprintOf } from '../../actors/judging/judgeFingerprintOf.js';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import {
  changedParts,
  fingerprintLabel,
  type JudgeFingerprintParts,
  joinParts,
} from '../../domain/judge/fingerprint.js';
import type { CalibrationStore } from '../../ports/store/judgeStore.js';
import { CliError, ExitCode } from '../errors.js';
import { kappaText } from './calibrationText.js';
import type { AgreementReport } from './judgePanelReport.js';

/** What the calibration adds to a judge summary: its line, its JSON and the gates it failed. */
export interface CalibrationReport {
  readonly lines: readonly string[];
  readonly json: Readonly<Record<string, unknown>>;
  readonly failedGates: readonly string[];
}

const figure = (value: number | null): string =>
  value === null ? 'n/a' : String(Number(value.toFixed(4)));

/**
 * A calibration gate needs the store its calibrations are in: refused
 * (exit 2) without `--store`, naming the gate.
 *
 * @example
 * ```ts
 * refuseCalibrationGatesWithoutStore(config, 'judge.yaml');
 * // throws CliError: judge.yaml: gates.min_calibration_kappa needs --store: ...
 * ```
 */
export function refuseCalibrationGatesWithoutStore(config: JudgeConfig, configPath: string): void {
  const gate =
    config.gates.min_calibration_kappa !== undefined
      ? 'min_calibration_kappa'
      : config.gates.max_false_pass_rate !== undefined
        ? 'max_false_pass_rate'
        : null;
  if (gate === null) return;
  throw new CliError(
    `${configPath}: gates.${gate} needs --store <uri>: the judge's calibration is looked up there (arena judge calibrate --store records it)`,
    ExitCode.badInput,
  );
}

/**
 * The calibration of the judge's current fingerprint, as a judge summary
 * shows it (`calibrated: kappa 0.71 [0.62, 0.79] on 200 labels` or
 * `uncalibrated`), and the calibration gates it fails: none stored, or below
 * the bar; when an older calibration of the same judge exists, which part of
 * the fingerprint changed since.
 *
 * @example
 * ```ts
 * (await calibrationReport(store, config, 'strict')).failedGates;
 * // ['min_calibration_kappa: no calibration of strict@1358a18223da; the rubric changed since strict@9f0e11c2a4b7 was calibrated on 2026-12-01: kappa 0.74']
 * ```
 */
export async function calibrationReport(
  store: CalibrationStore,
  config: JudgeConfig,
  judgeName: string,
): Promise<CalibrationReport> {
  const fingerprint = judgeFingerprintOf(config, judgeName);
  const calibration = await store.calibrationOf(fingerprint.digest);
  const { min_calibration_kappa: minKappa, max_false_pass_rate: maxFalsePassRate } = config.gates;
  const failedGates: string[] = [];
  if (calibration === null) {
    const older = await store.latestCalibration(fingerprint.judgeName);
    const why =
      older === null
        ? 'it was never calibrated (arena judge calibrate --store)'
        : `${joinParts(changedParts(older.fingerprintParts as unknown as JudgeFingerprintParts, fingerprint.parts))} changed since ${fingerprintLabel(older.judgeName, older.fingerprint)} was calibrated on ${older.calibratedAt.slice(0, 10)}: kappa ${figure(older.kappa)}`;
    for (const [gate, set] of [
      ['min_calibration_kappa', minKappa],
      ['max_false_pass_rate', maxFalsePassRate],
    ] as const) {
      if (set !== undefined)
        failedGates.push(`${gate}: no calibration of ${fingerprint.label}; ${why}`);
    }
    return {
      lines: [`uncalibrated: ${fingerprint.label}${older === null ? '' : `; ${why}`}`],
      json: { calibration: null, fingerprint: fingerprint.label },
      failedGates,
    };
  }
  if (minKappa !== undefined && (calibration.kappa === null || calibration.kappa < minKappa)) {
    failedGates.push(
      `min_calibration_kappa: ${fingerprint.label} has kappa ${figure(calibration.kappa)}, below ${minKappa}`,
    );
  }
  if (
    maxFalsePassRate !== undefined &&
    calibration.falsePassRate !== null &&
    calibration.falsePassRate > maxFalsePassRate
  ) {
    failedGates.push(
      `max_false_pass_rate: ${fingerprint.label} passes ${figure(calibration.falsePassRate)} of what people failed, above ${maxFalsePassRate}`,
    );
  }
  return {
    lines: [
      `calibrated: ${kappaText(calibration.kappa, calibration.kappaCi)} on ${calibration.n} labels (${fingerprint.label}, ${calibration.calibratedAt.slice(0, 10)})`,
    ],
    json: { calibration, fingerprint: fingerprint.label },
    failedGates,
  };
}

/** A judge summary's extra report with the calibration's line, JSON and gates added. */
export function withCalibration(
  report: AgreementReport,
  calibration: CalibrationReport,
): AgreementReport {
  return {
    ...report,
    lines: [...report.lines, ...calibration.lines],
    json: { ...report.json, ...calibration.json },
    failedGates: [...report.failedGates, ...calibration.failedGates],
  };
}
