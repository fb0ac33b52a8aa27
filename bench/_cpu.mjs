// Preloaded into every arena process a benchmark starts (NODE_OPTIONS=--import=...): at exit, appends
// "<pid> <user+system CPU µs> <argv[2]> <judge store statements>" to ARENA_BENCH_CPU_FILE, so the CPU
// (and the statements sent to a PostgreSQL judge store) of all of them can be summed.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const file = process.env.ARENA_BENCH_CPU_FILE;
if (file) {
  let statements = 0;
  subscribe('arena.judgeStore.statement', () => {
    statements++;
  });
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    appendFileSync(
      file,
      `${process.pid} ${cpu.user + cpu.system} ${process.argv[2] ?? ''} ${statements}\n`,
    );
  });
}
