/** What `arena requeue` and a starting worker say they put back: apart, so a worker loads no more of `arena requeue`. */

/** `put back N runs (M still queued)`. */
export function runsLine(done: { putBack: readonly string[]; stillQueued: number }): string {
  const runs = done.putBack.length === 1 ? 'run' : 'runs';
  const which = done.putBack.length > 0 ? `: ${done.putBack.join(', ')}` : '';
  return `put back ${done.putBack.length} ${runs} (${done.stillQueued} still queued)${which}`;
}

/** `put back N cases of evaluation run X (M still queued)`, one per running evaluation run. */
export function casesLines(
  done: readonly { evaluationRunId: string; putBack: number; stillQueued: number }[],
): string[] {
  return done.map(
    (each) =>
      `put back ${each.putBack} ${each.putBack === 1 ? 'case' : 'cases'} of evaluation run ${each.evaluationRunId} (${each.stillQueued} still queued)`,
  );
}
