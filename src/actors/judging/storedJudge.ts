import { parseJudgeConfig } from '../../config/judgeConfig.js';
import { pauseCapMs } from '../../domain/judge/modelPauseRule.js';
import type { Logger } from '../../ports/runtime/logger.js';
import type { EvaluationRunRecord } from '../../ports/store/judgeStore.js';
import { judgeFromConfig } from './judgeFromConfig.js';
import type { Judge } from './judges.js';
import { type ModelPauses, pauseKeyOf, pausingProvider } from './modelPauses.js';

/**
 * The judge of an evaluation run, from the judge config stored with it (the
 * rubric and profiles travel with the run; API keys are read from this
 * process's environment, never from the store). With `pauses`, its model
 * waits out the fleet's 429 pauses, each for at most its judge's back-off
 * `max_ms` (a judge without back-off does not wait).
 *
 * @example
 * ```ts
 * const judge = await judgeOfEvaluationRun(await store.getEvaluationRun(id), { pauses });
 * judge.settings.name; // 'strict'
 * ```
 */
export async function judgeOfEvaluationRun(
  run: EvaluationRunRecord,
  options: {
    readonly pauses?: ModelPauses;
    readonly logger?: Logger;
    readonly env?: Readonly<Record<string, string | undefined>>;
    /** The most connections its provider keeps open: the worker's judgements in flight. */
    readonly maxConnections?: number;
    /** The folders its agent's module may be imported from; default anywhere. */
    readonly moduleRoots?: readonly string[];
  } = {},
): Promise<Judge> {
  const config = parseJudgeConfig(run.judgeConfig, `the judge config of ${run.evaluationRunId}`);
  const { pauses } = options;
  return judgeFromConfig(config, {
    baseDir: run.configDir,
    name: run.judgeName,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
    ...(options.moduleRoots ? { moduleRoots: options.moduleRoots } : {}),
    ...(pauses
      ? {
          wrapProvider: (provider, profileName, judgeName) => {
            const profile = config.models[profileName];
            const backoff = config.judges[judgeName]?.backoff;
            const capMs = pauseCapMs(backoff ? { maxMs: backoff.max_ms } : null);
            return profile
              ? pausingProvider(provider, pauseKeyOf(profile), pauses, { capMs })
              : provider;
          },
        }
      : {}),
  });
}
