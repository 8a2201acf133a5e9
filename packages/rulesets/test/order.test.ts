import { describe, expect, it } from 'vitest';
import { apply, createEncounter, inEngineOrder, type EncounterState, type Ruleset } from '@fray/engine';
import { registry } from '../src/index.js';
import { jsonbOrder } from './jsonb.js';

/**
 * A state read back from Postgres `jsonb` has its keys sorted (shorter first); `inEngineOrder`
 * gives the runtime the same state in the engine's own key order, so that a loaded encounter
 * takes the copy-on-write path's shaped copies again (docs/journal/performance-2026-11.md, "Session 11"). The
 * same seed and command log must rebuild the same state, whichever order the keys came in.
 */

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

const ROOT = [
  'id',
  'name',
  'ruleset',
  'options',
  'version',
  'status',
  'clock',
  'sides',
  'combatants',
  'effects',
  'reaction',
  'rng',
  'forcedRolls',
  'rolls',
  'rs',
  'dice',
];
const CLOCK = ['round', 'phase', 'order', 'current'];
const COMBATANT = ['id', 'name', 'side', 'controller', 'hidden', 'secretStats', 'stats', 'position', 'items', 'data'];

const fighters: Record<string, (i: number) => Record<string, unknown>> = {
  legends: (i) => ({ stats: { DEX: 10 + (i % 3), SPD: 9 + (i % 4), STR: 8 + (i % 5) } }),
  'ocv-phases': (i) => ({
    stats: { combatValue: 4 + (i % 5), lightningReflexes: i % 3, move: 4, recovery: 4, stun: 30, endurance: 30, combatReflexes: false },
    position: { q: i - 6, r: 0 },
  }),
  'action-round': (i) => ({
    stats: {
      naturalWeapons: true,
      initiative: i % 5,
      toughness: 40,
      defense: 2,
      attack: { close: 3 },
      damage: { close: 2 },
      range: 10,
      skills: { athletics: 2 },
    },
    position: { x: i * 2, y: 0 },
  }),
  'action-points': (i) => ({
    stats: {
      dexterity: 8 + (i % 3),
      hp: 100,
      ac: 14,
      attackBonus: 4,
      weapons: [{ id: 'sword', name: 'Sword', kind: 'melee', category: 'one-handed', damage: '1d8' }],
    },
    position: { x: i, y: 0 },
  }),
  freeform: (i) => ({ stats: { hp: 10 + i, initiativeBonus: i % 3, vitals: { Mana: 4 } }, position: i % 2 ? 'the bar' : null }),
};

const gm = { role: 'gm' } as const;

describe('a state whose keys a store sorted (jsonb), put back in the engine’s order', () => {
  it.each(Object.keys(fighters))('%s: the same values, the engine’s key order, and the same states after the same commands', (name) => {
    const R = (registry as Record<string, Ruleset>)[name]!;
    const step = (s: EncounterState, c: Record<string, unknown>) => {
      const r = apply(R, s, { ...c, by: gm });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      return r.state;
    };
    let s = createEncounter(R, { id: 'order', seed: 5 }) as EncounterState;
    for (let i = 0; i < 12; i++)
      s = step(s, {
        type: 'combatant.add',
        combatant: { id: `c${i}`, name: `F${i}`, side: i < 6 ? 'heroes' : 'raiders', ...fighters[name]!(i) },
      });
    s = step(s, { type: 'combat.start' });
    expect(inEngineOrder(s)).toBe(s);

    const loaded = deepFreeze(jsonbOrder(JSON.parse(JSON.stringify(s))) as EncounterState);
    expect(Object.keys(loaded)).not.toEqual(ROOT);
    const fixed = inEngineOrder(loaded); // a frozen input: nothing is changed in place
    expect(fixed).toEqual(s);
    expect(Object.keys(fixed)).toEqual(ROOT);
    expect(Object.keys(fixed.clock)).toEqual(CLOCK);
    expect(Object.keys(fixed.combatants)).toEqual(Object.keys(loaded.combatants));
    for (const c of Object.values(fixed.combatants)) expect(Object.keys(c)).toEqual(COMBATANT);

    // the same commands from the live state, the loaded one and the reordered one: the same states
    let a = s;
    let b = loaded;
    let c = fixed;
    for (let i = 0; i < 24; i++) {
      const cmd =
        i % 3 === 2
          ? { type: 'turn.end', combatantId: a.clock.current }
          : { type: 'dice.roll', formula: '2d6', purpose: `p${i}`, combatantId: `c${i % 12}` };
      // (a command refused is refused alike, e.g. a turn.end out of a ruleset's phase)
      const [ra, rb, rc] = [a, b, c].map((x) => apply(R, x, { ...cmd, by: gm }));
      expect(rb!.ok ? 'ok' : rb!.error.code).toBe(ra!.ok ? 'ok' : ra!.error.code);
      expect(rc!.ok ? 'ok' : rc!.error.code).toBe(ra!.ok ? 'ok' : ra!.error.code);
      if (ra!.ok && rb!.ok && rc!.ok) [a, b, c] = [ra!.state, rb!.state, rc!.state];
    }
    expect(a.version).toBeGreaterThan(s.version + 12);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // and the reordered one stays in the engine's order
    expect(Object.keys(c)).toEqual(ROOT);
    for (const x of Object.values(c.combatants)) expect(Object.keys(x)).toEqual(COMBATANT);
  });

  it('keeps keys the engine does not know, after its own', () => {
    const R = registry.legends as unknown as Ruleset;
    const s = createEncounter(R, { id: 'extra', seed: 1 }) as EncounterState;
    const odd = { zeta: 1, ...(jsonbOrder(s) as object) } as unknown as EncounterState;
    const fixed = inEngineOrder(odd) as unknown as Record<string, unknown>;
    expect(Object.keys(fixed)).toEqual([...ROOT, 'zeta']);
    expect(fixed.zeta).toBe(1);
  });
});
