import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFetch } from '../../../src/ports/model/httpFetch.js';
import { type ChatServer, startChatServer } from '../../support/chatServer.js';
import { PASSED } from './fixtures.js';

let server: ChatServer | undefined;
let plain: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  plain?.closeAllConnections();
  await new Promise<void>((resolve) => (plain ? plain.close(() => resolve()) : resolve()));
  plain = undefined;
});

const MiB = 1024 * 1024;

function post(fetch: ReturnType<typeof httpFetch>, url: string, signal?: AbortSignal) {
  return fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' }),
    body: JSON.stringify({ model: 'm', messages: [] }),
    ...(signal ? { signal } : {}),
  });
}

/** A plain server for what the chat server does not script: redirects, echoes. */
async function startPlain(handler: Parameters<typeof createServer>[1]): Promise<string> {
  plain = createServer(handler);
  await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
}

describe('httpFetch: the judge provider transport', () => {
  it('sends the method, headers and body, and answers with status, headers and the JSON body', async () => {
    server = await startChatServer(() => ({ content: PASSED, headers: { 'x-answer': 'yes' } }));
    const response = await post(httpFetch({ maxResponseBytes: MiB }), server.baseURL);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-answer')).toBe('yes');
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]!.message.content).toBe(PASSED);
    expect(server.requests[0]!.body).toEqual({ model: 'm', messages: [] });
    const sent = JSON.stringify({ model: 'm', messages: [] });
    expect(server.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer k',
      'content-type': 'application/json',
      // What http.request and fetch add: the server's host, the body's length, keep-alive, the encodings read.
      host: new URL(server.baseURL).host,
      'content-length': String(Buffer.byteLength(sent)),
      connection: 'keep-alive',
      'accept-encoding': 'gzip, deflate',
    });
  });

  it('opens no more connections than maxConnections, however many requests are in flight', async () => {
    server = await startChatServer(() => ({ content: PASSED, delayMs: 20 }));
    const fetch = httpFetch({ maxResponseBytes: MiB, maxConnections: 4 });
    const responses = await Promise.all(
      Array.from({ length: 24 }, () => post(fetch, server!.baseURL)),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(server.connections()).toBeLessThanOrEqual(4);
    expect(server.maxInFlight()).toBeLessThanOrEqual(4);
  });

  it('reuses one kept-alive connection for requests one after another', async () => {
    server = await startChatServer(() => ({ content: PASSED }));
    const fetch = httpFetch({ maxResponseBytes: MiB });
    for (let index = 0; index < 10; index++) await (await post(fetch, server.baseURL)).json();
    expect(server.connections()).toBe(1);
  });

  it('rejects with the signal reason and stops the request when the signal aborts', async () => {
    server = await startChatServer(() => ({ content: PASSED, delayMs: 5000 }));
    const controller = new AbortController();
    const pending = post(httpFetch({ maxResponseBytes: MiB }), server.baseURL, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => server!.aborted()).toBe(1);
    const already = post(httpFetch({ maxResponseBytes: MiB }), server.baseURL, controller.signal);
    await expect(already).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers with a Response whose body reads once, clones before reading, and streams on demand', async () => {
    server = await startChatServer(() => ({ rawBody: '{"ok":true}' }));
    const fetch = httpFetch({ maxResponseBytes: MiB });
    const response = await post(fetch, server.baseURL);
    expect(response).toBeInstanceOf(Response);
    const copy = response.clone();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    expect(await copy.text()).toBe('{"ok":true}');
    const streamed = await post(fetch, server.baseURL);
    expect(await new Response(streamed.body).text()).toBe('{"ok":true}');
    expect(streamed.bodyUsed).toBe(true);
    expect(new Uint8Array(await (await post(fetch, server.baseURL)).arrayBuffer())).toEqual(
      new TextEncoder().encode('{"ok":true}'),
    );
  });

  it('answers, for every member of Response, what a constructed Response of the same status and headers does', async () => {
    const statuses = [200, 201, 404, 503];
    server = await startChatServer((_request, index) => ({
      status: statuses[index]!,
      rawBody: '{"ok":true}',
      headers: { 'content-type': 'application/json', 'x-a': 'b' },
    }));
    const fetch = httpFetch({ maxResponseBytes: MiB });
    for (const status of statuses) {
      const response = await post(fetch, server.baseURL);
      const built = new Response('{"ok":true}', {
        status,
        statusText: response.statusText,
        headers: response.headers,
      });
      const members = (value: Response) => ({
        type: value.type,
        url: value.url,
        redirected: value.redirected,
        status: value.status,
        ok: value.ok,
        statusText: value.statusText,
        headers: [...value.headers],
        bodyUsed: value.bodyUsed,
        tag: Object.prototype.toString.call(value),
      });
      expect(members(response)).toEqual(members(built));
      expect(response).toBeInstanceOf(Response);
      expect(await response.clone().blob()).toEqual(await built.clone().blob());
      expect(await response.arrayBuffer()).toEqual(await built.arrayBuffer());
      expect(members(response)).toEqual(members(built));
    }
  });

  it('decodes gzip and deflate bodies', async () => {
    const text = JSON.stringify({ ok: true });
    server = await startChatServer((_, index) => ({
      rawBody: index === 0 ? gzipSync(text) : deflateSync(text),
      headers: { 'content-encoding': index === 0 ? 'gzip' : 'deflate' },
    }));
    const fetch = httpFetch({ maxResponseBytes: MiB });
    expect(await (await post(fetch, server.baseURL)).json()).toEqual({ ok: true });
    expect(await (await post(fetch, server.baseURL)).json()).toEqual({ ok: true });
  });

  it('fails to read a body over the cap (decoded size) and stops its download', async () => {
    server = await startChatServer(() => ({ streamBytes: 50 * MiB }));
    const response = await post(httpFetch({ maxResponseBytes: MiB }), server.baseURL);
    await expect(response.text()).rejects.toMatchObject({ name: 'ProviderResponseTooLargeError' });
    expect(server.streamedBytes()).toBeLessThan(20 * MiB);
    server.requests.length = 0;
    const bomb = gzipSync(Buffer.alloc(8 * MiB, ' '));
    await server.close();
    server = await startChatServer(() => ({
      rawBody: bomb,
      headers: { 'content-encoding': 'gzip' },
    }));
    const compressed = await post(httpFetch({ maxResponseBytes: MiB }), server.baseURL);
    await expect(compressed.json()).rejects.toMatchObject({
      name: 'ProviderResponseTooLargeError',
    });
  });

  it('follows a redirect as fetch does: a 303 becomes a GET, credentials stay on their origin', async () => {
    const seen: { method: string; url: string; authorization: string | undefined }[] = [];
    const base = await startPlain((request, response) => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
      });
      if (request.url === '/v1/chat/completions') {
        response.writeHead(303, { location: '/v1/answer' }).end();
      } else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":1}');
    });
    const response = await post(httpFetch({ maxResponseBytes: MiB }), `${base}/v1`);
    expect(await response.json()).toEqual({ ok: 1 });
    expect(seen).toEqual([
      { method: 'POST', url: '/v1/chat/completions', authorization: 'Bearer k' },
      { method: 'GET', url: '/v1/answer', authorization: 'Bearer k' },
    ]);
  });

  it('rejects with the system error when the server is down', async () => {
    const stopped = await startChatServer(() => ({ content: PASSED }));
    await stopped.close();
    await expect(post(httpFetch({ maxResponseBytes: MiB }), stopped.baseURL)).rejects.toMatchObject(
      { code: 'ECONNREFUSED' },
    );
  });
});
