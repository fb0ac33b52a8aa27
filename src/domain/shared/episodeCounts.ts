/** An episode as the store numbers it: its 1-based place in the phase, evaluation episodes counted. */
export interface NumberedEpisode {
  readonly episode: number;
  readonly evaluation: boolean;
}

/**
 * How many training (or test) episodes of a phase had finished by its
 * `episode`-th episode: the one count arena prints, with evaluation episodes
 * named apart. The store numbers every episode of a phase in order
 * (evaluation episodes too); a reader counts what the phase's `episodes` cap
 * counts.
 *
 * @example
 * ```ts
 * // evaluate_every 4: episodes 1-4 train, 5 evaluates, 6-9 train, 10 evaluates
 * trainingEpisodesThrough(stored, 10); // 8: the checkpoint after episode 10 came after 8 training episodes
 * ```
 */
export function trainingEpisodesThrough(
  episodes: readonly NumberedEpisode[],
  episode: number,
): number {
  return episodes.filter((stored) => !stored.evaluation && stored.episode <= episode).length;
}

/**
 * A count of episodes with its kind: a test phase runs test episodes, a
 * training phase training episodes; `evaluation` names the others.
 *
 * @example
 * ```ts
 * episodesNoun('test', 2); // '2 test episodes'
 * episodesNoun('train', 1); // '1 training episode'
 * episodesNoun('evaluation', 8); // '8 evaluation episodes'
 * ```
 */
export function episodesNoun(mode: string, count: number): string {
  const kind = mode === 'test' || mode === 'evaluation' ? mode : 'training';
  return `${count} ${kind} episode${count === 1 ? '' : 's'}`;
}
