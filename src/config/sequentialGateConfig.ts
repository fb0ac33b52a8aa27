import { JudgeConfigurationError } from '../domain/judge/errors.js';
import type { SequentialGateSpec } from '../domain/judge/sequentialGate.js';

/** The gates of a judge config, as far as the sequential gate reads them. */
interface GatesView {
  readonly min_pass_rate?: number | undefined;
  readonly min_mean_score?: number | undefined;
  readonly sequential?: { readonly alpha: number } | undefined;
}

/** What the sequential gate reads of a judge config: its gates and the declared score ranges. */
export interface SequentialGateConfigView {
  readonly gates: GatesView;
  readonly judges: Readonly<
    Record<string, { readonly score_range?: readonly [number, number] | undefined }>
  >;
  readonly panels: Readonly<
    Record<string, { readonly score_range?: readonly [number, number] | undefined }>
  >;
}

type Issue = { code: 'custom'; path: (string | number)[]; message: string };

/**
 * What is wrong with `gates.sequential` whatever judge is used: it needs a
 * gate to decide, and a pass rate strictly between 0 and 1 (at 0 or 1 there
 * is nothing to bet on).
 *
 * @example
 * ```ts
 * sequentialGateIssues({ sequential: { alpha: 0.05 } });
 * // [{ code: 'custom', path: ['gates', 'sequential'], message: 'decides min_pass_rate or min_mean_score: set one of them' }]
 * ```
 */
export function sequentialGateIssues(gates: GatesView): Issue[] {
  if (gates.sequential === undefined) return [];
  const found: Issue[] = [];
  if (gates.min_pass_rate === undefined && gates.min_mean_score === undefined) {
    found.push({
      code: 'custom',
      path: ['gates', 'sequential'],
      message: 'decides min_pass_rate or min_mean_score: set one of them',
    });
  }
  if (gates.min_pass_rate !== undefined && !(gates.min_pass_rate > 0 && gates.min_pass_rate < 1)) {
    found.push({
      code: 'custom',
      path: ['gates', 'min_pass_rate'],
      message: `with gates.sequential, expected a rate strictly between 0 and 1, got ${gates.min_pass_rate}`,
    });
  }
  return found;
}

/**
 * The gates `arena judge` decides sequentially with the judge or panel
 * `judgeName`, or `null` without `gates.sequential`. A `min_mean_score` gate
 * needs the judge's declared `score_range: [lo, hi]` (the betting test works
 * on [0, 1]) and a threshold strictly inside it.
 *
 * @throws JudgeConfigurationError naming the YAML path: a score gate without a declared range, or a threshold outside it.
 * @example
 * ```ts
 * sequentialGateSpecs(loadJudgeConfig('examples/judge/sequential.yaml').config, 'strict');
 * // { alpha: 0.05, specs: [{ gate: 'min_pass_rate', threshold: 0.8 }] }
 * ```
 */
export function sequentialGateSpecs(
  config: SequentialGateConfigView,
  judgeName: string,
  source = 'judge config',
): { alpha: number; specs: SequentialGateSpec[] } | null {
  const { gates } = config;
  if (gates.sequential === undefined) return null;
  const specs: SequentialGateSpec[] = [];
  if (gates.min_pass_rate !== undefined) {
    specs.push({ gate: 'min_pass_rate', threshold: gates.min_pass_rate });
  }
  if (gates.min_mean_score !== undefined) {
    const inPanels = judgeName in config.panels;
    const declared = inPanels ? config.panels[judgeName] : config.judges[judgeName];
    const rangePath = `${inPanels ? 'panels' : 'judges'}.${judgeName}.score_range`;
    const range = declared?.score_range;
    if (range === undefined) {
      throw new JudgeConfigurationError(
        `${source}: gates.min_mean_score: a sequential score gate needs the scores' range: declare ${rangePath}: [lo, hi]`,
      );
    }
    const [lo, hi] = range;
    if (!(gates.min_mean_score > lo && gates.min_mean_score < hi)) {
      throw new JudgeConfigurationError(
        `${source}: gates.min_mean_score: with gates.sequential, expected a score strictly inside ${rangePath} [${lo}, ${hi}], got ${gates.min_mean_score}`,
      );
    }
    specs.push({ gate: 'min_mean_score', threshold: gates.min_mean_score, scoreRange: [lo, hi] });
  }
  return { alpha: gates.sequential.alpha, specs };
}
