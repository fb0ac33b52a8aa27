import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../../src/ports/runtime/logger.js';

/** A JSON logger at `level` and the lines it wrote. */
function jsonLogger(level: 'debug' | 'warn') {
  const destination = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { logger: createLogger({ level, json: true, destination }), lines };
}

describe('createLogger', () => {
  it('writes calls at or above its level as pino does, and nothing below it', () => {
    const { logger, lines } = jsonLogger('warn');
    logger.info({ agent: 'A' }, 'below the level');
    logger.debug('below the level');
    logger.warn({ agent: 'A' }, 'incomplete checkpoint');
    logger.error(new Error('boom'), 'failed');
    expect(lines.map(({ level, msg, agent }) => ({ level, msg, agent }))).toEqual([
      { level: 40, msg: 'incomplete checkpoint', agent: 'A' },
      { level: 50, msg: 'failed', agent: undefined },
    ]);
    expect((lines[1]!.err as { message: string }).message).toBe('boom');
    expect(logger.level).toBe('warn');
    expect(logger.isLevelEnabled('info')).toBe(false);
  });

  it('gives children their bindings, whether made before or after the first line', () => {
    const { logger, lines } = jsonLogger('debug');
    const early = logger.child({ phase: 'train' });
    early.debug('from a child made before anything was written');
    logger.info('the parent');
    logger.child({ runId: 'r1' }).child({ agent: 'B' }).warn('nested');
    expect(lines.map(({ msg, phase, runId, agent }) => ({ msg, phase, runId, agent }))).toEqual([
      {
        msg: 'from a child made before anything was written',
        phase: 'train',
        runId: undefined,
        agent: undefined,
      },
      { msg: 'the parent', phase: undefined, runId: undefined, agent: undefined },
      { msg: 'nested', phase: undefined, runId: 'r1', agent: 'B' },
    ]);
  });

  it('raises its level when told, as a pino logger does', () => {
    const { logger, lines } = jsonLogger('warn');
    logger.level = 'debug';
    logger.debug('now written');
    expect(lines.map(({ msg }) => msg)).toEqual(['now written']);
  });
});

describe('silentLogger', () => {
  it('writes nothing at any level', () => {
    const logger = silentLogger();
    expect(() => logger.fatal('never written')).not.toThrow();
    expect(logger.level).toBe('silent');
  });
});
