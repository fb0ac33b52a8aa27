import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { spawnArena } from '../support/judgeFleet.js';
import { waitUntil } from '../support/queueFleet.js';
import { readStore, runRecords } from '../support/records.js';
import { scratchFolder } from '../support/scratch.js';
import { decided, slowSweep, type Table, type TableRow } from '../support/sweeps.js';

const checkpointsStored = (store: string): number =>
  existsSync(store)
    ? readStore(store, (opened) =>
        opened.listRuns().reduce((sum, run) => sum + opened.checkpoints(run.runId).length, 0),
      )
    : 0;

describe('arena sweep', () => {
  it('runs the shipped sweep, prunes at its rungs and prints the leaderboard as JSON', async () => {
    const folder = scratchFolder('arena-sweep-');
    const store = `sqlite:${path.join(folder, 'sweep.db')}`;
    const result = await runArena(['sweep', 'examples/sweep.yaml', '--store', store, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const table = JSON.parse(result.stdout) as Table;
    expect(table.status).toBe('succeeded');
    expect(table.trials).toHaveLength(8);
    expect(table.trials.filter((trial) => trial.status === 'pruned').length).toBeGreaterThan(0);
    expect(table.trials.filter((trial) => trial.status === 'completed').length).toBeGreaterThan(0);
    for (const trial of table.trials) {
      expect(Object.keys(trial.parameters)).toHaveLength(2);
      expect(typeof trial.runId).toBe('string');
      // a pruned trial stopped at its rung: no checkpoint past it
      if (trial.prunedAt !== null) expect(trial.checkpoints).toBe(trial.prunedAt.checkpoints);
    }
    // each trial is an ordinary run of the store; a pruned one says why it stopped
    const runs = readStore(path.join(folder, 'sweep.db'), (opened) => opened.listRuns());
    expect(runs).toHaveLength(8);
    for (const trial of table.trials.filter((row) => row.status === 'pruned')) {
      const run = runs.find((each) => each.runId === trial.runId);
      expect(run?.status).toBe('cancelled');
      expect(run?.error).toMatch(/^pruned at rung \d \(\d+ evaluation checkpoints\) of sweep /);
    }
    // arena show <sweep-id> prints the stored leaderboard
    const shown = await runArena(['show', table.sweepId, '--store', store, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(table);
    // what validate accepts, sweep runs
    const validated = await runArena(['validate', 'examples/sweep.yaml']);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toBe(
      'ok: sweep plateau-sizes, 8 trials of examples/cap-free-plateau.yaml, pruner successive_halving at 3, 9 checkpoints\n',
    );
    const text = await runArena(['sweep', 'examples/sweep.yaml', '--store', store]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^sweep plateau-sizes-\S+: succeeded, 8 trials: \d completed, \d pruned; \d+ episodes/,
    );
    expect(text.stdout).toContain('pv_peak_mw');
    expect(text.stdout).toMatch(/pruned at rung 1 \(3\)/);
    expect(
      decided(
        JSON.parse(
          (await runArena(['sweep', 'examples/sweep.yaml', '--store', store, '--json'])).stdout,
        ),
      ),
    ).toEqual(decided(table));
  });

  it('gives the uninterrupted table after two SIGKILLs and --resume, and with three trials at once', async () => {
    const reference = slowSweep();
    const straight = await runArena(
      ['sweep', reference.sweepFile, '--store', `sqlite:${reference.store}`, '--json'],
      { cwd: reference.folder },
    );
    expect(straight.code, straight.stderr).toBe(0);
    const expected = JSON.parse(straight.stdout) as Table;
    expect(expected.trials.filter((trial) => trial.status === 'pruned').length).toBeGreaterThan(0);

    const killed = slowSweep();
    const store = `sqlite:${killed.store}`;
    let sweepId: string | null = null;
    // killed once after 6 checkpoints, then again (while resuming) after 6 more
    for (const after of [6, 12]) {
      const args =
        sweepId === null
          ? ['sweep', killed.sweepFile, '--store', store]
          : ['sweep', '--resume', sweepId, '--store', store];
      const running = spawnArena(args, { cwd: killed.folder });
      await waitUntil(
        `${after} checkpoints stored`,
        () => checkpointsStored(killed.store) >= after,
        {
          everyMs: 5,
          attempts: 4000,
        },
      );
      running.child.kill('SIGKILL');
      await running.exited;
      sweepId ??= /^sweep (\S+): starting/m.exec(running.stderr())?.[1] ?? null;
      expect(sweepId, running.stderr()).not.toBeNull();
      // killed in the middle: the sweep is still running in the store
      expect(readStore(killed.store, (opened) => opened.getSweep(sweepId as string).status)).toBe(
        'running',
      );
      // and shown as what it is: interrupted, with the command that goes on with it
      const shown = await runArena(['show', sweepId as string, '--store', store], {
        cwd: killed.folder,
      });
      expect(shown.stdout).toMatch(new RegExp(`^sweep ${sweepId}: interrupted, 8 trials`, 'm'));
      expect(shown.stdout).toContain(
        `interrupted: its runner (pid ${running.child.pid} on ${hostname()}) is gone; go on with: arena sweep --resume ${sweepId} --store sqlite:`,
      );
      const listed = await runArena(['sweeps', '--store', store, '--json'], { cwd: killed.folder });
      expect(JSON.parse(listed.stdout)).toMatchObject([
        { sweepId, status: 'interrupted', trials: 8 },
      ]);
    }
    const resumed = await runArena(
      ['sweep', '--resume', sweepId as string, '--store', store, '--json'],
      {
        cwd: killed.folder,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = JSON.parse(resumed.stdout) as Table;
    expect(decided(after)).toEqual(decided(expected));
    // each trial's records are those of the uninterrupted sweep's trial
    for (const [position, row] of after.trials.entries()) {
      const twin = expected.trials[position] as TableRow;
      expect(readStore(killed.store, (opened) => runRecords(opened, row.runId))).toEqual(
        readStore(reference.store, (opened) => runRecords(opened, twin.runId)),
      );
    }

    const parallel = slowSweep();
    const three = await runArena(
      [
        'sweep',
        parallel.sweepFile,
        '--store',
        `sqlite:${parallel.store}`,
        '--json',
        '--parallel',
        '3',
      ],
      { cwd: parallel.folder },
    );
    expect(three.code, three.stderr).toBe(0);
    expect(decided(JSON.parse(three.stdout) as Table)).toEqual(decided(expected));
  }, 180_000);

  it('refuses a bad sweep file with every problem by its YAML path, exit 2, and writes nothing', async () => {
    const { folder, sweepFile, store } = slowSweep();
    writeFileSync(
      sweepFile,
      readFileSync(sweepFile, 'utf8')
        .replace('parameters:', 'parameter:')
        .replace('eta: 2', 'eta: 1'),
    );
    const bad = await runArena(['sweep', sweepFile, '--store', `sqlite:${store}`], { cwd: folder });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('parameter: unknown key; did you mean "parameters"?');
    expect(bad.stderr).toContain(
      'pruner.successive_halving.eta: expected an integer of at least 2, got number 1',
    );
    expect(existsSync(store)).toBe(false);
    const validated = await runArena(['validate', sweepFile, '--json'], { cwd: folder });
    expect(validated.code).toBe(2);
    expect(
      (JSON.parse(validated.stdout) as { problems: { path: string }[] }).problems.map(
        (problem) => problem.path,
      ),
    ).toEqual(['parameters', 'parameter', 'pruner.successive_halving.eta']);

    writeFileSync(
      sweepFile,
      readFileSync(sweepFile, 'utf8')
        .replace('parameter:', 'parameters:')
        .replace('eta: 1', 'eta: 2')
        .replace('pointer: /seed', 'pointer: /schedule/0/train/agents/0/brian'),
    );
    const missing = await runArena(['sweep', sweepFile, '--store', `sqlite:${store}`], {
      cwd: folder,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'parameters[0].pointer: the run file has no value at /schedule/0/train/agents/0/brian (it has /schedule/0/train/agents/0)',
    );
    expect(existsSync(store)).toBe(false);
  });
  it('refuses hostile sweep files before expanding or storing anything: too many trials, too deep, bad bounds, unknown agent', async () => {
    const { folder, sweepFile, store } = slowSweep();
    const shipped = readFileSync(sweepFile, 'utf8');
    const values = (count: number) => `[${Array.from({ length: count }, (_, i) => i).join(', ')}]`;
    const hostile: [string, string][] = [
      [
        shipped.replace('values: [1, 2, 3, 4, 5, 6, 7, 8]', `values: ${values(100_000)}`),
        'parameters: the sweep makes 100000 trials (100000 values), more than --max-trials 10000',
      ],
      [
        `${shipped}search: { random: { trials: 1000000000 } }\n`,
        'search.random.trials: the sweep makes 1000000000 trials, more than --max-trials 10000',
      ],
      [
        shipped.replace(
          'values: [1, 2, 3, 4, 5, 6, 7, 8]',
          `values: ${'['.repeat(5000)}${']'.repeat(5000)}`,
        ),
        'parameters[0].values: nested deeper than 64 levels of lists and mappings; flatten it',
      ],
      [
        shipped.replace(
          'values: [1, 2, 3, 4, 5, 6, 7, 8]',
          'low: .nan\n    high: .inf\nsearch: { random: { trials: 2 } }',
        ),
        'parameters[0].low: expected a finite number, got number NaN',
      ],
      [
        shipped.replace('agent: operator', 'agent: operater'),
        `objective.agent: no agent 'operater' in run.yaml; did you mean "operator"?`,
      ],
    ];
    for (const [text, problem] of hostile) {
      writeFileSync(sweepFile, text);
      const refused = await runArena(['sweep', sweepFile, '--store', `sqlite:${store}`], {
        cwd: folder,
      });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(problem);
      expect(refused.stderr).not.toMatch(/at .*\.js:\d+/);
      expect(existsSync(store)).toBe(false);
      const validated = await runArena(['validate', sweepFile], { cwd: folder });
      expect(validated.code).toBe(2);
      expect(validated.stderr).toContain(problem);
    }
    writeFileSync(sweepFile, shipped);
    const capped = await runArena(['validate', sweepFile, '--max-trials', '7'], { cwd: folder });
    expect(capped.code).toBe(2);
    expect(capped.stderr).toContain(
      'the sweep makes 8 trials (8 values), more than --max-trials 7',
    );
    const tooHigh = await runArena(['validate', sweepFile, '--max-trials', '1e15'], {
      cwd: folder,
    });
    expect(tooHigh.code).toBe(2);
    expect(tooHigh.stderr).toContain('--max-trials: expected a whole number from 1 to 100000');
  }, 180_000);
  it('runs the shipped random search: its seeded draws within their ranges, pruned by the median rule', async () => {
    const result = await runArena([
      'sweep',
      'examples/sweep-random.yaml',
      '--store',
      'sqlite::memory:',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const table = JSON.parse(result.stdout) as Table;
    expect(table.trials).toHaveLength(6);
    for (const row of table.trials) {
      const population = row.parameters['/schedule/0/train/agents/0/brain/params/population'];
      const minDelta =
        row.parameters['/run_config/condition/params/agents/operator/plateau/min_delta'];
      expect(
        Number.isInteger(population) && (population as number) >= 4 && (population as number) <= 12,
      ).toBe(true);
      expect((minDelta as number) >= 0.05 && (minDelta as number) < 0.5).toBe(true);
    }
    expect(table.trials.some((row) => row.status === 'pruned')).toBe(true);
  }, 120_000);
});
