import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@fray/protocol';

/** The socket a `FrayClient` talks through (`onSocket`). */
export type FraySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A fresh command id (the client's own, reused by its retries). */
export function newCommandId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** The options of `FrayClient.connect`. */
export interface ClientOptions {
  /** how long to wait for an ack before retrying (ms) */
  ackTimeoutMs?: number;
  /** how many times a command is retried (same commandId) across drops */
  retries?: number;
  socket?: Partial<ManagerOptions & SocketOptions>;
  /**
   * Where to go back to when the server process this client is on goes away (it shuts down, or
   * cannot be reached): normally the load balancer. Default: the URL first connected to.
   */
  entryUrl?: string;
  /** send this viewer's contribution to committed dice on join, while they are open (default true; docs/dice.md) */
  contributeDice?: boolean;
}
