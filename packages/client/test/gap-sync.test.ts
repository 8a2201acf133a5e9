import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { FrayClient } from '../src/index.js';

const deadlines = { reaction: null, turn: null };

/**
 * A bare socket.io server that speaks just enough of Fray's protocol: `join` answers version 1,
 * then a patch that skips a version (from 3 to 4) makes the client's mirror ask for a `sync`,
 * which this server refuses (`UNAVAILABLE`, as a stopping process or a down database does) or
 * never answers (the client's ack timeout).
 */
async function gapServer(syncReply: 'refuse' | 'silence') {
  const http = createServer();
  const io = new Server(http);
  const syncs: unknown[] = [];
  io.on('connection', (socket) => {
    socket.on('join', (req: { encounterId: string }, ack: (a: unknown) => void) => {
      ack({ ok: true, encounterId: req.encounterId, version: 1, state: { version: 1 }, role: 'gm', playerId: null, deadlines });
      setTimeout(() => socket.emit('patch', { encounterId: req.encounterId, from: 3, to: 4, ops: [], events: [], deadlines }), 10);
    });
    socket.on('sync', (req: unknown, ack: (a: unknown) => void) => {
      syncs.push(req);
      if (syncReply === 'refuse') ack({ ok: false, error: { code: 'UNAVAILABLE', message: 'The server is shutting down.' } });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { url, syncs, close: () => new Promise<void>((r) => io.close(() => r())) };
}

/** Every unhandled rejection in this process while `fn` runs (and a little after). */
async function unhandledDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await fn();
    // Node reports an unhandled rejection once the microtask queue drains after it
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  return seen;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a sync after a patch gap that fails', () => {
  // Without the catch in EncounterMirror.receive, the refused (or timed-out) sync is an
  // unhandledRejection, which ends a Node process by default (it ended the restart benchmark's).
  it.each(['refuse', 'silence'] as const)('is no unhandled rejection when the server answers with %s', async (reply) => {
    const server = await gapServer(reply);
    cleanups.push(server.close);
    let version = 0;
    const seen = await unhandledDuring(async () => {
      const client = await FrayClient.connect(server.url, 'token', { ackTimeoutMs: 100 });
      cleanups.push(() => client.close());
      const mirror = await client.join('enc_1');
      // the gap was seen and a sync asked for
      await expect.poll(() => server.syncs.length, { timeout: 2_000 }).toBeGreaterThan(0);
      // the refusal or the timeout has settled the sync
      await new Promise((r) => setTimeout(r, reply === 'silence' ? 250 : 50));
      version = mirror.version;
    });
    expect(server.syncs[0]).toEqual({ encounterId: 'enc_1', since: 1 });
    expect(seen).toEqual([]);
    // the mirror kept what it had: the gap's patch was not applied
    expect(version).toBe(1);
  });
});
