import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { sweepActivity } from '../../../src/report/sweepActivity.js';

const owner = (pid: number, host = hostname()) => ({ id: `pid ${pid} on ${host}`, host, pid });
// a pid that existed and is gone: a finished child's
const gonePid = spawnSync(process.execPath, ['-e', '']).pid as number;

describe('sweepActivity', () => {
  it('calls a running sweep that was stopped interrupted', () => {
    expect(sweepActivity({ status: 'running', state: { machine: null, runner: null } })).toEqual({
      status: 'interrupted',
      interruption: 'it was stopped',
    });
  });

  it('calls a running sweep whose runner on this host is gone interrupted, naming the runner', () => {
    expect(
      sweepActivity({ status: 'running', state: { machine: null, runner: owner(gonePid) } }),
    ).toEqual({
      status: 'interrupted',
      interruption: `its runner (pid ${gonePid} on ${hostname()}) is gone`,
    });
  });

  it('takes a live runner, or one on another host, at its word', () => {
    for (const runner of [owner(process.pid), owner(gonePid, 'another-host')]) {
      expect(sweepActivity({ status: 'running', state: { machine: null, runner } }).status).toBe(
        'running',
      );
    }
  });

  it('shows an ended sweep as stored', () => {
    expect(sweepActivity({ status: 'succeeded', state: { machine: null, runner: null } })).toEqual({
      status: 'succeeded',
      interruption: null,
    });
  });
});
