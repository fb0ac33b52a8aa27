import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ComponentContractError } from '../../../src/actors/experiment/components.js';
import { ModulesChangedError } from '../../../src/actors/experiment/moduleChanges.js';
import {
  classifyDeliveryFailure,
  ModuleMissingError,
  missingModulesOf,
  StoredRunFileError,
} from '../../../src/actors/experiment/queue/deliveryFailure.js';
import { RunInterruptedError } from '../../../src/actors/experiment/runInterrupted.js';
import {
  LeaseLostError,
  RunLeasedError,
  RunNotFoundError,
  StoreWriteError,
} from '../../../src/ports/store/storeErrors.js';

const runId = 'slow-line-20261201T090000-3fa2';
const holder = {
  owner: { id: 'elsewhere', host: 'another-host', pid: 1 },
  heartbeatAt: '2026-12-01T09:00:00.000Z',
  expiresAt: '2026-12-01T09:00:15.000Z',
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('classifyDeliveryFailure', () => {
  it.each([
    ['RunLeasedError', new RunLeasedError(runId, holder, new Date('2026-12-01T09:00:02Z'))],
    ['LeaseLostError', new LeaseLostError(runId, null)],
    ['RunInterruptedError', new RunInterruptedError(runId, 'no instance of service "tank"')],
    ['RunNotFoundError', new RunNotFoundError(runId)],
  ])('calls a %s transient: it may go away by itself', (name, error) => {
    expect(classifyDeliveryFailure(error)).toEqual({
      kind: 'transient',
      reason: `${name}: ${error.message}`,
    });
  });

  it.each([
    ['ModuleMissingError', new ModuleMissingError(runId, ['/experiments/env.js'])],
    ['ModulesChangedError', new ModulesChangedError(runId, ['/experiments/env.js'])],
    ['StoredRunFileError', new StoredRunFileError(runId, 'no longer loads: schedule: required')],
    [
      'ComponentContractError',
      new ComponentContractError(
        { name: './env.js:Env', params: {}, yamlPath: 'schedule[0].train.environments[0]' },
        'failed to construct',
      ),
    ],
    ['StoreWriteError', new StoreWriteError(3, new Error('disk full'))],
    ['TypeError', new TypeError("Cannot read properties of undefined (reading 'step')")],
  ])('calls a %s permanent, with its name and message as the reason', (name, error) => {
    expect(classifyDeliveryFailure(error)).toEqual({
      kind: 'permanent',
      reason: `${name}: ${error.message}`,
    });
  });

  it('calls a thrown non-error permanent and keeps what was thrown as the reason', () => {
    expect(classifyDeliveryFailure('a string')).toEqual({ kind: 'permanent', reason: 'a string' });
  });
});

describe('missingModulesOf', () => {
  it('turns a ModulesChangedError whose file is gone into a ModuleMissingError naming it', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-missing-'));
    folders.push(folder);
    const present = path.join(folder, 'present.js');
    writeFileSync(present, 'export class Env {}\n');
    const gone = path.join(folder, 'gone.js');
    const changed = new ModulesChangedError(runId, [gone, present]);
    const explained = await missingModulesOf(changed);
    expect(explained).toBeInstanceOf(ModuleMissingError);
    expect(explained).toMatchObject({ code: 'MODULE_MISSING', files: [gone], cause: changed });
    expect((explained as Error).message).toBe(
      `run '${runId}' cannot run on this worker: its module ${gone} is not there (it was when the run was submitted)`,
    );
    expect(classifyDeliveryFailure(explained).kind).toBe('permanent');
  });

  it('leaves a ModulesChangedError whose files are all there (changed, not gone) as it is', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-missing-'));
    folders.push(folder);
    const present = path.join(folder, 'present.js');
    writeFileSync(present, 'export class Env {}\n');
    const changed = new ModulesChangedError(runId, [present]);
    expect(await missingModulesOf(changed)).toBe(changed);
  });

  it('leaves any other error as it is', async () => {
    const error = new Error('boom');
    expect(await missingModulesOf(error)).toBe(error);
  });
});
