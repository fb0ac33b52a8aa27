import { type PatienceOptions, withPatience } from '../runtime/serverFailure.js';
import type { JudgeStore } from './judgeStore.js';

/**
 * A judge store whose calls outlast a server restart: each call that meets a
 * server fault (a lost connection, a server shutting down or starting) is
 * made again with back-off until the server is back, for the patience, then
 * fails with `ServerUnavailableError`; any other error passes at once. Every
 * call it retries is safe to repeat (a verdict is recorded at most once per
 * case); `createEvaluationRun` is not retried (a lost reply could leave two
 * runs), nor `close`.
 *
 * @example
 * ```ts
 * const store = patientJudgeStore(await openJudgeStore(location), { what: 'the judge store' });
 * await store.recordVerdict(verdict); // through a PostgreSQL restart: 'recorded'
 * ```
 */
export function patientJudgeStore(store: JudgeStore, patience: PatienceOptions): JudgeStore {
  const patient =
    <Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>) =>
    (...args: Args): Promise<Result> =>
      withPatience(() => call(...args), patience);
  return {
    createEvaluationRun: (run) => store.createEvaluationRun(run),
    getEvaluationRun: patient((id: string) => store.getEvaluationRun(id)),
    setCasesTotal: patient((id: string, total: number, malformed: number) =>
      store.setCasesTotal(id, total, malformed),
    ),
    cancelEvaluationRun: patient((id: string) => store.cancelEvaluationRun(id)),
    failEvaluationRun: patient((id: string, error: string) => store.failEvaluationRun(id, error)),
    hasVerdict: patient((id: string, caseKey: string, judgeName: string) =>
      store.hasVerdict(id, caseKey, judgeName),
    ),
    recordVerdict: patient((verdict: Parameters<JudgeStore['recordVerdict']>[0]) =>
      store.recordVerdict(verdict),
    ),
    // a batch committed whose reply was lost is recorded again as duplicates: one verdict per case still
    recordVerdicts: patient((verdicts: Parameters<JudgeStore['recordVerdicts']>[0]) =>
      store.recordVerdicts(verdicts),
    ),
    verdictCount: patient((id: string) => store.verdictCount(id)),
    verdicts: patient((id: string, options: Parameters<JudgeStore['verdicts']>[1]) =>
      store.verdicts(id, options),
    ),
    recordCases: patient((id: string, cases: Parameters<JudgeStore['recordCases']>[1]) =>
      store.recordCases(id, cases),
    ),
    storedCase: patient((id: string, caseKey: string) => store.storedCase(id, caseKey)),
    storedCases: patient((id: string, caseKeys: readonly string[]) =>
      store.storedCases(id, caseKeys),
    ),
    unjudgedCases: patient((id: string, options: Parameters<JudgeStore['unjudgedCases']>[1]) =>
      store.unjudgedCases(id, options),
    ),
    runningEvaluationRuns: patient(() => store.runningEvaluationRuns()),
    cachedVerdict: patient((key: string) => store.cachedVerdict(key)),
    cachedVerdicts: patient((keys: readonly string[]) => store.cachedVerdicts(keys)),
    // a save repeated after a lost reply writes the same state again
    saveSequentialGate: patient((gate: Parameters<JudgeStore['saveSequentialGate']>[0]) =>
      store.saveSequentialGate(gate),
    ),
    sequentialGateOf: patient((id: string) => store.sequentialGateOf(id)),
    // a lost reply could record a calibration twice: harmless, the newest of equal rows is read
    recordCalibration: patient((calibration: Parameters<JudgeStore['recordCalibration']>[0]) =>
      store.recordCalibration(calibration),
    ),
    calibrationOf: patient((fingerprint: string) => store.calibrationOf(fingerprint)),
    latestCalibration: patient((judgeName: string) => store.latestCalibration(judgeName)),
    close: () => store.close(),
  };
}
