// Preloaded into every arena process a benchmark starts (NODE_OPTIONS=--import=...): at exit, appends
// "<pid> <user+system CPU µs> <argv[2]>" to ARENA_BENCH_CPU_FILE, so the CPU of all of them can be summed.
import { appendFileSync } from 'node:fs';

const file = process.env.ARENA_BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    appendFileSync(file, `${process.pid} ${cpu.user + cpu.system} ${process.argv[2] ?? ''}\n`);
  });
}
