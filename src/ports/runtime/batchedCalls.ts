/** How calls are gathered into batches. */
export interface BatchLimits {
  /** A batch goes as soon as it holds this many calls. */
  readonly maxSize: number;
  /** The first call of a batch waits at most this long for others. */
  readonly maxWaitMs: number;
}

/** One call's input and the way back to its caller. */
interface Waiting<In, Out> {
  readonly input: In;
  readonly resolve: (output: Out) => void;
  readonly reject: (error: unknown) => void;
}

/** Calls gathered into batches; see `batchedCalls`. */
export interface BatchedCalls<In, Out> {
  /** Resolves with this input's output once its batch's bulk call resolved; rejects with its error. */
  call(input: In): Promise<Out>;
  /** Send every gathered batch now; resolves once their bulk calls settled. */
  flush(): Promise<void>;
  /** Calls gathered and not yet sent. */
  readonly waiting: number;
}

/**
 * Gather single calls into bulk calls: the calls of one group (`groupOf`)
 * wait together until `maxSize` of them are there or the first has waited
 * `maxWaitMs`, then `bulk` gets their inputs in order and answers with one
 * output each, in the same order. Each caller learns its own output only
 * once the bulk call resolved, so a batch's commit is each caller's commit;
 * a bulk call that rejects rejects every call of its batch with its error.
 *
 * @example
 * ```ts
 * const squares = batchedCalls(async (_group, inputs: readonly number[]) => inputs.map((n) => n * n), () => '', { maxSize: 3, maxWaitMs: 5 });
 * await Promise.all([squares.call(2), squares.call(3)]); // [4, 9], from one bulk call of [2, 3]
 * ```
 */
export function batchedCalls<In, Out>(
  bulk: (group: string, inputs: readonly In[]) => Promise<readonly Out[]>,
  groupOf: (input: In) => string,
  limits: BatchLimits,
): BatchedCalls<In, Out> {
  const gathering = new Map<string, { calls: Waiting<In, Out>[]; timer: NodeJS.Timeout }>();
  const maxSize = Math.max(1, Math.floor(limits.maxSize));
  let waiting = 0;

  const send = async (group: string): Promise<void> => {
    const batch = gathering.get(group);
    if (batch === undefined) return;
    gathering.delete(group);
    clearTimeout(batch.timer);
    waiting -= batch.calls.length;
    const { calls } = batch;
    try {
      const outputs = await bulk(
        group,
        calls.map((each) => each.input),
      );
      if (outputs.length !== calls.length) {
        throw new Error(`a bulk call answered ${outputs.length} of ${calls.length} calls`);
      }
      for (const [index, each] of calls.entries()) each.resolve(outputs[index] as Out);
    } catch (error) {
      for (const each of calls) each.reject(error);
    }
  };

  return {
    call(input) {
      return new Promise<Out>((resolve, reject) => {
        const group = groupOf(input);
        let batch = gathering.get(group);
        if (batch === undefined) {
          batch = { calls: [], timer: setTimeout(() => void send(group), limits.maxWaitMs) };
          gathering.set(group, batch);
        }
        batch.calls.push({ input, resolve, reject });
        waiting++;
        if (batch.calls.length >= maxSize) void send(group);
      });
    },
    async flush() {
      await Promise.all([...gathering.keys()].map(send));
    },
    get waiting() {
      return waiting;
    },
  };
}
