import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import {
  concurrentWritersTrial,
  interruptedTrial,
  referenceRun,
  trialRng,
  twoResumesTrial,
} from '../support/faultTrials.js';

// Real `arena` processes, interrupted the way users and machines interrupt them (scripts/fault-trials.ts
// runs the same trials many more times for the fault table).
const cli = path.join(repoRoot, 'cli/bin/arena.js');
const slowRun = path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml');
const meta = path.join(repoRoot, 'examples/hosting-capacity.yaml');
const metaLoop = path.join(repoRoot, 'examples/hosting-capacity-loop.yaml');

describe('faults with real processes', () => {
  let slowReference: Awaited<ReturnType<typeof referenceRun>>;
  let metaReference: Awaited<ReturnType<typeof referenceRun>>;
  let metaLoopReference: Awaited<ReturnType<typeof referenceRun>>;
  beforeAll(async () => {
    slowReference = await referenceRun(cli, slowRun);
    metaReference = await referenceRun(cli, meta);
    metaLoopReference = await referenceRun(cli, metaLoop);
  });

  it('SIGKILL at random moments, during the resumes too, then --resume: the records of an uninterrupted run', async () => {
    const rng = trialRng(101);
    let struck = 0;
    for (let trial = 0; trial < 2; trial++) {
      const result = await interruptedTrial(cli, slowRun, slowReference, rng, {
        signal: 'SIGKILL',
        interrupts: 3,
      });
      expect(result.note).toBe('');
      struck += result.landed ?? 0;
    }
    // the trial means something only if kills struck live processes, not ones already done
    expect(struck).toBeGreaterThan(1);
  });

  it('Ctrl-C, --resume, Ctrl-C, --resume (and SIGTERM alike): the records of an uninterrupted run', async () => {
    const rng = trialRng(202);
    let struck = 0;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const result = await interruptedTrial(cli, slowRun, slowReference, rng, {
        signal,
        interrupts: 2,
      });
      expect(result.note).toBe('');
      struck += result.landed ?? 0;
    }
    expect(struck).toBeGreaterThan(1);
  });

  it('SIGKILL in the hosting-capacity study, whose every phase starts with a meta turn, resumes exactly', async () => {
    const rng = trialRng(303);
    const result = await interruptedTrial(cli, meta, metaReference, rng, {
      signal: 'SIGKILL',
      interrupts: 2,
    });
    expect(result.note).toBe('');
  });

  it('SIGKILL in the repeated meta loop, whose phase decides again every 20 episodes, resumes exactly', async () => {
    const rng = trialRng(505);
    for (let trial = 0; trial < 2; trial++) {
      const result = await interruptedTrial(cli, metaLoop, metaLoopReference, rng, {
        signal: 'SIGKILL',
        interrupts: 3,
      });
      expect(result.note).toBe('');
    }
  });

  it('two --resume of one run at once: one runs it, the other refuses with exit 2 and touches nothing', async () => {
    const rng = trialRng(404);
    const result = await twoResumesTrial(cli, slowRun, slowReference, rng);
    expect(result.note).toBe('');
  });

  it('three arena run processes on one store at once all succeed with the records of solo runs', async () => {
    const result = await concurrentWritersTrial(cli, slowRun, slowReference, 3);
    expect(result.note).toBe('');
  });
});
