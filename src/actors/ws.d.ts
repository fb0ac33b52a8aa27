// The part of `ws` 8 (installed with @statelyai/inspect, which relays through
// it) that the inspector relay uses; `ws` ships no types of its own.
declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  import type { Server } from 'node:http';

  export class WebSocket extends EventEmitter {
    static readonly OPEN: 1;
    readonly readyState: 0 | 1 | 2 | 3;
    readonly bufferedAmount: number;
    constructor(address: string);
    send(data: string, callback?: (error?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: { readonly server: Server });
    readonly clients: Set<WebSocket>;
    close(callback?: (error?: Error) => void): void;
  }

  export default WebSocket;
}
