import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrayClient } from '@fray/client';
import type { TestStore } from '@fray/store/testing';
import type { ServerStore } from '../src/index.js';
import { connect, startServer, testStore, until, type TestServer } from './helpers.js';

/**
 * Scale-out with real parts: two server processes (two servers on their own ports, each with its
 * own database connections to the same data) and the real Redis at 127.0.0.1:6379, under a key
 * prefix of their own per run.
 */
const REDIS_URL = process.env.FRAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `fray-test-${randomUUID()}`;

async function setupEncounter(s: TestServer) {
  const acc = await s.http('POST', '/accounts', { name: 'GM' });
  const gmToken = acc.body.token as string;
  const enc = await s.http('POST', '/encounters', { name: 'Scale', ruleset: 'skirmish', seed: 7, options: { parry: false } }, gmToken);
  expect(enc.status).toBe(201);
  const encounterId = enc.body.id as string;
  const add = (body: unknown) => s.http('POST', `/encounters/${encounterId}/combatants`, body, gmToken);
  expect((await add({ id: 'hero', name: 'Ayla', side: 'pcs', stats: { hp: 12, init: 3 } })).status).toBe(201);
  expect((await add({ id: 'ogre', name: 'Ogre', side: 'npcs', stats: { hp: 30 } })).status).toBe(201);
  const inv = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken);
  expect(inv.status).toBe(201);
  return { gmToken, encounterId, inviteId: inv.body.id as string, playerToken: inv.body.token as string };
}

describe('Redis adapter (REDIS_URL)', () => {
  const clients: FrayClient[] = [];
  const servers: TestServer[] = [];
  const stores: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const s of servers.reverse()) await s.close();
    for (const st of stores.reverse()) await st.close();
  });

  it('without REDIS_URL nothing changes: /health says redis "not configured"', async () => {
    const s = await startServer();
    servers.push(s);
    const h = await s.http('GET', '/health');
    expect(h.body).toMatchObject({ status: 'ok', redis: 'not configured' });
  });

  it('"Redis down: a single process keeps serving the encounters it owns and says so in /health"', async () => {
    // nothing listens on port 1: every connection attempt is refused
    const s = await startServer({ redisUrl: 'redis://127.0.0.1:1', redisPrefix: prefix });
    servers.push(s);
    const { gmToken, encounterId } = await setupEncounter(s);
    const gm = await connect(s.url, gmToken);
    clients.push(gm);
    const m = await gm.join(encounterId);
    const ack = await m.command({ type: 'combat.start' });
    expect(ack.ok).toBe(true);
    await until(() => m.version === s.server.runtime.peek(encounterId)!.version, 5000, 'the patch');
    const h = await s.http('GET', '/health');
    expect(h.body).toMatchObject({ status: 'ok', redis: 'down' });
    expect(s.warns().some((l) => l.msg.includes('redis unavailable'))).toBe(true);
  });

  it('with Redis, a broadcast reaches the sockets of the other process: revoking an invite on A disconnects its socket on B', async () => {
    const store = (await testStore()) as ServerStore & TestStore;
    const peer = (await store.openPeer()) as unknown as ServerStore;
    stores.push(store, peer);
    const a = await startServer({ store, redisUrl: REDIS_URL, redisPrefix: prefix });
    const b = await startServer({ store: peer, redisUrl: REDIS_URL, redisPrefix: prefix });
    servers.push(a, b);
    await until(() => a.server.context.redis.status() === 'up' && b.server.context.redis.status() === 'up', 5000, 'redis up');
    expect((await b.http('GET', '/health')).body).toMatchObject({ redis: 'up' });
    const { gmToken, encounterId, inviteId, playerToken } = await setupEncounter(a);
    const player = await connect(b.url, playerToken);
    clients.push(player);
    await until(() => b.server.io.of('/').sockets.size === 1, 5000, 'the socket on B');
    const revoked = await a.http('DELETE', `/encounters/${encounterId}/invites/${inviteId}`, undefined, gmToken);
    expect(revoked.status).toBeLessThan(300);
    await until(() => b.server.io.of('/').sockets.size === 0, 5000, 'the socket on B to be disconnected');
    expect(player.socket.connected).toBe(false);
  });
});
