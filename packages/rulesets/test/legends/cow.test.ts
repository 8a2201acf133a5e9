import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, createEncounter, type EncounterState, type Ruleset } from '@fray/engine';
import { legends } from '../../src/legends/index.js';
import { compareStream } from '../cow.js';

const gm = { role: 'gm' } as const;
const R = legends as Ruleset;

function started(seed: number): EncounterState {
  let s = createEncounter(R, { id: 'cow', seed, options: { initialTurnOrderDecisions: seed % 2 === 0 } });
  const weapon = (id: string, ranged: boolean) =>
    ranged
      ? { id, name: 'Bow', location: 'both-hands', props: { weapon: 'ranged', type: 'bow', twoHandedOnly: true } }
      : { id, name: 'Blade', location: 'right-hand', props: { weapon: 'melee', type: 'blade' } };
  const setup: Record<string, unknown>[] = [
    { type: 'defineZone', zone: { id: 'yard', neighbors: ['main'], traits: { movementDie: 10, groupDefenseRatio: 2 } } },
    { type: 'defineAction', action: { key: 'rally', name: 'Rally', kinds: ['minor'], tags: ['verbal'] } },
    { type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'], tags: ['slowing'] } },
  ];
  for (let i = 0; i < 8; i++) {
    const side = i < 4 ? 'h' : 'f';
    setup.push({
      type: 'combatant.add',
      combatant: {
        id: `c${i}`,
        name: `C${i}`,
        side,
        controller: side === 'h' ? `p${i}` : null,
        stats: { DEX: 4 + (i % 5), SPD: 5 + (i % 4), STR: 4 + (i % 6), competences: ['blade', 'bow'], encumbrance: i === 3 ? 1 : 0 },
        items: [weapon(`w${i}`, i % 3 === 2), { id: `p${i}`, name: 'Potion', location: 'carried' }],
        position: { zone: 'main', area: side === 'h' ? 'gate' : 'keep' },
      },
    });
  }
  setup.push({ type: 'formGroup', combatantIds: ['c0', 'c1', 'c2'], groupId: 'hg' });
  setup.push({ type: 'formGroup', combatantIds: ['c4', 'c5', 'c6'], groupId: 'fg' });
  setup.push({ type: 'formEngagement', combatantIds: ['c0', 'c4'], engagementId: 'm1' });
  setup.push({ type: 'combat.start' });
  for (const c of setup) {
    const r = apply(R, s, { by: gm, ...c });
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}

const extra = (s: EncounterState, pick: (n: number) => number): Record<string, unknown>[] => {
  const ids = Object.keys(s.combatants);
  const c = ids[pick(ids.length)] ?? 'c0';
  return [
    { type: 'advancePhase', by: gm },
    { type: 'formEngagement', by: gm, combatantIds: [c, ids[pick(ids.length)] ?? 'c1'] },
    { type: 'leaveGroup', by: gm, combatantId: c },
    { type: 'combatant.place', by: gm, combatantId: c, position: { zone: ['main', 'yard'][pick(2)], area: null } },
    { type: 'react', by: gm, combatantId: s.reaction?.eligible[0] ?? c, destination: { join: ids[pick(ids.length)] ?? c } },
    ...(s.rs as { pending: { combatantId: string; finished?: boolean }[] }).pending
      .filter((p) => !p.finished)
      .map((p) => ({
        type: 'finishMove',
        by: gm,
        combatantId: p.combatantId,
        rush: ['self', 'external', 'none'][pick(3)],
        keepTogether: pick(2) === 0,
      })),
    { type: 'move', by: gm, combatantId: c, destination: { join: ids[pick(ids.length)] ?? c, mode: 'engage' } },
    {
      type: 'act',
      by: gm,
      combatantId: s.clock.current ?? c,
      action: ['touch', 'grapple', 'drop', 'bypass', 'leave-group-defense'][pick(5)],
      targetId: ids[pick(ids.length)],
    },
    {
      type: 'act',
      by: gm,
      combatantId: s.clock.current ?? c,
      action: 'inventory',
      as: 'major',
      ops: [{ op: 'draw', itemId: `p${(s.clock.current ?? c).slice(1)}` }],
    },
    { type: 'dropItem', by: gm, combatantId: c, itemId: `w${c.slice(1)}` },
  ];
};

describe('legends on the copy-on-write path', () => {
  it('gives byte-identical states, events and errors to the draft path, never writes its (frozen) input, and keeps unchanged parts shared', () => {
    let accepted = 0;
    const lost = new Map<string, number>();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.nat(), { minLength: 30, maxLength: 150 }), (seed, choices) => {
        const r = compareStream(R, started(seed), choices, extra);
        accepted += r.accepted;
        for (const k of r.lost) lost.set(k, (lost.get(k) ?? 0) + 1);
      }),
      { numRuns: Number(process.env.COW_RUNS ?? 20), endOnFailure: true },
    );
    expect(accepted).toBeGreaterThan(200);
    // an unchanged part keeps its identity (the runtime's patch diff skips it by reference)
    expect([...lost]).toEqual([]);
  }, 600_000);
});
