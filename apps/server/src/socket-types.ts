import type { Server, Socket } from 'socket.io';
import type { Viewer } from '@fray/engine';
import type { ClientEventName, ClientToServerEvents, ServerToClientEvents, WireError } from '@fray/protocol';
import type { EncounterHost, Sink } from '@fray/runtime';
import type { Principal } from './auth.js';
import type { EngineConn } from './transport.js';

/** An encounter a socket has joined. */
export interface Joined {
  host: EncounterHost;
  viewer: Viewer;
  unsubscribe: () => void;
  sink: Sink;
}

/** What the shared event listeners call on a socket's handlers (sockets.ts, `Connection`). */
export interface SocketHandlers {
  handle(event: ClientEventName, args: unknown[]): Promise<void>;
  refuse(event: string, error: WireError, ack: unknown): void;
  disconnected(reason: string): void;
}

/** `socket.data` of a Fray socket, set by the authentication middleware (sockets.ts). */
export interface SocketData {
  principal: Principal;
  /** commands of this socket waiting for their ack (see holdUntilTurnEnds) */
  awaitingAcks: number;
  joined: Map<string, Joined>;
  /** joins under way (connection.ts `subscribe`): a second join, a sync or a command of the same encounter waits for it */
  joining: Map<string, Promise<{ j: Joined }>>;
  /** the socket's handlers: one object per connection, its methods shared on the prototype */
  conn: SocketHandlers;
  /** the engine.io connection's write side (transport.ts), null when engine.io is not the version it was written against */
  engine: EngineConn | null;
}

/** A deleted encounter's tombstone, as one process tells another (encounter-delete.ts). */
export interface DeletedNotice {
  id: string;
  accountId: string;
  deletedAt: string;
}

/**
 * Server-to-server events, through the Redis adapter: `encounter:delete` asks every other process
 * to delete an encounter it runs (each answers the tombstone, or null when it does not run it).
 */
export interface InterServerEvents {
  'encounter:delete': (encounterId: string, answer: (deleted: DeletedNotice | null) => void) => void;
}
export type FraySocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type FrayIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** An acknowledgement callback (the last argument of a client event). */
type Ack = (a: unknown) => void;
export const isAck = (x: unknown): x is Ack => typeof x === 'function';

/** An error for socket.io's middleware: `data` reaches the client with the refused connection. */
export class ConnectError extends Error {
  constructor(
    message: string,
    readonly data: { code: string },
  ) {
    super(message);
  }
}
