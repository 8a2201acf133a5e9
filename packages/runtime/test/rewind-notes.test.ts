import { describe, expect, it } from 'vitest';
import { MemoryStore, Runtime, rewindsFor } from '../src/index.js';
import { rulesets } from '../src/testing.js';

const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;

/**
 * The rewinds a viewer's log lists (docs/timeline.md, "Rewinds in a viewer's log"), through the
 * runtime and its in-memory store: past 1,000 versions (the in-memory store reads a whole path as
 * the Postgres store does), and the same notes on every read (the left branch's state is kept).
 */
describe('rewind notes', () => {
  it('an undo after 1,000 versions; the player reads what it undid as they saw it, never the hidden', async () => {
    const store = new MemoryStore();
    const rt = new Runtime({ store, rulesets, options: { ownerId: 'rn', reactionSeconds: 0 } });
    const host = await rt.open((await rt.create({ accountId: 'a', name: 'Long fight', ruleset: 'skirmish', seed: 7 })).id);
    let n = 0;
    const run = (command: Record<string, unknown>) => host.submit({ commandId: `c${++n}`, command, by: gm }, gm);
    await run({ type: 'combatant.add', combatant: { id: 'hero', name: 'Hero', side: 'pcs', controller: 'p1', stats: { hp: 10 } } });
    await run({ type: 'combatant.add', combatant: { id: 'spy', name: 'Spy', side: 'npcs', hidden: true, stats: { hp: 10 } } });
    for (let i = 0; i < 1000; i++) await run({ type: 'dice.roll', formula: '1d6', purpose: `roll ${i}`, combatantId: 'hero' });
    await run({ type: 'dice.roll', formula: '1d6', purpose: 'lurking', combatantId: 'spy' });
    const top = host.state.version;
    expect(await run({ type: 'timeline.rewind', toVersion: top - 1 })).toMatchObject({ ok: true, version: top - 1 });
    const first = await rewindsFor(host, p1);
    expect(first).toMatchObject([{ branch: 1, fromBranch: 0, fromVersion: top, toVersion: top - 1, undoneCount: 1 }]);
    expect(first[0]!.undone.map((e) => e.seq)).toEqual([top]);
    expect(JSON.stringify(first)).not.toMatch(/lurking|spy/i);
    expect(JSON.stringify(await rewindsFor(host, gm))).toContain('lurking');
    expect(await rewindsFor(host, p1)).toEqual(first);
    // the abandoned branch read as the live one is: its own path, no notes
    expect(await rewindsFor(host, p1, 0)).toEqual([]);
  }, 60_000);
});
