import type { Socket as NetSocket } from 'node:net';
import * as parser from 'socket.io-parser';
import type { Socket } from 'socket.io';

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
    return [(this as unknown as { encodeAsString(p: parser.Packet): string }).encodeAsString(obj)];
  }
}

export const jsonParser = { ...parser, Encoder: JsonEncoder };

interface EngineConn {
  readyState: string;
  transport: { name?: string; writable: boolean; socket?: { _socket?: NetSocket } };
  writeBuffer: unknown[];
  flush(): void;
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
export function holdUntilTurnEnds(socket: Socket): void {
  const conn = socket.conn as unknown as EngineConn;
  if (conn.transport.name !== 'websocket' || !conn.transport.writable || conn.readyState !== 'open' || held.has(conn)) return;
  conn.transport.writable = false;
  held.add(conn);
  if (!releaseScheduled) {
    releaseScheduled = true;
    process.nextTick(releaseAll);
  }
}
