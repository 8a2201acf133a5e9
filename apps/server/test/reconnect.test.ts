import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type PrismaStore } from '@fray/store';
import type { ServerStore } from '../src/index.js';
import { connect, startServer, testStore, type TestServer } from './helpers.js';
import { tcpProxy, untilAsync } from './procs.js';

/**
 * A client whose reconnection is refused UNAVAILABLE by the server (its token lookup met a database
 * that did not answer, as under a restart's thundering herd) tries again by itself: socket.io gives
 * up after a refusal by the server's middleware, and the client's command waited forever.
 */
describe('reconnection refused UNAVAILABLE', () => {
  const servers: TestServer[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const s of servers.reverse()) await s.close().catch(() => {});
    for (const c of closers.reverse()) await c().catch(() => {});
  });

  it('the client connects again once the database answers, and its waiting command is served', async () => {
    const base = await testStore();
    closers.push(() => base.close());
    const { info } = base as unknown as PrismaStore;
    const u = new URL(info.url!);
    const proxy = await tcpProxy(u.hostname, Number(u.port || 5432));
    closers.push(() => proxy.close());
    u.hostname = '127.0.0.1';
    u.port = String(proxy.port);
    const store = (await openStore({
      databaseUrl: u.toString(),
      ...(info.schema ? { schema: info.schema } : {}),
      skipMigrations: true,
      poolSize: 1,
      connectTimeoutMs: 1_000,
    })) as unknown as ServerStore;
    closers.push(() => store.close());
    const s = await startServer({ store });
    servers.push(s);
    const gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
    const id = (await s.http('POST', '/encounters', { name: 'Refused', ruleset: 'skirmish', seed: 1 }, gmToken)).body.id as string;
    const gm = await connect(s.url, gmToken);
    closers.push(async () => gm.close());
    const m = await gm.join(id);
    expect((await m.command({ type: 'dice.roll', formula: '1d6', purpose: 'before' })).ok).toBe(true);

    // the database goes away and the transport drops: the reconnection's token lookup fails
    proxy.cut();
    const refused = new Promise<string>((resolve) =>
      gm.socket.once('connect_error', (e: Error & { data?: { code?: string } }) => resolve(e.data?.code ?? '')),
    );
    // as in a restarted process, no token is in the authenticator's 5-second cache
    (s.server.context.auth as unknown as { cache: Map<string, unknown> }).cache.clear();
    for (const c of Object.values((s.server.io.engine as unknown as { clients: Record<string, { close(): void }> }).clients)) c.close();
    expect(await refused).toBe('UNAVAILABLE');
    const waiting = m.command({ type: 'dice.roll', formula: '1d6', purpose: 'waiting' }, { commandId: 'waiting' });
    proxy.restore();
    await untilAsync(() => gm.socket.connected, 20_000, 'the client to connect again by itself');
    expect(await waiting).toMatchObject({ ok: true });
    const log = (await s.http('GET', `/encounters/${id}/log`, undefined, gmToken)).body.entries as Array<{ commandId: string }>;
    expect(log.map((e) => e.commandId)).toContain('waiting');
  }, 60_000);
});
