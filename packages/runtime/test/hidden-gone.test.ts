import { describe, expect, it } from 'vitest';
import { MemoryStore, Runtime } from '../src/index.js';
import { rulesets } from '../src/testing.js';

/**
 * "A hidden combatant's id never reaches a player or a spectator" (issue 29), in the log too once
 * the GM has removed it: the state forgets it, the log's old entries still name it.
 */
const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;

function newRuntime(store: MemoryStore) {
  return new Runtime({ store, rulesets, options: { ownerId: `test-${Math.random()}` } });
}

describe('the log after a hidden combatant is removed', () => {
  it('names it to no player or spectator, also after a restart from the log tail or from a snapshot', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const rec = await rt.create({ accountId: 'acc', name: 'Gone', ruleset: 'skirmish', options: {}, seed: 2 });
    const host = await rt.open(rec.id);
    let n = 0;
    const gmCmd = async (command: Record<string, unknown>) =>
      expect((await host.submit({ commandId: `g${++n}`, command, by: gm }, gm)).ok).toBe(true);
    await gmCmd({ type: 'combatant.add', combatant: { id: 'hero', name: 'Hero', side: 'pcs', controller: 'p1', stats: { hp: 10 } } });
    await gmCmd({
      type: 'combatant.add',
      combatant: { id: 'lurker', name: 'LURKER-hidden', side: 'npcs', hidden: true, stats: { hp: 5 } },
    });
    await gmCmd({ type: 'dice.force', faces: [20] });
    await gmCmd({ type: 'dice.force', faces: [1] });
    await gmCmd({ type: 'combat.start' });
    expect(host.state.clock.current).toBe('hero');
    // the hero strikes the lurker: `skirmish.wounded` names it (dropped for players while it is hidden)
    await gmCmd({ type: 'attack', combatantId: 'hero', targetId: 'lurker' });
    await gmCmd({ type: 'reaction.resolve' });
    await gmCmd({
      type: 'effect.apply',
      targetId: 'hero',
      sourceId: 'lurker',
      name: 'Chill',
      data: { by: 'lurker', note: 'LURKER-hidden watches' },
    });
    // while it is there, hidden: the effect shows neither its id nor its name
    expect(JSON.stringify(host.projectionFor(p1).effects)).not.toMatch(/lurker/i);
    // an event of the ruleset's own that names it inside (not as its subject)
    await gmCmd({ type: 'effect.apply', targetId: null, name: 'Omen', data: { seenBy: ['lurker'] } });
    await gmCmd({ type: 'combatant.remove', combatantId: 'lurker' });
    await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'open' });

    const readAs = async (h: typeof host, viewer: typeof p1 | { role: 'spectator' }) =>
      JSON.stringify(h.projectLog(await store.readLog(rec.id, 0, 500), viewer));
    for (const viewer of [p1, { role: 'spectator' } as const]) {
      const text = await readAs(host, viewer);
      expect(text).toContain('Chill'); // the effect on the hero stays, its source unnamed
      expect(text).not.toMatch(/lurker/i);
    }
    // the GM still reads everything
    expect(JSON.stringify(host.projectLog(await store.readLog(rec.id, 0, 500), gm))).toContain('lurker');

    // a restart from the log tail (no snapshot yet)
    store.leases.get(rec.id)!.expiresAt = new Date(0);
    const rt2 = newRuntime(store);
    const again = await rt2.open(rec.id);
    expect(await readAs(again, p1)).not.toMatch(/lurker/i);
    // a restart from a snapshot taken after the removal
    await again.snapshot();
    store.leases.get(rec.id)!.expiresAt = new Date(0);
    const rt3 = newRuntime(store);
    const third = await rt3.open(rec.id);
    expect(third.snapshotVersion).toBe(third.version);
    expect(await readAs(third, p1)).not.toMatch(/lurker/i);
    await rt3.shutdown();
    await rt2.shutdown();
    await rt.shutdown();
  });
});
