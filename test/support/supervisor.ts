import { spawnWorker, type WorkerProcess } from './queueFleet.js';

/** Workers kept up by a supervisor: a worker that dies is replaced by a new one. */
export interface Supervisor {
  /** Every worker it started, the dead and the live, in order. */
  readonly started: readonly WorkerProcess[];
  /** The workers running now. */
  live(): WorkerProcess[];
  /** How many workers died without being told to stop (killed, or exited by themselves). */
  deaths(): number;
  /** Stop restarting, then SIGTERM the live workers and wait for them. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }[]>;
}

/**
 * Keep `count` workers up, as systemd or Kubernetes would: a worker that
 * exits is started again (as `<name>-<n>`), until `stop`. `args(name)` are
 * the `arena worker` arguments of a worker of that name.
 */
export function superviseWorkers(options: {
  count: number;
  args: (name: string) => readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Supervisor {
  const started: WorkerProcess[] = [];
  let stopping = false;
  let deaths = 0;
  const start = (slot: number, generation: number): void => {
    const worker = spawnWorker(options.args(`w${slot}-${generation}`), {
      cwd: options.cwd,
      env: options.env,
    });
    started.push(worker);
    void worker.exited.then(() => {
      if (stopping) return;
      deaths += 1;
      start(slot, generation + 1);
    });
  };
  for (let slot = 1; slot <= options.count; slot++) start(slot, 1);
  const live = () =>
    started.filter((worker) => worker.child.exitCode === null && worker.child.signalCode === null);
  return {
    started,
    live,
    deaths: () => deaths,
    async stop() {
      stopping = true;
      const running = live();
      for (const worker of running) worker.child.kill('SIGTERM');
      return Promise.all(running.map((worker) => worker.exited));
    },
  };
}
