import type fc from 'fast-check';

/** Let every promise chain that can move on do so (one turn of the event loop). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Release scheduled tasks one at a time, letting every promise chain settle in between. */
export async function runToQuiet(scheduler: fc.Scheduler): Promise<void> {
  await settle();
  while (scheduler.count() > 0) {
    await scheduler.waitOne();
    await settle();
  }
}
