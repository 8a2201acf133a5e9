import { afterAll, describe, expect, it } from 'vitest';
import { FrayClient, FrayError } from '@fray/client';
import { startServer, type TestServer } from './helpers.js';

/**
 * A crowd of players connecting at once (a restart's herd): their invite tokens are looked up in
 * batches, one query per turn of the event loop. Each must still be who its own token says, a
 * token asked for while a batch is in flight must go into the next one, and an unknown token in
 * the same crowd is refused.
 */
describe('invite lookups of a crowd connecting at once', () => {
  let s: TestServer;
  const clients: FrayClient[] = [];
  afterAll(async () => {
    for (const c of clients) c.close();
    await s?.close();
  });

  it('every player of 40 connecting together joins as its own invite; an unknown token is refused', async () => {
    s = await startServer({ runtime: { reactionSeconds: 0 } });
    const gmToken = (await s.http('POST', '/accounts', { name: 'GM' })).body.token as string;
    const encounterId = (await s.http('POST', '/encounters', { name: 'Crowd', ruleset: 'skirmish', seed: 1 }, gmToken)).body.id as string;
    const tokens: Array<{ token: string; playerId: string }> = [];
    for (let i = 0; i < 40; i++) {
      const id = `hero${i}`;
      expect(
        (
          await s.http(
            'POST',
            `/encounters/${encounterId}/combatants`,
            { id, name: `Hero ${i}`, side: 'pcs', stats: { hp: 10, init: 1 } },
            gmToken,
          )
        ).status,
      ).toBe(201);
      const inv = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: [id] }, gmToken);
      expect(typeof inv.body.playerId).toBe('string');
      tokens.push({ token: inv.body.token as string, playerId: inv.body.playerId as string });
    }
    // in two waves a few ms apart, so that some arrive while the first batch's query is under way
    const connectOne = async ({ token, playerId }: { token: string; playerId: string }) => {
      const c = await FrayClient.connect(s.url, token);
      clients.push(c);
      const m = await c.join(encounterId);
      return { want: playerId, got: m.playerId, role: m.role };
    };
    const first = tokens.slice(0, 20).map(connectOne);
    await new Promise((r) => setTimeout(r, 3));
    const second = tokens.slice(20).map(connectOne);
    const unknown = FrayClient.connect(s.url, 'fray_inv_not-a-token-of-this-server').then(
      (c) => (clients.push(c), 'connected'),
      (e: unknown) => (e instanceof FrayError ? e.code : String(e)),
    );
    const joined = await Promise.all([...first, ...second]);
    for (const j of joined) expect(j).toEqual({ want: j.want, got: j.want, role: 'player' });
    expect(new Set(joined.map((j) => j.got)).size).toBe(40);
    expect(await unknown).toBe('UNAUTHORIZED');
    // 80 requests of setup on the embedded database: 37 s on a machine at load average 18
  }, 120_000);
});
