import type { JudgeContext } from '../../domain/judge/context.js';
import { sha256Hex } from '../../domain/shared/canonicalJson.js';
import type { VerdictCacheEntry } from '../../ports/store/judgeStore.js';
import type { Judge } from './judges.js';

/**
 * The cache key of a judgement: the prompt's sha256 and the judge's identity
 * (name, judge and rubric versions, evaluator and model), hashed together;
 * for one order of a pairwise case, also the systems shown first and second.
 * Any change to the prompt, the model or a version is another key. It is the
 * key of `judgeMany`'s cache and of the store's verdict cache alike.
 *
 * @example
 * ```ts
 * judgeCacheKey(judge, context); // '5d41…' (64 hex)
 * judgeCacheKey(judge, context) === verdictCacheEntryOf(judge, context).key; // true
 * ```
 */
export function judgeCacheKey(judge: Judge, context: JudgeContext): string {
  return keyOf(judge, judge.promptSha256(context), context);
}

/**
 * The verdict cache's entry for judging `context` with `judge`: the
 * judgement's `judgeCacheKey` and, stored beside it, what it was made of
 * (the prompt's sha256, the model and the versions).
 *
 * @example
 * ```ts
 * verdictCacheEntryOf(judge, context).key; // '5d41…' (64 hex)
 * ```
 */
export function verdictCacheEntryOf(judge: Judge, context: JudgeContext): VerdictCacheEntry {
  const promptSha256 = judge.promptSha256(context);
  return {
    key: keyOf(judge, promptSha256, context),
    promptSha256,
    model: judge.model,
    judgeVersion: judge.settings.judgeVersion,
    rubricVersion: judge.settings.rubricVersion,
  };
}

// Stored in every verdict cache already: this exact text is hashed, or stored verdicts stop matching.
// A pairwise judgement's key adds its order and pair (the systems shown first and second).
function keyOf(judge: Judge, promptSha256: string, context: JudgeContext): string {
  const pair = context.pairwise;
  return sha256Hex(
    JSON.stringify(
      pair === undefined
        ? [promptSha256, judge.identity]
        : [promptSha256, judge.identity, pair.first, pair.second],
    ),
  );
}
