import { describe, expect, it } from 'vitest';
import { connect, startServer, testStore } from './helpers.js';

/**
 * "A `commandId` belongs to its sender" (issue 29), over real sockets and the real database: a
 * player reusing another player's commandId gets `COMMAND_ID_TAKEN` and its command is not
 * applied; the owner's retry gets its first ack; both still hold on another server process after a
 * restart (the log in the database decides, not the memory of the process that took the id).
 */
describe('"A commandId belongs to its sender"', () => {
  it('holds on one process and on the next one after a restart', async () => {
    const store = await testStore();
    const a = await startServer({ store, runtime: { reactionSeconds: 0 } });
    const gmToken = (await a.http('POST', '/accounts', {})).body.token as string;
    const id = (await a.http('POST', '/encounters', { name: 'Owners', ruleset: 'skirmish', seed: 5 }, gmToken)).body.id as string;
    await a.http('POST', `/encounters/${id}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9 } }, gmToken);
    await a.http('POST', `/encounters/${id}/combatants`, { id: 'sage', name: 'Sage', side: 'pcs', stats: { hp: 9 } }, gmToken);
    const t1 = (await a.http('POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken)).body
      .token as string;
    const t2 = (await a.http('POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: ['sage'] }, gmToken)).body
      .token as string;
    const roll = (who: string) => ({ type: 'dice.roll', formula: '1d20', purpose: `${who} rolls`, combatantId: who });

    const p1 = await connect(a.url, t1);
    const p2 = await connect(a.url, t2);
    const m1 = await p1.join(id);
    const m2 = await p2.join(id);
    const first = await m1.command(roll('hero'), { commandId: 'table-1' });
    expect(first.ok).toBe(true);
    const version = a.server.runtime.peek(id)!.version;
    const taken = await m2.command(roll('sage'), { commandId: 'table-1' });
    expect(taken).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(a.server.runtime.peek(id)!.version).toBe(version);
    expect(await m1.command(roll('hero'), { commandId: 'table-1' })).toEqual(first);
    p1.close();
    p2.close();
    await a.server.close();

    const b = await startServer({ store, runtime: { reactionSeconds: 0 } });
    try {
      const q1 = await connect(b.url, t1);
      const q2 = await connect(b.url, t2);
      const n1 = await q1.join(id);
      const n2 = await q2.join(id);
      expect(await n2.command(roll('sage'), { commandId: 'table-1' })).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
      expect(b.server.runtime.peek(id)!.version).toBe(version);
      expect(await n1.command(roll('hero'), { commandId: 'table-1' })).toEqual(first);
      const log = await b.http('GET', `/encounters/${id}/log`, undefined, gmToken);
      expect((log.body.entries as Array<{ commandId: string }>).filter((e) => e.commandId === 'table-1')).toHaveLength(1);
      q1.close();
      q2.close();
    } finally {
      await b.server.close();
      await store.close();
    }
  }, 60_000);
});
