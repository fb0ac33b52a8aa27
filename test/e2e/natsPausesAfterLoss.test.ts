import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJetStreamJudgeQueue } from '../../src/ports/nats/jetStreamJudgeQueue.js';
import type { JudgeQueue, ModelPause } from '../../src/ports/queue/judgeQueue.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { waitUntil } from '../support/queueFleet.js';

// Issue 35 (closing notes): a worker hears pauses again after nats-server comes back without its
// JetStream folder, the real ones (its own 429s announced) and those of other workers.
let nats: NatsServer;
const queues: JudgeQueue[] = [];
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.close().catch(() => undefined)));
  await nats?.dispose();
});

const worker = async () => {
  const queue = await openJetStreamJudgeQueue({ url: nats.url, consume: { ackWaitMs: 2000 } });
  queues.push(queue);
  return queue;
};

describe('model pauses across a nats-server restart that lost its JetStream folder', () => {
  it('every worker hears a pause announced after the restart, as before it', async () => {
    const [listening, announcing] = [await worker(), await worker()];
    const heard: ModelPause[] = [];
    listening.onPause((pause) => heard.push(pause));
    announcing.announcePause({ key: 'model-before', untilMs: Date.now() + 60_000 });
    await waitUntil('the first pause is heard', () => heard.some((p) => p.key === 'model-before'));

    await nats.kill();
    await nats.start({ lostStore: true });
    // announced again and again, as a worker meeting 429s does, until the fleet is set up again
    await waitUntil(
      'a pause announced after the restart is heard',
      () => {
        announcing.announcePause({ key: 'model-after', untilMs: Date.now() + 60_000 });
        return heard.some((p) => p.key === 'model-after');
      },
      { attempts: 200, everyMs: 100 },
    );
    expect(heard.map((pause) => pause.key)).toContain('model-after');
  });
});
