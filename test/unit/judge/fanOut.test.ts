import { from, lastValueFrom, Subject, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fanOut } from '../../../src/actors/judging/fanOut.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';

/** A task whose answers the test gives by hand, recording the signals it was given. */
function manualTask() {
  const pending = new Map<number, (value: string) => void>();
  const signals: AbortSignal[] = [];
  const task = (item: number, signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<string>((resolve) => pending.set(item, resolve));
  };
  return { task, pending, signals };
}

describe('fanOut', () => {
  it('runs at most `concurrency` tasks and starts the next as one settles', async () => {
    const { task, pending } = manualTask();
    const results: string[] = [];
    from([1, 2, 3])
      .pipe(fanOut(2, task))
      .subscribe((result) => results.push(result));
    expect([...pending.keys()]).toEqual([1, 2]);
    pending.get(2)!('two');
    await Promise.resolve();
    await Promise.resolve();
    expect(results).toEqual(['two']);
    expect([...pending.keys()]).toEqual([1, 2, 3]);
  });

  it('emits an answer given at once in its turn, without holding a slot', async () => {
    const results = await lastValueFrom(
      from([1, 2, 3, 4]).pipe(
        fanOut(1, (item) => (item % 2 === 0 ? `now ${item}` : Promise.resolve(`later ${item}`))),
        toArray(),
      ),
    );
    expect(results).toEqual(['later 1', 'now 2', 'later 3', 'now 4']);
  });

  it('gives every task one signal, aborted only when tasks are in flight at the end', async () => {
    const { task, pending, signals } = manualTask();
    const subscription = from([1, 2]).pipe(fanOut(2, task)).subscribe();
    expect(signals[0]).toBe(signals[1]);
    subscription.unsubscribe();
    expect(signals[0]!.aborted).toBe(true);
    expect(pending.size).toBe(2);

    const done: AbortSignal[] = [];
    await lastValueFrom(
      from([1]).pipe(
        fanOut(1, async (_item, signal) => {
          done.push(signal);
          return 'ok';
        }),
      ),
    );
    expect(done[0]!.aborted).toBe(false);
  });

  it('errors the stream when a task throws or rejects, and aborts the rest', async () => {
    const signals: AbortSignal[] = [];
    const failing = from([1, 2]).pipe(
      fanOut(2, (item, signal) => {
        signals.push(signal);
        return item === 1 ? Promise.reject(new Error('bad case')) : new Promise<never>(() => {});
      }),
    );
    await expect(lastValueFrom(failing)).rejects.toThrow('bad case');
    expect(signals[1]!.aborted).toBe(true);
    await expect(
      lastValueFrom(
        from([1]).pipe(
          fanOut(1, () => {
            throw new Error('thrown');
          }),
        ),
      ),
    ).rejects.toThrow('thrown');
  });

  it('waits for an open source, and completes once it has and nothing is in flight', async () => {
    const source = new Subject<number>();
    const results: number[] = [];
    let completed = false;
    source.pipe(fanOut(2, async (item) => item * 10)).subscribe({
      next: (result) => results.push(result),
      complete: () => {
        completed = true;
      },
    });
    source.next(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(completed).toBe(false);
    source.next(2);
    source.complete();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(results).toEqual([10, 20]);
    expect(completed).toBe(true);
  });

  it('stops starting tasks once the subscriber has what it takes', async () => {
    let started = 0;
    const results = await lastValueFrom(
      from([1, 2, 3, 4]).pipe(
        fanOut(4, (item) => {
          started++;
          return item;
        }),
        take(2),
        toArray(),
      ),
    );
    expect(results).toEqual([1, 2]);
    expect(started).toBe(2);
  });

  it('refuses a concurrency that is not a positive integer', () => {
    expect(() => fanOut(0, () => 1)).toThrow(JudgeConfigurationError);
    expect(() => fanOut(1.5, () => 1)).toThrow('concurrency must be a positive integer, got 1.5');
  });
});
