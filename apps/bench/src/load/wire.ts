/** The generator's socket plumbing shared by every target: frames counted raw, delivery waited for, acks. */
import { io, Socket } from 'socket.io-client';
import type { Counters, Enc } from './types.js';

export function countFrames(socket: Socket, counters: Counters, marker: RegExp): void {
  // the raw frame as it came off the websocket (socket.io packet text, before JSON.parse)
  socket.io.engine.on('data', (d: unknown) => {
    if (typeof d === 'string' && marker.test(d.slice(0, 48))) {
      counters.frames += 1;
      counters.frameBytes += Buffer.byteLength(d);
    }
  });
}

export function waitDelivered(enc: Enc, P: number, timeoutMs = 30_000): Promise<boolean> {
  if (enc.recv >= P) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      enc.onDelivered = null;
      resolve(false);
    }, timeoutMs);
    enc.onDelivered = () => {
      clearTimeout(t);
      enc.onDelivered = null;
      resolve(true);
    };
  });
}

export function delivered(enc: Enc, to: number, P: number): void {
  if (to !== enc.pendingTo) return;
  enc.recv += 1;
  if (enc.recv >= P && enc.onDelivered) enc.onDelivered();
}

export function emitAck(socket: Socket, event: string, payload: unknown, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    socket.timeout(timeoutMs).emit(event, payload, (err: Error | null, ack: unknown) => (err ? reject(err) : resolve(ack)));
  });
}

/** An ack as the generator reads it: ok, the version it names, the error code. */
export interface Ack {
  ok: boolean;
  version?: number;
  error?: { code: string };
}

export function readAck(ack: unknown): Ack {
  if (!ack || typeof ack !== 'object' || !('ok' in ack)) return { ok: false, error: { code: 'NO_ACK' } };
  const version = 'version' in ack && typeof ack.version === 'number' ? ack.version : undefined;
  const error =
    'error' in ack && ack.error && typeof ack.error === 'object' && 'code' in ack.error && typeof ack.error.code === 'string'
      ? { code: ack.error.code }
      : undefined;
  return { ok: ack.ok === true, ...(version !== undefined ? { version } : {}), ...(error ? { error } : {}) };
}

/**
 * The generator's view of a client's socket: the same object, untyped (FrayClient's socket is
 * typed by the protocol; the generator also sends malformed commands through it).
 */
export function untyped(socket: object): Socket {
  if (!(socket instanceof Socket)) throw new Error('not a socket.io-client socket');
  return socket;
}

export async function connect(url: string, path = ''): Promise<Socket> {
  const s = io(url + path, { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', (e) => reject(e));
  });
  return s;
}
