import { addToSum, type CompensatedSum, emptySum, meanOfSum } from '../../domain/shared/mean.js';
import type { EpisodeSummary } from './store.js';

/** What a summary reads of one stored episode. */
export interface EpisodeReturn {
  readonly phaseIndex: number;
  readonly evaluation: boolean;
  readonly episodeReturn: number;
}

/**
 * Count and mean return per phase and kind of episode (training first), in
 * phase order, from the stored episodes in episode order. Every store
 * summarises through this one function, never its database's `AVG`, so a run
 * reads the same to the bit in SQLite, PostgreSQL and memory.
 *
 * @example
 * ```ts
 * summarizeEpisodes([
 *   { phaseIndex: 0, evaluation: false, episodeReturn: 0.5 },
 *   { phaseIndex: 0, evaluation: false, episodeReturn: 1.5 },
 *   { phaseIndex: 0, evaluation: true, episodeReturn: 3 },
 * ]);
 * // [{ phaseIndex: 0, evaluation: false, count: 2, meanReturn: 1 },
 * //  { phaseIndex: 0, evaluation: true, count: 1, meanReturn: 3 }]
 * ```
 */
export function summarizeEpisodes(episodes: Iterable<EpisodeReturn>): EpisodeSummary[] {
  const groups = new Map<string, CompensatedSum & { phaseIndex: number; evaluation: boolean }>();
  for (const episode of episodes) {
    const at = `${episode.phaseIndex}:${episode.evaluation ? 1 : 0}`;
    let group = groups.get(at);
    if (group === undefined) {
      group = { phaseIndex: episode.phaseIndex, evaluation: episode.evaluation, ...emptySum() };
      groups.set(at, group);
    }
    addToSum(group, episode.episodeReturn);
  }
  return [...groups.values()]
    .sort((a, b) => a.phaseIndex - b.phaseIndex || Number(a.evaluation) - Number(b.evaluation))
    .map((group) => ({
      phaseIndex: group.phaseIndex,
      evaluation: group.evaluation,
      count: group.count,
      meanReturn: meanOfSum(group) ?? 0,
    }));
}
