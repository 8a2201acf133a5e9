import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, startServer, until, type TestServer } from './helpers.js';

/**
 * docs/dice.md, "Contributions": "Each participant's client (the GM's and every player's) sends
 * `dice.contribute`". A spectator is no participant: its contribution is refused, typed, and the
 * dice are unchanged for every viewer.
 */
describe('a spectator cannot contribute to the dice', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('dice.contribute from a spectator: NOT_AUTHORIZED, no event, the contributions as before', async () => {
    const gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
    const id = (await s.http('POST', '/encounters', { name: 'Watched', ruleset: 'skirmish' }, gmToken)).body.id as string;
    const specToken = (await s.http('POST', `/encounters/${id}/invites`, { role: 'spectator' }, gmToken)).body.token as string;
    const gm = await connect(s.url, gmToken);
    const spec = await connect(s.url, specToken);
    const mg = await gm.join(id);
    const ms = await spec.join(id);
    const contributions = () => (ms.state as { dice: { contributions: Array<{ by: string }> } }).dice.contributions;
    await until(() => contributions().length === 1, 10_000, 'the GM contribution');
    const version = mg.version;
    const ack = await ms.command({ type: 'dice.contribute', value: 'ab'.repeat(32) });
    expect(ack.ok).toBe(false);
    // the server refuses every command of a spectator before the engine
    expect(ack.ok ? null : ack.error).toEqual({ code: 'FORBIDDEN', message: 'Spectators only watch.' });
    // nothing changed: the same version, the GM's contribution alone, in every view and the log
    const log = await gm.log(id);
    if (!log.ok) throw new Error(log.error.message);
    expect(log.entries.at(-1)?.seq).toBe(version);
    expect(log.entries.flatMap((e) => e.events).filter((e) => (e as { type?: string }).type === 'dice.contributed')).toHaveLength(1);
    expect(contributions().map((c) => c.by)).toEqual(['gm']);
    expect((mg.state as { dice: { contributions: unknown[] } }).dice.contributions).toHaveLength(1);
    gm.close();
    spec.close();
  });
});
