import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Live, type LiveSnapshot } from '../src/lib/live.js';
import { http, startServer, type TestServer } from './e2e/server.js';

/**
 * The page's live connection (src/lib/live.ts) against a real server, without a browser:
 * a command whose ack is lost is sent again with the same commandId and applied once; a gap in
 * patches is filled by `sync`; a forged token is a fatal, readable error.
 */
describe('Live', () => {
  let srv: TestServer;
  let gmToken: string;
  let encounterId: string;
  const lives: Live[] = [];

  const until = async (live: Live, pred: (s: LiveSnapshot) => boolean, ms = 8000) => {
    const t0 = Date.now();
    while (!pred(live.getSnapshot())) {
      if (Date.now() - t0 > ms)
        throw new Error(`timed out; snapshot: ${JSON.stringify({ ...live.getSnapshot(), state: undefined, log: undefined })}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const open = (token: string, ackTimeoutMs = 6000) => {
    const l = new Live({ token, encounterId, url: srv.url, ackTimeoutMs });
    lives.push(l);
    return l;
  };

  beforeAll(async () => {
    srv = await startServer();
    gmToken = (await http<{ token: string }>(srv.url, 'POST', '/accounts', { name: 'GM' })).token;
    encounterId = (await http<{ id: string }>(srv.url, 'POST', '/encounters', { name: 'Live test', ruleset: 'legends', seed: 3 }, gmToken))
      .id;
    for (const name of ['A', 'B']) {
      await http(
        srv.url,
        'POST',
        `/encounters/${encounterId}/combatants`,
        { name, side: name === 'A' ? 'heroes' : 'foes', stats: { DEX: 10, SPD: 10, STR: 10 } },
        gmToken,
      );
    }
  });
  afterAll(async () => {
    for (const l of lives) l.close();
    await srv?.close();
  });

  it('joins and shows the projected state', async () => {
    const gm = open(gmToken);
    await until(gm, (s) => s.status === 'online' && s.state !== null);
    const s = gm.getSnapshot();
    expect(s.role).toBe('gm');
    expect(Object.keys(s.state!.combatants)).toHaveLength(2);
    await until(gm, (x) => x.log.length >= 2);
  });

  it('a command whose ack is lost is retried with the same commandId and applied once', async () => {
    // the server sits on the first delivery of this command longer than the client waits
    const held: string[] = [];
    const io = srv.server.io as unknown as {
      on(ev: 'connection', fn: (s: { use(fn: (packet: unknown[], next: () => void) => void): void }) => void): void;
    };
    const gm = open(gmToken, 400);
    let delayed = false;
    io.on('connection', (socket) => {
      socket.use((packet, next) => {
        const [event, body] = packet as [string, { commandId?: string }];
        if (event === 'command' && !delayed) {
          delayed = true;
          held.push(body.commandId!);
          setTimeout(next, 1200);
          return;
        }
        if (event === 'command') held.push(body.commandId!);
        next();
      });
    });
    // a fresh connection so that it passes through the hook
    await until(gm, (s) => s.status === 'online');
    const before = gm.getSnapshot().version;
    const r = await gm.send({ type: 'combat.start' }, 'retry-test-1');
    expect(r.ok).toBe(true);
    expect(held.length).toBeGreaterThanOrEqual(2);
    expect(new Set(held)).toEqual(new Set(['retry-test-1']));
    await until(gm, (s) => s.version === before + 1);
    // applied once: one more version, one log entry with that commandId, combat started once
    await new Promise((r) => setTimeout(r, 1500));
    expect(gm.getSnapshot().version).toBe(before + 1);
    const log = await http<{ entries: { commandId: string }[] }>(srv.url, 'GET', `/encounters/${encounterId}/log`, undefined, gmToken);
    expect(log.entries.filter((e) => e.commandId === 'retry-test-1')).toHaveLength(1);
    expect(gm.getSnapshot().state!.status).toBe('active');
  });

  it('a forged token ends in a fatal, readable error', async () => {
    const bad = open('fray_inv_not_a_real_token_000000');
    await until(bad, (s) => s.status === 'failed');
    expect(bad.getSnapshot().fatal!.code).toBe('UNAUTHORIZED');
  });
});
