import type { PatchMessage } from '@fray/protocol';
import type { Sink } from '@fray/runtime';
import type { ServerContext } from './context.js';
import type { FraySocket } from './socket-types.js';
import { holdUntilTurnEnds } from './transport.js';

/**
 * Send one patch message to the sockets behind several sinks. Viewers who share a view share the
 * message; socket.io serializes a broadcast once and writes the same frame to every socket, so
 * the sockets are addressed by their own rooms (each socket is in a room named by its id), on
 * this process only (`local`: never through the Redis adapter; the owner holds these sockets).
 */
export function deliverPatch(ctx: ServerContext | undefined, msg: PatchMessage, sinks: readonly Sink[]): void {
  if (!ctx) {
    for (const s of sinks) s(msg);
    return;
  }
  const ids: string[] = [];
  let nsp: FraySocket['nsp'] | null = null;
  for (const s of sinks) {
    const entry = ctx.sinks.get(s);
    if (entry) {
      // the sender's ack follows in this turn: one write for both
      const data = entry.socket.data;
      if (data.awaitingAcks > 0 && data.engine) holdUntilTurnEnds(data.engine);
      if (sinks.length === 1) return s(msg);
      ids.push(entry.socket.id);
      nsp = entry.socket.nsp;
    } else s(msg);
  }
  if (nsp) nsp.local.to(ids).emit('patch', msg);
}
