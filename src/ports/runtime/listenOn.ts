import type { Server } from 'node:http';

/**
 * Start `server` on `host:port` (port 0 picks a free one) and resolve the port
 * it listens on; a failure (the port in use, an unknown host) rejects with an
 * `ErrorClass` whose message says where and why.
 *
 * @example
 * ```ts
 * await listenOn(createServer(), 0, '127.0.0.1', ViewerServerError); // 40123
 * // a taken port: ViewerServerError('cannot listen on 127.0.0.1:4000: the port is in use (EADDRINUSE)')
 * ```
 */
export function listenOn(
  server: Server,
  port: number,
  host: string,
  ErrorClass: new (message: string, options?: { cause?: unknown }) => Error,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
      reject(
        new ErrorClass(`cannot listen on ${host}:${port}: ${why} (${error.code ?? 'error'})`, {
          cause: error,
        }),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.removeListener('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
