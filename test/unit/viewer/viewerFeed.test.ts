import { describe, expect, it } from 'vitest';
import { ViewerFeed } from '../../../src/viewer/viewerFeed.js';
import type { ActorMessage, SnapshotMessage } from '../../../src/viewer/viewerMessages.js';

const actor = (seq: number, sid: string): ActorMessage => ({
  k: 'actor',
  seq,
  at: seq,
  sid,
  id: sid,
  machine: 'm',
  parent: null,
  chart: 'm',
});
const snapshot = (seq: number, sid: string, value: string, status = 'active'): SnapshotMessage => ({
  k: 'snapshot',
  seq,
  at: seq,
  sid,
  event: 'e',
  value,
  status,
});

describe('ViewerFeed', () => {
  it('keeps the last `history` messages per actor, with its registration, in stream order', () => {
    const feed = new ViewerFeed({ history: 3 });
    feed.add(actor(0, 'a'));
    feed.add(actor(1, 'b'));
    for (let seq = 2; seq < 12; seq++)
      feed.add(snapshot(seq, seq % 2 === 0 ? 'a' : 'b', `s${seq}`));
    expect(feed.retained().map((message) => message.seq)).toEqual([0, 1, 6, 7, 8, 9, 10, 11]);
    expect(feed.keptMessages).toBe(8);
  });

  it('the memory it holds stays flat once the rings are full, however long the run', () => {
    const feed = new ViewerFeed({ history: 50 });
    for (let sid = 0; sid < 20; sid++) feed.add(actor(sid, `x:${sid}`));
    let seq = 20;
    const keptAfter = (events: number): number => {
      for (let n = 0; n < events; n++) {
        feed.add({
          k: 'event',
          seq: seq++,
          at: seq,
          sid: `x:${n % 20}`,
          type: 'tick',
          payload: { n },
          source: null,
        });
      }
      return feed.keptMessages;
    };
    const full = keptAfter(20 * 50);
    expect(keptAfter(100_000)).toBe(full);
    expect(full).toBe(20 * 51);
  });

  it("keeps an actor's latest snapshot after its ring let it go: a late page sees the current state", () => {
    const feed = new ViewerFeed({ history: 2 });
    feed.add(actor(0, 'a'));
    feed.add(snapshot(1, 'a', 'running'));
    for (let seq = 2; seq < 6; seq++) {
      feed.add({ k: 'event', seq, at: seq, sid: 'a', type: 'tick', payload: null, source: null });
    }
    expect(feed.retained().map((message) => message.seq)).toEqual([0, 1, 4, 5]);
  });

  it('forgets the oldest finished actors past maxActors, never an active one', () => {
    const feed = new ViewerFeed({ history: 10, maxActors: 2 });
    feed.add(actor(0, 'a'));
    feed.add(actor(1, 'b'));
    feed.add(snapshot(2, 'b', 'done', 'done'));
    expect(feed.add(actor(3, 'c'))).toEqual([{ k: 'gone', sid: 'b' }]);
    expect(feed.actorCount).toBe(2);
    expect(feed.add(actor(4, 'd'))).toEqual([]);
    expect(feed.actorCount).toBe(3);
  });

  it('a replay feed (history null) keeps everything', () => {
    const feed = new ViewerFeed({ history: null });
    feed.add(actor(0, 'a'));
    for (let seq = 1; seq <= 1000; seq++) feed.add(snapshot(seq, 'a', `s${seq}`));
    expect(feed.retained()).toHaveLength(1001);
  });
});

describe('startViewer', () => {
  it('counts what it keeps as actors run (its counts are live, not a copy)', async () => {
    const { startViewer } = await import('../../../src/viewer/startViewer.js');
    const { createActor, createMachine } = await import('xstate');
    const viewer = await startViewer({ port: 0, history: 5 });
    try {
      const toggle = createMachine({
        id: 'toggle',
        initial: 'off',
        states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } },
      });
      expect(viewer.keptMessages).toBe(0);
      const actor = createActor(toggle, { inspect: viewer.inspect }).start();
      for (let flip = 0; flip < 20; flip++) actor.send({ type: 'flip' });
      // the registration, then a ring of 5 (events and snapshots) with the latest snapshot in it
      expect(viewer.keptMessages).toBe(6);
      actor.stop();
    } finally {
      await viewer.close();
    }
  });
});
