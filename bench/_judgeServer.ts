/**
 * A chat-completions server for the judge benchmarks, in its own process (as
 * a real model server is): every answer a passing verdict after `latency`
 * ms. Prints its base URL; answers each stdin line with its request count,
 * most in flight and connections; stops on stdin EOF.
 */
import { startChatServer } from '../test/support/chatServer.js';

const latency = Number(process.argv[2] ?? 50);
const verdict = JSON.stringify({
  status: 'passed',
  score: 1,
  label: 'ok',
  explanation: null,
  evidence: ['e'],
});
const server = await startChatServer(() => ({
  content: verdict,
  delayMs: latency,
  usage: { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 },
}));
process.stdout.write(`${server.baseURL}\n`);
process.stdin.on('data', (chunk: Buffer) => {
  if (chunk.toString('utf8').startsWith('reset')) server.resetMaxInFlight();
  process.stdout.write(
    `${JSON.stringify({ requests: server.requests.length, maxInFlight: server.maxInFlight(), connections: server.connections() })}\n`,
  );
});
process.stdin.on('end', () => void server.close());
