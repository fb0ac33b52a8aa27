// The part of `ws` 8 (installed with @statelyai/inspect, which relays through
// it) that the inspector relay and its tests use; `ws` ships no types of its own.
declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';

  export class WebSocket extends EventEmitter {
    static readonly OPEN: 1;
    readonly readyState: 0 | 1 | 2 | 3;
    readonly bufferedAmount: number;
    constructor(
      address: string,
      options?: { readonly origin?: string; readonly headers?: Record<string, string> },
    );
    send(data: string | Buffer, callback?: (error?: Error) => void): void;
    send(
      data: string | Buffer,
      options: { readonly binary?: boolean },
      callback?: (error?: Error) => void,
    ): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: {
      readonly noServer: true;
      /** Largest message a client may send, in bytes; a bigger one closes that client (1009). */
      readonly maxPayload?: number;
    });
    readonly clients: Set<WebSocket>;
    handleUpgrade(
      request: IncomingMessage,
      socket: Duplex,
      head: Buffer,
      callback: (client: WebSocket, request: IncomingMessage) => void,
    ): void;
    close(callback?: (error?: Error) => void): void;
  }

  export default WebSocket;
}
