// Preloaded into every arena process a benchmark starts (NODE_OPTIONS=--import=...): at exit, appends
// "<pid> <user+system CPU µs> <argv[2]> <judge store statements>" to ARENA_BENCH_CPU_FILE, so the CPU
// (and the statements sent to a PostgreSQL judge store) of all of them can be summed; and
// "<argv[2]>\t<count>\t<statement's first 80 characters>" per kind of statement to
// ARENA_BENCH_CPU_FILE.sql, so a benchmark can tell which statements a case costs and who sent them.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const file = process.env.ARENA_BENCH_CPU_FILE;
if (file) {
  let statements = 0;
  const kinds = new Map();
  subscribe('arena.judgeStore.statement', (sql) => {
    statements++;
    const kind = String(sql).replace(/\s+/g, ' ').trim().slice(0, 80);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  });
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const command = process.argv[2] ?? '';
    appendFileSync(file, `${process.pid} ${cpu.user + cpu.system} ${command} ${statements}\n`);
    if (kinds.size > 0) {
      appendFileSync(
        `${file}.sql`,
        [...kinds].map(([kind, count]) => `${command}\t${count}\t${kind}\n`).join(''),
      );
    }
  });
}
