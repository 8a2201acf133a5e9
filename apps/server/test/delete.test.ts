import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { FrayClient, FrayError } from '@fray/client';
import type { TestStore } from '@fray/store/testing';
import type { ServerStore } from '../src/index.js';
import { connect, startServer, testStore, until, type TestServer } from './helpers.js';

/**
 * DELETE /encounters/:id over real socket.io clients on loopback, on the store the suite runs on
 * (PGlite, or Postgres with DATABASE_URL): every connected client is told `closed` `deleted`, the
 * rows go (a tombstone stays), the invites are refused as deleted; and across two processes (the
 * real Redis) the process that runs the encounter is the one that closes and deletes it.
 */
const REDIS_URL = process.env.FRAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function encounterWithPlayers(s: TestServer, name = 'Goblin ambush') {
  const gmToken = (await s.http('POST', '/accounts', { name: 'GM' })).body.token as string;
  const enc = await s.http('POST', '/encounters', { name, ruleset: 'skirmish', seed: 3 }, gmToken);
  expect(enc.status).toBe(201);
  const encounterId = enc.body.id as string;
  const add = (body: unknown) => s.http('POST', `/encounters/${encounterId}/combatants`, body, gmToken);
  expect((await add({ id: 'hero', name: 'Ayla', side: 'pcs', stats: { hp: 12, init: 3 } })).status).toBe(201);
  const player = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken);
  const spectator = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'spectator' }, gmToken);
  const link = await s.http('POST', `/encounters/${encounterId}/replay-links`, {}, gmToken);
  expect([player.status, spectator.status, link.status]).toEqual([201, 201, 201]);
  return { gmToken, encounterId, playerToken: player.body.token as string, spectatorToken: spectator.body.token as string };
}

/** The `closed` messages a client receives. */
function closedOf(c: FrayClient): Array<{ encounterId: string; reason: string }> {
  const seen: Array<{ encounterId: string; reason: string }> = [];
  c.socket.on('closed', (m) => seen.push(m));
  return seen;
}

async function refusedConnect(url: string, token: string): Promise<FrayError> {
  try {
    (await FrayClient.connect(url, token, { ackTimeoutMs: 3000 })).close();
  } catch (e) {
    if (e instanceof FrayError) return e;
    throw e;
  }
  throw new Error('the connection was accepted');
}

describe('DELETE /encounters/:id on one process', () => {
  const clients: FrayClient[] = [];
  let s: TestServer;
  afterAll(async () => {
    for (const c of clients) c.close();
    await s?.close();
  });

  it('closes the live encounter for every client (`closed` deleted), removes its rows, and refuses its invites as deleted', async () => {
    s = await startServer({ runtime: { reactionSeconds: 0 } });
    const { gmToken, encounterId, playerToken, spectatorToken } = await encounterWithPlayers(s);
    const [gm, player, spectator] = await Promise.all([gmToken, playerToken, spectatorToken].map((t) => connect(s.url, t)));
    clients.push(gm!, player!, spectator!);
    const seen = [gm!, player!, spectator!].map(closedOf);
    const [gmMirror] = [await gm!.join(encounterId), await player!.join(encounterId), await spectator!.join(encounterId)];
    // another GM may not delete it
    const other = (await s.http('POST', '/accounts', { name: 'Other GM' })).body.token as string;
    expect(await s.http('DELETE', `/encounters/${encounterId}`, undefined, other)).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    // a command in flight when the delete arrives is answered (acknowledged before, or refused), never left hanging
    const inFlight = gmMirror!.command({ type: 'dice.roll', formula: '1d6', purpose: 'last roll' });
    const del = await s.http('DELETE', `/encounters/${encounterId}`, undefined, gmToken);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: encounterId, deleted: true });
    expect(Date.parse(del.body.deletedAt as string)).toBeGreaterThan(Date.now() - 60_000);
    // acknowledged before the rows went (then it was in the log that went with them), or refused
    const ack = await inFlight;
    if (!ack.ok) expect(ack.error.code).toMatch(/UNAVAILABLE|NOT_JOINED/);
    await until(() => seen.every((l) => l.length > 0), 5000, 'every client to be told');
    for (const l of seen) expect(l).toEqual([{ encounterId, reason: 'deleted' }]);
    expect(s.server.runtime.peek(encounterId)).toBeUndefined();

    // the rows are gone, the tombstone stays
    const store = s.store;
    expect(await store.getEncounter(encounterId)).toBeNull();
    expect(await store.readLog(encounterId, 0)).toEqual([]);
    expect(await store.latestSnapshot(encounterId)).toBeNull();
    expect(await store.listInvites(encounterId)).toEqual([]);
    expect(await store.replayLinks!.list(encounterId)).toEqual([]);
    expect(await store.getLease(encounterId)).toBeNull();
    expect(await store.deletions!.deletedEncounter(encounterId)).toMatchObject({ id: encounterId });

    // its invites: refused at connect with a typed error that says so
    for (const t of [playerToken, spectatorToken]) {
      const e = await refusedConnect(s.url, t);
      expect(e.code).toBe('ENCOUNTER_DELETED');
      expect(e.message).toMatch(/GM deleted this encounter/);
    }
    // a socket that was connected before (its token cached) is refused at join
    expect((await player!.join(encounterId).catch((e: unknown) => e)) as FrayError).toMatchObject({ code: 'ENCOUNTER_DELETED' });
    expect((await gm!.join(encounterId).catch((e: unknown) => e)) as FrayError).toMatchObject({ code: 'ENCOUNTER_DELETED' });

    // over HTTP: gone from the list, 410 for its owner, unknown (404) to another GM
    expect(((await s.http('GET', '/encounters?archived=true', undefined, gmToken)).body.encounters as unknown[]).length).toBe(0);
    for (const [method, path] of [
      ['GET', `/encounters/${encounterId}`],
      ['DELETE', `/encounters/${encounterId}`],
      ['GET', `/encounters/${encounterId}/log`],
    ] as const)
      expect(await s.http(method, path, undefined, gmToken)).toMatchObject({ status: 410, body: { error: { code: 'ENCOUNTER_DELETED' } } });
    expect(await s.http('GET', `/encounters/${encounterId}`, undefined, other)).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
  });

  it('an encounter nobody has open is deleted from the database alone; bad ids get typed errors', async () => {
    const { gmToken, encounterId } = await encounterWithPlayers(s, 'Quiet crypt');
    await s.server.runtime.unload(encounterId, 'idle');
    expect(s.server.runtime.peek(encounterId)).toBeUndefined();
    expect((await s.http('DELETE', `/encounters/${encounterId}`, undefined, gmToken)).status).toBe(200);
    expect(await s.store.getEncounter(encounterId)).toBeNull();
    expect(await s.http('DELETE', '/encounters/enc_nope', undefined, gmToken)).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect(await s.http('DELETE', `/encounters/${'x'.repeat(65)}`, undefined, gmToken)).toMatchObject({
      status: 422,
      body: { error: { code: 'INVALID_REQUEST' } },
    });
    expect(await s.http('DELETE', `/encounters/${encounterId}`)).toMatchObject({ status: 401 });
  });
});

describe('DELETE /encounters/:id with two processes (Redis)', () => {
  const clients: FrayClient[] = [];
  const servers: TestServer[] = [];
  const stores: ServerStore[] = [];
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const s of servers.reverse()) await s.close();
    for (const st of stores.reverse()) await st.close();
  });

  it('a DELETE on a process that does not run the encounter is carried out by the one that does: its clients are told `closed` deleted', async () => {
    const prefix = `fray-test-${randomUUID()}`;
    const store = (await testStore()) as ServerStore & TestStore;
    const peer = (await store.openPeer()) as unknown as ServerStore;
    stores.push(store, peer);
    const a = await startServer({ store, redisUrl: REDIS_URL, redisPrefix: prefix, publicUrl: 'http://127.0.0.1:1' });
    const b = await startServer({ store: peer, redisUrl: REDIS_URL, redisPrefix: prefix, publicUrl: 'http://127.0.0.1:2' });
    servers.push(a, b);
    await until(() => a.server.context.redis.status() === 'up' && b.server.context.redis.status() === 'up', 5000, 'redis up');
    const { gmToken, encounterId, playerToken } = await encounterWithPlayers(a);
    const [gm, player] = await Promise.all([connect(a.url, gmToken), connect(a.url, playerToken)]);
    clients.push(gm, player);
    const seen = [gm, player].map(closedOf);
    await gm.join(encounterId);
    await player.join(encounterId);
    expect(a.server.runtime.peek(encounterId)).toBeDefined();
    expect(b.server.runtime.peek(encounterId)).toBeUndefined();

    const del = await b.http('DELETE', `/encounters/${encounterId}`, undefined, gmToken);
    expect(del).toMatchObject({ status: 200, body: { id: encounterId, deleted: true } });
    // A closed and deleted it before B answered
    expect(a.server.runtime.peek(encounterId)).toBeUndefined();
    expect(b.server.runtime.peek(encounterId)).toBeUndefined();
    await until(() => seen.every((l) => l.length > 0), 5000, 'the clients on A to be told');
    for (const l of seen) expect(l).toEqual([{ encounterId, reason: 'deleted' }]);
    expect(await peer.getEncounter(encounterId)).toBeNull();
    expect((await refusedConnect(b.url, playerToken)).code).toBe('ENCOUNTER_DELETED');
    expect(a.lines.some((l) => l.msg === 'encounter left memory' && l.reason === 'deleted')).toBe(true);
  });
  it('without Redis, a DELETE on a process that does not run the encounter is refused NOT_OWNER with the owner’s URL; nothing is deleted', async () => {
    const store = (await testStore()) as ServerStore & TestStore;
    const peer = (await store.openPeer()) as unknown as ServerStore;
    stores.push(store, peer);
    const a = await startServer({ store, publicUrl: 'http://127.0.0.1:1' });
    const b = await startServer({ store: peer, publicUrl: 'http://127.0.0.1:2' });
    servers.push(a, b);
    const { gmToken, encounterId } = await encounterWithPlayers(a);
    expect(a.server.runtime.peek(encounterId)).toBeDefined();
    const refused = await b.http('DELETE', `/encounters/${encounterId}`, undefined, gmToken);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'NOT_OWNER', ownerUrl: 'http://127.0.0.1:1' } } });
    expect(await peer.getEncounter(encounterId)).not.toBeNull();
    expect(a.server.runtime.peek(encounterId)).toBeDefined();
    // at the owner it goes
    expect((await a.http('DELETE', `/encounters/${encounterId}`, undefined, gmToken)).status).toBe(200);
  });
});
