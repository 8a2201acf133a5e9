import { createRequire } from 'node:module';
import type { Socket as NetSocket } from 'node:net';
import { Socket as EngineSocket } from 'engine.io';
import * as parser from 'socket.io-parser';

/**
 * socket.io's own parser, with one step skipped when sending: the walk of every outgoing packet in
 * search of binary attachments (`hasBinary`, about 2 % of the server's CPU under load). Fray's
 * server never sends binary data: every message is JSON (docs/protocol.md), so the packet is
 * encoded as the stock encoder encodes a packet without attachments, byte for byte. Incoming
 * packets go through the stock decoder, binary ones included (they are refused as invalid
 * messages further on).
 */
class JsonEncoder extends parser.Encoder {
  override encode(obj: parser.Packet): Array<string> {
    return encodeAsString ? [encodeAsString.call(this, obj)] : super.encode(obj);
  }
}

/** The stock encoder's string encoding (private in its typings; typed here as it is). */
type StringEncoding = (this: parser.Encoder, packet: parser.Packet) => string;
const isStringEncoding = (f: unknown): f is StringEncoding => typeof f === 'function';
const encoderProto: object = parser.Encoder.prototype;
const encodeAsString =
  'encodeAsString' in encoderProto && isStringEncoding(encoderProto.encodeAsString) ? encoderProto.encodeAsString : null;

export const jsonParser = { ...parser, Encoder: JsonEncoder };

/** What this file uses of an engine.io connection (engine.io's `Socket`, 6.6) beyond its typings. */
export interface EngineConn {
  readyState: string;
  transport: { name?: string; writable: boolean; socket?: { _socket?: NetSocket }; send(packets: unknown[]): void };
  writeBuffer: unknown[];
  packetsFn: unknown[];
  sentCallbackFn: unknown[];
  server: { emit(event: string, ...args: unknown[]): boolean };
  emit(event: string, ...args: unknown[]): boolean;
  flush(): void;
}

/**
 * An engine.io connection (socket.io's `socket.conn`) with the private fields this file uses, or
 * null when they are not there (another engine.io: the write is then not held). Read once, when a
 * socket connects (sockets.ts keeps it in `socket.data.engine`).
 */
export function engineConnOf(conn: object): EngineConn | null {
  return isEngineConn(conn) ? conn : null;
}
function isEngineConn(c: object): c is EngineConn {
  return (
    'writeBuffer' in c &&
    Array.isArray(c.writeBuffer) &&
    'packetsFn' in c &&
    Array.isArray(c.packetsFn) &&
    'sentCallbackFn' in c &&
    Array.isArray(c.sentCallbackFn) &&
    'server' in c &&
    typeof c.server === 'object' &&
    'transport' in c &&
    typeof c.transport === 'object' &&
    'flush' in c &&
    typeof c.flush === 'function'
  );
}

const held = new Set<EngineConn>();
let releaseScheduled = false;

function releaseAll(): void {
  releaseScheduled = false;
  for (const conn of held) {
    const tcp = conn.transport.socket?._socket;
    conn.transport.writable = true;
    if (conn.readyState !== 'open' || !tcp || tcp.destroyed) {
      conn.flush();
      continue;
    }
    // every packet buffered during the turn, as consecutive frames in one writev
    tcp.cork();
    conn.flush();
    tcp.uncork();
  }
  held.clear();
}

/**
 * Hold a socket's outgoing packets until the current job's promise chain has run
 * (process.nextTick runs once the microtask queue is empty), then write them together. A
 * command's patch and its ack leave in the same turn (the ack follows the broadcast a few promise
 * steps later); held, they go out in one `writev` instead of two. Each write on loopback costs
 * tens of microseconds (the syscall and waking the reader): about a quarter of the server's CPU
 * under load was in writes. Nothing waits longer than the turn.
 *
 * engine.io sends one batch at a time: while a write is in flight its transport is not
 * `writable` and new packets wait in the socket's `writeBuffer` until the write completes. The
 * hold uses that same state (only when nothing is in flight), and the release flushes the buffer
 * as engine.io does after a write, with the TCP socket corked so the frames share one syscall.
 */
export function holdUntilTurnEnds(conn: EngineConn): void {
  if (conn.transport.name !== 'websocket' || !conn.transport.writable || conn.readyState !== 'open' || held.has(conn)) return;
  conn.transport.writable = false;
  held.add(conn);
  if (!releaseScheduled) {
    releaseScheduled = true;
    process.nextTick(releaseAll);
  }
}

/** Whether a library's function still has the code an override here was written against (parts of its body, whitespace aside). */
function hasShape(fn: object, parts: readonly string[]): boolean {
  const body = sourceOf(fn);
  return parts.every((part) => body.includes(part));
}

/** A function's source without whitespace (what the shape checks compare). */
function sourceOf(fn: object): string {
  return fn.toString().replace(/\s+/g, '');
}

/**
 * engine.io's `Socket.flush` (6.6), except that a connection keeps one `writeBuffer` and one
 * `packetsFn` array for its whole life, emptied in place, where engine.io puts a new array on the
 * connection at every flush.
 *
 * Why: garbage in V8's old generation keeps young objects alive. A connection sends about once a
 * second, so the array engine.io leaves on it after a flush lives until the next one and is
 * promoted to the old generation. The next message's packets are pushed into that old array, then
 * the array is dropped for a new one. Until the next full GC the dropped array still points at the
 * packets, and a scavenge counts every pointer from the old generation as alive: the packets, their
 * JSON strings and everything they reach are promoted too, and die there. At 1,000 encounters × 5
 * sockets this was 43 % of what the server promoted (1.8 → 1.0 MB a scavenge; docs/performance.md,
 * "Session 9"), and the promotion sets how often the full GCs come. An array that stays on the
 * connection stays live, and emptied it points at nothing.
 *
 * The behaviour is engine.io's own: the same events with the same packets, the same callbacks in
 * the same order. Installed only over the flush it was written against (`installed` says whether
 * it was): another engine.io version keeps its own.
 */
function flushKeepingArrays(this: EngineConn): void {
  if (this.readyState === 'closed' || !this.transport.writable || this.writeBuffer.length === 0) return;
  const wbuf = this.writeBuffer.slice();
  this.writeBuffer.length = 0;
  this.emit('flush', wbuf);
  this.server.emit('flush', this, wbuf);
  if (this.packetsFn.length) {
    this.sentCallbackFn.push(this.packetsFn.slice());
    this.packetsFn.length = 0;
  } else this.sentCallbackFn.push(null);
  this.transport.send(wbuf);
  this.emit('drain');
  this.server.emit('drain', this);
}

/** engine.io's flush as this was written against (its body, whitespace aside). */
const ENGINE_FLUSH_SHAPE = [
  '"closed"!==this.readyState&&this.transport.writable&&this.writeBuffer.length',
  'constwbuf=this.writeBuffer;this.writeBuffer=[];',
  'this.sentCallbackFn.push(this.packetsFn);this.packetsFn=[];',
  'this.transport.send(wbuf);',
];

export const engineFlush = {
  installed: false,
  /** Put flushKeepingArrays on engine.io's Socket, once; false (and engine.io's own kept) when its flush is not the one expected. */
  install(): boolean {
    const proto: object = EngineSocket.prototype;
    if (this.installed) return true;
    if (!('flush' in proto) || typeof proto.flush !== 'function' || !hasShape(proto.flush, ENGINE_FLUSH_SHAPE)) return false;
    proto.flush = flushKeepingArrays;
    this.installed = true;
    return true;
  },
};

/** What this file uses of ws's `Receiver` (8.x): the frames of the message being read, and the binary type. */
interface WsReceiver {
  _fragments: unknown[];
  _binaryType: string;
}
type WsReceiverClass = { prototype: { dataMessage(this: WsReceiver, cb: (err?: Error) => void): void } };

/** ws's `dataMessage` as this was written against (parts of its body, whitespace aside). */
const WS_DATA_MESSAGE_SHAPE = ['constfragments=this._fragments;', 'this._fragments=[];', 'data=fragments;'];
const keptFragments = new WeakSet<object>();

/** ws's Receiver as engine.io loads it (the module instance the server's connections use). */
export function engineWsReceiver(): WsReceiverClass {
  return (createRequire(createRequire(import.meta.url).resolve('engine.io')) as NodeRequire)('ws').Receiver as WsReceiverClass;
}

/**
 * ws's reading side (8.x), with one array kept: each connection's `Receiver` collects a message's
 * frames in `_fragments` and, once the message is whole, puts a new empty array there. The same
 * thing happens as with engine.io's write buffer (`engineFlush`): a connection reads about once a
 * second, so that array is promoted before the next message is pushed into it, then dropped with
 * the message's buffer still in it. A scavenge counts the dropped array's pointer as alive, so the
 * buffer, and the memory behind it, lasts until a full GC. In the bench's load generator (5,000
 * client connections) that memory grew by 5 MB a second and set off a full GC every 13–15 s
 * ("external memory pressure"; docs/journal/performance-2026-11.md, "Session 10").
 *
 * The wrapper runs ws's own `dataMessage` and then, if it put a new empty array in place, empties
 * the old one and puts it back: the message was already made from its frames (a single frame is
 * passed on as itself, several are copied into one buffer), so nothing else holds the array. The
 * binary type `fragments`, which hands the array itself to the listener, is left as ws does it.
 * Installed once per Receiver class, only over the `dataMessage` it was written against.
 */
export const wsFragments = {
  install(Receiver: WsReceiverClass = engineWsReceiver()): boolean {
    const proto = Receiver.prototype;
    if (keptFragments.has(proto)) return true;
    if (!hasShape(proto.dataMessage, WS_DATA_MESSAGE_SHAPE)) return false;
    const own = proto.dataMessage;
    proto.dataMessage = function dataMessageKeepingFragments(this: WsReceiver, cb: (err?: Error) => void): void {
      const fragments = this._fragments;
      own.call(this, cb);
      if (this._fragments !== fragments && this._fragments.length === 0 && this._binaryType !== 'fragments') {
        fragments.length = 0;
        this._fragments = fragments;
      }
    };
    keptFragments.add(proto);
    return true;
  },
  installed(Receiver: WsReceiverClass = engineWsReceiver()): boolean {
    return keptFragments.has(Receiver.prototype);
  },
};

/** engine.io's listener (6.6, `WebSocketResponse`) that re-emits a websocket's TCP `close` on the upgrade's response (its body, whitespace aside). */
const UPGRADE_CLOSE_SHAPE = '()=>this.emit("close")';

/**
 * Let go of engine.io's response object for a websocket upgrade, and with it the upgrade's HTTP
 * request. engine.io (6.6) makes a `WebSocketResponse` for each upgrade, for middlewares
 * (`engine.use`) that wait for the response's `close`; it listens for the TCP socket's `close` with
 * an arrow function over itself, and it holds the request. So each connection's request lives as
 * long as its socket, though the server lets go of `conn.request` (socket.io has built the
 * handshake from it): about 18 objects a connection, 90,000 at 5,000 connections
 * (docs/journal/performance-2026-11.md, "Session 11"). Fray installs no engine.io middleware, so nothing listens
 * on that response after the handshake.
 *
 * Removes the listener that has engine.io's exact body; another version's, or any other
 * listener, is left alone. Returns how many it removed (0 or 1). The server calls it with the
 * socket of the request the connection was opened with: a websocket connection's upgrade (Fray's
 * clients connect over websocket only); a connection that starts on polling and upgrades later
 * keeps engine.io's listener, as before.
 */
export function releaseUpgradeResponse(tcp: NetSocket | undefined): number {
  if (!tcp) return 0;
  let removed = 0;
  for (const raw of tcp.rawListeners('close') as Array<((...a: unknown[]) => void) & { listener?: (...a: unknown[]) => void }>) {
    const fn = raw.listener ?? raw;
    if (sourceOf(fn) === UPGRADE_CLOSE_SHAPE) {
      tcp.removeListener('close', fn);
      removed += 1;
    }
  }
  return removed;
}
