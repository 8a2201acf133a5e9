import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { FrayClient, FrayError, type EncounterMirror } from '@fray/client';
import { gmView } from '@fray/engine';
import type { TestStore } from '@fray/store/testing';
import { configFromEnv, type ServerStore } from '../src/index.js';
import { connect, expectConverged, startServer, testStore, until, type TestServer } from './helpers.js';

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

describe('configuration', () => {
  it('REDIS_URL, FRAY_REDIS_PREFIX and FRAY_PUBLIC_URL come from the environment; unset means a single process', () => {
    expect(configFromEnv({})).toMatchObject({ redisUrl: undefined, redisPrefix: 'fray', publicUrl: undefined });
    expect(
      configFromEnv({ REDIS_URL: 'redis://r:6379', FRAY_REDIS_PREFIX: 'prod', FRAY_PUBLIC_URL: 'https://fray-2.example.org' }),
    ).toMatchObject({
      redisUrl: 'redis://r:6379',
      redisPrefix: 'prod',
      publicUrl: 'https://fray-2.example.org',
    });
    expect(() => configFromEnv({ FRAY_PUBLIC_URL: 'not a url' })).toThrow();
  });
});

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

  it('"Redis down: a single process keeps serving the encounters it owns and says so in /health" (readiness 503 naming redis)', async () => {
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
    // not ready (a load balancer sends new clients elsewhere), yet its own encounters are served
    const h = await s.http('GET', '/health');
    expect(h).toMatchObject({ status: 503, body: { status: 'unavailable', down: ['redis'], redis: 'down' } });
    expect((await m.command({ type: 'dice.roll', formula: '1d6', purpose: 'still served' })).ok).toBe(true);
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
    // the client learns it over the network a moment later
    await until(() => !player.socket.connected, 5000, 'the client to see the disconnection');
  });
});

/** A free loopback port (so that a server can advertise its URL before it listens). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A server that advertises its own URL (FRAY_PUBLIC_URL) and listens on it. */
async function startAdvertised(opts: Parameters<typeof startServer>[0] & { store: ServerStore }): Promise<TestServer> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    try {
      const s = await startServer({ ...opts, publicUrl, listenPort: port });
      expect(s.url).toBe(publicUrl);
      return s;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

describe('two processes, one encounter: NOT_OWNER sends a client to the owner', () => {
  const clients: FrayClient[] = [];
  let store: ServerStore & TestStore;
  let peer: ServerStore;
  let a: TestServer;
  let b: TestServer;
  afterAll(async () => {
    for (const c of clients) c.close();
    await b?.close();
    await a?.close();
    await peer?.close();
    await store?.close();
  });

  it('clients that reach either process play one encounter on its owner and all converge', async () => {
    store = (await testStore()) as ServerStore & TestStore;
    peer = (await store.openPeer()) as unknown as ServerStore;
    a = await startAdvertised({ store, redisUrl: REDIS_URL, redisPrefix: prefix, runtime: { reactionSeconds: 0 } });
    b = await startAdvertised({ store: peer, redisUrl: REDIS_URL, redisPrefix: prefix, runtime: { reactionSeconds: 0 } });
    const { gmToken, encounterId, playerToken } = await setupEncounter(a);
    // the GM reaches A: A loads the encounter and holds its lease
    const gm = await FrayClient.connectAndJoin(a.url, gmToken, encounterId, { ackTimeoutMs: 5000 });
    clients.push(gm.client);
    expect(gm.url).toBe(a.url);
    expect(a.server.runtime.peek(encounterId)).toBeDefined();

    // a raw join on B: the typed error names the owner's advertised URL
    const direct = await connect(b.url, playerToken);
    clients.push(direct);
    const refused = await direct.join(encounterId).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(FrayError);
    expect((refused as FrayError).code).toBe('NOT_OWNER');
    expect((refused as FrayError).ownerUrl).toBe(a.url);
    expect(b.server.runtime.peek(encounterId)).toBeUndefined();
    direct.close();

    // the typed client follows it: the player starts at B and ends on A
    const player = await FrayClient.connectAndJoin(b.url, playerToken, encounterId, { ackTimeoutMs: 5000 });
    clients.push(player.client);
    expect(player.url).toBe(a.url);
    // a second GM tab that reached B also ends on A
    const gm2 = await FrayClient.connectAndJoin(b.url, gmToken, encounterId, { ackTimeoutMs: 5000 });
    clients.push(gm2.client);
    expect(gm2.url).toBe(a.url);

    const mirrors: EncounterMirror[] = [gm.mirror, player.mirror, gm2.mirror];
    expect((await gm.mirror.command({ type: 'combat.start' })).ok).toBe(true);
    for (let step = 0; step < 6; step++) {
      const host = a.server.runtime.peek(encounterId)!;
      const current = host.state.clock.current!;
      const actor = current === 'hero' ? player.mirror : step % 2 ? gm2.mirror : gm.mirror;
      const target = current === 'hero' ? 'ogre' : 'hero';
      expect((await actor.command({ type: 'attack', combatantId: current, targetId: target })).ok).toBe(true);
      expect((await actor.command({ type: 'turn.end', combatantId: current })).ok).toBe(true);
    }
    await expectConverged(a, encounterId, mirrors);
    expect(b.server.runtime.peek(encounterId)).toBeUndefined();
    // every acknowledged command is in the shared log, written by A alone
    const host = a.server.runtime.peek(encounterId)!;
    const log = await peer.readLog(encounterId, 0, 1000);
    expect(log.length).toBe(host.version);

    // HTTP on the non-owner: a change needs the live encounter (409 NOT_OWNER with A's URL); a read does not
    const add = await b.http('POST', `/encounters/${encounterId}/combatants`, { name: 'Late', side: 'npcs', stats: { hp: 3 } }, gmToken);
    expect(add.status).toBe(409);
    expect(add.body.error).toMatchObject({ code: 'NOT_OWNER', ownerUrl: a.url });
    const read = await b.http('GET', `/encounters/${encounterId}`, undefined, gmToken);
    expect(read.status).toBe(200);
    expect(read.body.version).toBe(host.version);
    // the GM's view: all but the generator's state (docs/dice.md)
    expect(read.body.state).toEqual(JSON.parse(JSON.stringify(gmView(host.state))));
    expect(b.server.runtime.peek(encounterId)).toBeUndefined();
  });
});

/** A store that stops answering when the process "dies" (every call rejects from then on). */
function killable<T extends object>(inner: T): { store: T; kill(): void; revive(): void } {
  let dead = false;
  const store = new Proxy(inner, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) =>
        dead ? Promise.reject(new Error('process killed')) : (v as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return { store, kill: () => (dead = true), revive: () => (dead = false) };
}

describe('failover: the owner dies, its lease expires, the other process takes the encounter', () => {
  const clients: FrayClient[] = [];
  let store: ServerStore & TestStore;
  let peer: ServerStore;
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  afterAll(async () => {
    for (const c of clients) c.close();
    await b?.close();
    // A "died": its listener and its database connections are gone; a close may find nothing to close
    await a?.close().catch(() => {});
    await peer?.close();
    await store?.close();
  });

  it('"every acknowledged command is still there" after the owner dies mid-fight; clients rejoin at the new owner and converge', async () => {
    store = (await testStore()) as ServerStore & TestStore;
    peer = (await store.openPeer()) as unknown as ServerStore;
    const runtime = { reactionSeconds: 0, leaseTtlMs: 3000, sweepMs: 300, snapshotEvery: 4 };
    const aStore = killable(peer);
    a = await startAdvertised({ store: aStore.store, redisUrl: REDIS_URL, redisPrefix: prefix, runtime });
    b = await startAdvertised({ store, redisUrl: REDIS_URL, redisPrefix: prefix, runtime });
    // set up through A's HTTP API: A loads the encounter and owns it
    const { gmToken, encounterId, playerToken } = await setupEncounter(a);
    const gm = await FrayClient.connectAndJoin(a.url, gmToken, encounterId, { ackTimeoutMs: 5000 });
    const player = await FrayClient.connectAndJoin(b.url, playerToken, encounterId, { ackTimeoutMs: 5000 });
    clients.push(gm.client, player.client);
    expect(player.url).toBe(a.url);

    // the setup (combatants, the invite's binding) is logged too
    const v0 = a.server.runtime.peek(encounterId)!.version;
    const acked: string[] = [];
    const send = async (m: EncounterMirror, command: Parameters<EncounterMirror['command']>[0], commandId: string) => {
      const ack = await m.command(command, { commandId });
      expect(ack).toMatchObject({ ok: true });
      acked.push(commandId);
    };
    await send(gm.mirror, { type: 'combat.start' }, 'start');
    for (let step = 0; step < 5; step++) {
      const current = a.server.runtime.peek(encounterId)!.state.clock.current!;
      const m = current === 'hero' ? player.mirror : gm.mirror;
      await send(m, { type: 'attack', combatantId: current, targetId: current === 'hero' ? 'ogre' : 'hero' }, `attack-${step}`);
      await send(m, { type: 'turn.end', combatantId: current }, `end-${step}`);
    }
    const before = JSON.parse(JSON.stringify(a.server.runtime.peek(encounterId)!.state)) as { version: number };
    expect(before.version).toBe(v0 + acked.length);

    // A dies: no more sockets, no listener, no database (so no lease renewal) — as after kill -9
    const dead = a;
    dead.server.io.local.disconnectSockets(true); // its own sockets (io.disconnectSockets would reach B's too, through Redis)
    dead.server.app.server.close();
    dead.server.app.server.closeAllConnections();
    aStore.kill();
    gm.client.close();
    player.client.close();

    // until the lease expires, B still sends clients to A; then B takes the encounter
    const t0 = Date.now();
    let gm2: Awaited<ReturnType<typeof FrayClient.connectAndJoin>> | undefined;
    while (!gm2) {
      if (Date.now() - t0 > 10_000) throw new Error('B never took the encounter');
      gm2 = await FrayClient.connectAndJoin(b.url, gmToken, encounterId, { ackTimeoutMs: 5000, maxHops: 0 }).catch((e: unknown) => {
        // ENCOUNTER_BUSY in the instant the lease has expired by this clock but not yet by the database's
        expect(['NOT_OWNER', 'ENCOUNTER_BUSY']).toContain((e as FrayError).code);
        return undefined;
      });
      if (!gm2) await new Promise((r) => setTimeout(r, 200));
    }
    clients.push(gm2.client);
    expect(gm2.url).toBe(b.url);
    const hostB = b.server.runtime.peek(encounterId)!;
    expect(JSON.parse(JSON.stringify(hostB.state))).toEqual(before);
    const log = await store.readLog(encounterId, 0, 1000);
    for (const c of acked) expect(log.map((e) => e.commandId)).toContain(c);

    // "a stale owner that wakes up cannot write": A's database comes back, A still holds the
    // encounter in memory with its old lease; its write is refused by the fencing token
    const staleHost = dead.server.runtime.peek(encounterId)!;
    expect(staleHost).toBeDefined();
    aStore.revive();
    const staleAck = await staleHost.submit(
      { commandId: 'stale-write', command: { type: 'dice.roll', formula: '1d6', purpose: 'stale' }, by: { role: 'gm' } },
      { role: 'gm' },
    );
    expect(staleAck).toMatchObject({ ok: false, error: { code: 'ENCOUNTER_BUSY' } });
    await until(() => dead.server.runtime.peek(encounterId) === undefined, 5000, 'the stale owner to unload');
    expect((await store.readLog(encounterId, 0, 1000)).map((e) => e.commandId)).not.toContain('stale-write');
    expect(hostB.version).toBe(v0 + acked.length);

    // the fight goes on at B
    const player2 = await FrayClient.connectAndJoin(b.url, playerToken, encounterId, { ackTimeoutMs: 5000 });
    clients.push(player2.client);
    const current = hostB.state.clock.current!;
    const m = current === 'hero' ? player2.mirror : gm2.mirror;
    expect((await m.command({ type: 'attack', combatantId: current, targetId: current === 'hero' ? 'ogre' : 'hero' })).ok).toBe(true);
    await expectConverged(b, encounterId, [gm2.mirror, player2.mirror]);
    expect(hostB.version).toBe(v0 + acked.length + 1);
  });
});

describe('planned shutdown: the owner hands its encounters over without waiting for the lease', () => {
  const clients: FrayClient[] = [];
  let store: ServerStore & TestStore;
  let peer: ServerStore;
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  afterAll(async () => {
    for (const c of clients) c.close();
    await b?.close();
    await a?.close();
    await peer?.close();
    await store?.close();
  });

  it('"Planned shutdown hands encounters over without waiting for the lease to expire": closed "shutdown", clients follow to the other process, nothing acknowledged is lost', async () => {
    store = (await testStore()) as ServerStore & TestStore;
    peer = (await store.openPeer()) as unknown as ServerStore;
    // a long lease: the hand-over must not wait for it
    const runtime = { reactionSeconds: 0, leaseTtlMs: 20_000 };
    a = await startAdvertised({ store: peer, redisUrl: REDIS_URL, redisPrefix: prefix, runtime });
    b = await startAdvertised({ store, redisUrl: REDIS_URL, redisPrefix: prefix, runtime });
    const { gmToken, encounterId, playerToken } = await setupEncounter(a);
    // both enter through B (their entry URL, as a load balancer would be) and are sent to A
    const gm = await FrayClient.connectAndJoin(b.url, gmToken, encounterId, { ackTimeoutMs: 5000 });
    const player = await FrayClient.connectAndJoin(b.url, playerToken, encounterId, { ackTimeoutMs: 5000 });
    clients.push(gm.client, player.client);
    expect([gm.url, player.url]).toEqual([a.url, a.url]);
    expect(gm.client.entryUrl).toBe(b.url);
    const acked = new Map<string, number>();
    const send = async (m: EncounterMirror, commandId: string) => {
      const ack = await m.command({ type: 'dice.roll', formula: '1d6', purpose: commandId }, { commandId });
      expect(ack).toMatchObject({ ok: true });
      if (ack.ok) acked.set(commandId, ack.version);
    };
    await send(gm.mirror, 'before-1');
    await send(player.mirror, 'before-2');
    const closedReasons: string[] = [];
    player.client.socket.on('closed', ({ reason }) => closedReasons.push(reason));

    // a command in flight while A stops: drained and acknowledged, or refused and sent again at B
    const t0 = Date.now();
    const inFlight = send(gm.mirror, 'during');
    await a.close();
    await until(() => closedReasons.length > 0, 5000, 'the closed notice');
    expect(closedReasons).toEqual(['shutdown']);
    await inFlight;
    await until(
      () => gm.client.url === b!.url && player.client.url === b!.url && b!.server.runtime.peek(encounterId) !== undefined,
      10_000,
      'the clients at B',
    );
    const ms = Date.now() - t0;
    expect(ms).toBeLessThan(runtime.leaseTtlMs / 2);
    await send(player.mirror, 'after-1');
    await send(gm.mirror, 'after-2');
    await expectConverged(b, encounterId, [gm.mirror, player.mirror]);
    const log = await store.readLog(encounterId, 0, 1000);
    for (const [id, version] of acked) expect(log.find((e) => e.commandId === id)?.seq).toBe(version);
    expect(log.length).toBe(b.server.runtime.peek(encounterId)!.version);
  });

  it("a process that shuts down disconnects its own sockets only: the other process's clients stay connected", async () => {
    const runtime = { reactionSeconds: 0 };
    const st = (await testStore()) as ServerStore & TestStore;
    const stPeer = (await st.openPeer()) as unknown as ServerStore;
    const c = await startAdvertised({ store: stPeer, redisUrl: REDIS_URL, redisPrefix: prefix, runtime });
    const d = await startAdvertised({ store: st, redisUrl: REDIS_URL, redisPrefix: prefix, runtime });
    try {
      await until(() => c.server.context.redis.status() === 'up' && d.server.context.redis.status() === 'up', 5000, 'redis up');
      // a table on D, its GM connected to D
      const { gmToken, encounterId } = await setupEncounter(d);
      const gm = await FrayClient.connectAndJoin(d.url, gmToken, encounterId, { ackTimeoutMs: 5000 });
      clients.push(gm.client);
      expect(gm.url).toBe(d.url);
      const drops: string[] = [];
      gm.client.socket.on('disconnect', (reason) => drops.push(reason));
      const id = gm.client.socket.id;

      // C stops (a rolling restart): with the Redis adapter, socket.io's io.disconnectSockets()
      // would reach every process's sockets; C must let go of its own alone
      await c.close();
      await new Promise((r) => setTimeout(r, 1000));
      expect(drops).toEqual([]);
      expect(gm.client.socket.id).toBe(id);
      expect(d.server.io.of('/').sockets.has(id!)).toBe(true);
      expect((await gm.mirror.command({ type: 'combat.start' })).ok).toBe(true);
    } finally {
      await d.close();
      await c.close().catch(() => {});
      await stPeer.close();
      await st.close();
    }
  });
});
