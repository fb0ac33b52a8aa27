import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/actors/experiment/runSummary.js';
import { formatRunSummary } from '../../../src/cli/commands/runSummaryText.js';
import {
  formatRunDetails as formatRunReport,
  formatRunTable,
} from '../../../src/cli/commands/runsText.js';
import type { RunListing } from '../../../src/report/runListings.js';
import { checkpointReport, runReport } from '../../support/runReports.js';

function checkpointSection(text: string): string[] {
  const lines = text.split('\n');
  return lines.slice(lines.indexOf('checkpoints') + 1, lines.indexOf('meta decisions'));
}

const many = Array.from({ length: 30 }, (_, index) =>
  checkpointReport(index, { objective: index, episodes: 1 }),
);

describe('formatRunReport checkpoints', () => {
  it('says a metric with one value everywhere once, and leaves it out of the lines', () => {
    const section = checkpointSection(formatRunReport(runReport(many.slice(0, 2))));
    expect(section).toEqual([
      '  constant: operator episodes=1 at all 2 checkpoints (left out below)',
      '  phase 0 #0 after 3 training episodes: accepted, CONTINUE; operator objective=0',
      '  phase 0 #1 after 6 training episodes: accepted, CONTINUE; operator objective=1',
    ]);
  });

  it('keeps a metric that changes, or that a checkpoint lacks, in every line', () => {
    const checkpoints = [
      checkpointReport(0, { objective: 1, episodes: 1 }),
      checkpointReport(1, { objective: 1 }),
      checkpointReport(2, { objective: 2, episodes: 1 }),
    ];
    const section = checkpointSection(formatRunReport(runReport(checkpoints)));
    expect(section[0]).toBe(
      '  phase 0 #0 after 3 training episodes: accepted, CONTINUE; operator objective=1 episodes=1',
    );
    expect(section).toHaveLength(3);
  });

  it('prints every checkpoint by default', () => {
    expect(checkpointSection(formatRunReport(runReport(many)))).toHaveLength(31);
  });

  it('shows the first and last five with how many are left out between, when asked to shorten', () => {
    const section = checkpointSection(formatRunReport(runReport(many), { allCheckpoints: false }));
    expect(section).toHaveLength(12);
    expect(section[1]).toMatch(/^ {2}phase 0 #0 after/);
    expect(section[5]).toMatch(/^ {2}phase 0 #4 after/);
    expect(section[6]).toBe('  … 20 more checkpoints (arena show r --all prints every one)');
    expect(section[7]).toMatch(/^ {2}phase 0 #25 after/);
    expect(section[11]).toMatch(/^ {2}phase 0 #29 after/);
  });

  it("keeps every phase's decisive checkpoint (its STOP_PHASE) when it shortens the list", () => {
    // two phases of 15 checkpoints: the first phase's STOP_PHASE is neither among the first nor the last five
    const twoPhases = [...many.slice(0, 15), ...many.slice(0, 15)].map((checkpoint, index) => ({
      ...checkpoint,
      phaseIndex: index < 15 ? 0 : 1,
      ...(index === 14 || index === 29
        ? { control: 'STOP_PHASE', reason: index === 14 ? 'plateau' : 'success' }
        : {}),
    }));
    const section = checkpointSection(
      formatRunReport(runReport(twoPhases), { allCheckpoints: false }),
    );
    expect(section.filter((line) => line.includes('STOP_PHASE'))).toEqual([
      '  phase 0 #14 after 45 training episodes: accepted, STOP_PHASE, plateau; operator objective=14',
      '  phase 1 #14 after 45 training episodes: accepted, STOP_PHASE, success; operator objective=14',
    ]);
    expect(section.filter((line) => line.startsWith('  … '))).toEqual([
      '  … 9 more checkpoints (arena show r --all prints every one)',
      '  … 10 more checkpoints (arena show r --all prints every one)',
    ]);
  });

  it('does not shorten a list that would save no line', () => {
    const eleven = many.slice(0, 11);
    const section = checkpointSection(
      formatRunReport(runReport(eleven), { allCheckpoints: false }),
    );
    expect(section).toHaveLength(12);
    expect(section.some((line) => line.includes('…'))).toBe(false);
  });
});

describe('formatRunSummary checkpoint table', () => {
  const summary = (values: ReadonlyArray<Record<string, number>>): RunSummary => ({
    runId: 'r',
    uid: 'u',
    seed: 1,
    status: 'succeeded',
    error: null,
    phases: [
      {
        index: 0,
        name: 'train',
        mode: 'train',
        status: 'done',
        reason: 'max_episodes',
        episodes: 8,
        evaluationEpisodes: values.length,
        meanReturn: 1,
        meanReturnsByAgent: { operator: 1 },
        checkpoints: values.map((metrics, index) => ({
          index,
          afterEpisode: (index + 1) * 4,
          afterTrainingEpisodes: (index + 1) * 3,
          status: 'accepted',
          metrics: { operator: metrics },
          control: 'CONTINUE',
          reason: null,
        })),
        metaDecision: null,
        error: null,
      },
    ],
  });

  it('turns a column of one value into one line under the table', () => {
    const text = formatRunSummary(
      summary([
        { objective: 0.5, episodes: 1 },
        { objective: 0.75, episodes: 1 },
      ]),
      'arena.db',
    );
    expect(text.split('\n').slice(3, 7)).toEqual([
      '  checkpoint  after training episodes  status    operator.objective  decision',
      '  0           3                        accepted  0.500               CONTINUE',
      '  1           6                        accepted  0.750               CONTINUE',
      '  operator.episodes is 1.000 at every checkpoint (constant)',
    ]);
  });

  it('prints every row by default, and on request the first and last five with … and the count between', () => {
    const values = Array.from({ length: 30 }, (_, index) => ({ objective: index, episodes: 1 }));
    const table = (text: string) => text.split('\n').filter((line) => /^ {2}(\d|…)/.test(line));
    const full = table(formatRunSummary(summary(values), 'arena.db'));
    expect(full).toHaveLength(30);
    const short = table(formatRunSummary(summary(values), 'arena.db', { allCheckpoints: false }));
    expect(short).toEqual([
      ...full.slice(0, 5),
      '  … 20 more checkpoints (arena show r --all prints every one)',
      ...full.slice(-5),
    ]);
    const eleven = summary(values.slice(0, 11));
    expect(formatRunSummary(eleven, 'arena.db', { allCheckpoints: false })).toBe(
      formatRunSummary(eleven, 'arena.db'),
    );
  });

  it('keeps the column of a single checkpoint, which shows no constancy', () => {
    const text = formatRunSummary(summary([{ objective: 0.5, episodes: 1 }]), 'arena.db');
    expect(text).toContain('operator.objective  operator.episodes  decision');
    expect(text).not.toContain('constant');
  });
});

describe('formatRunTable', () => {
  const listing = (overrides: Partial<RunListing>): RunListing => ({
    runId: 'study-20261130T090000-1b2c',
    uid: 'study',
    status: 'succeeded',
    startedAt: '2026-11-30T09:00:00.000Z',
    phases: 3,
    episodes: 96,
    evaluationEpisodes: 24,
    terminationReason: 'max_episodes',
    terminationReasons: ['plateau', 'success', 'max_episodes'],
    worker: null,
    ...overrides,
  });

  it("counts training episodes as arena show does, and shows each phase's reason", () => {
    expect(formatRunTable([listing({})]).split('\n')).toEqual([
      'RUN ID                      UID    STATUS     STARTED               PHASES  EPISODES  TERMINATION',
      'study-20261130T090000-1b2c  study  succeeded  2026-11-30T09:00:00Z  3       96        plateau,success,max_episodes',
    ]);
  });

  it('marks a phase without a reason, and a run without any', () => {
    const cancelled = listing({
      status: 'cancelled',
      terminationReasons: ['plateau', 'cancelled', null],
    });
    const running = listing({ status: 'running', terminationReason: null, terminationReasons: [] });
    const [, first, second] = formatRunTable([cancelled, running]).split('\n');
    expect(first?.endsWith('  plateau,cancelled,-')).toBe(true);
    expect(second?.endsWith('  -')).toBe(true);
  });
});
