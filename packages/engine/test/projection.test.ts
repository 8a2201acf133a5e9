import { describe, expect, it } from 'vitest';
import { apply, createEncounter } from '../src/engine.js';
import {
  keepIf,
  keepKeys,
  mapValuesShared,
  projectionCacheStats,
  projectState,
  viewKeyOf,
  viewerOfKey,
  withParts,
} from '../src/projection.js';
import { mini } from './fixture.js';
import type { EncounterState, Viewer } from '../src/types.js';

const gm = { role: 'gm' } as const;
const must = (s: EncounterState, cmd: Record<string, unknown>): EncounterState => {
  const r = apply(mini as never, s as never, { by: gm, ...cmd });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.state as EncounterState;
};

function table(): EncounterState {
  let s = createEncounter(mini, { id: 'enc', seed: 3, options: { parry: true } }) as EncounterState;
  s = must(s, { type: 'combatant.add', combatant: { id: 'a', name: 'Aria', side: 'heroes', controller: 'p1', stats: { hp: 10 } } });
  s = must(s, {
    type: 'combatant.add',
    combatant: { id: 'b', name: 'Brak', side: 'heroes', controller: 'p2', secretStats: ['hp'], stats: { hp: 10 } },
  });
  s = must(s, { type: 'combatant.add', combatant: { id: 'g', name: 'Ghoul', side: 'monsters', hidden: true, stats: { hp: 8 } } });
  s = must(s, { type: 'combatant.add', combatant: { id: 'o', name: 'Orc', side: 'monsters', secretStats: ['hp'], stats: { hp: 12 } } });
  return must(s, { type: 'combat.start' });
}

const p1: Viewer = { role: 'player', playerId: 'p1' };
const p2: Viewer = { role: 'player', playerId: 'p2' };
const spectator: Viewer = { role: 'spectator' };

describe('projection: what each viewer sees, shared where it is the same', () => {
  it('"only the GM sees GM-only data": hidden combatants, secret stats, the RNG state', () => {
    const s = table();
    const v = projectState(mini as never, s, p1);
    expect(v.combatants.g).toBeUndefined();
    expect((v.combatants.o!.stats as Record<string, unknown>).hp).toBeUndefined();
    expect(v.rng).toEqual([]);
    // the GM: everything but the generator's state, whose reader would foresee the dice
    expect(projectState(mini as never, s, gm)).toEqual({ ...s, rng: [] });
    expect(projectState(mini as never, s, gm).combatants).toBe(s.combatants);
  });

  it('an unchanged combatant keeps its object from one projected state to the next; the changed one does not', () => {
    const s1 = table();
    const s2 = must(s1, { type: 'combatant.setStat', combatantId: 'a', stat: 'hp', value: 7 });
    const v1 = projectState(mini as never, s1, spectator);
    const v2 = projectState(mini as never, s2, spectator);
    expect(v2.combatants.o).toBe(v1.combatants.o); // stripped of its secret, still shared
    expect(v2.combatants.b).toBe(v1.combatants.b);
    expect(v2.combatants.a).not.toBe(v1.combatants.a);
    expect((v2.combatants.a!.stats as Record<string, unknown>).hp).toBe(7);
    // a roll changes neither the combatants nor the clock: both views keep them whole
    const s3 = must(s2, { type: 'dice.roll', formula: '1d6', purpose: 'test' });
    const v3 = projectState(mini as never, s3, spectator);
    expect(v3.combatants).toBe(v2.combatants);
    expect(v3.clock).toBe(v2.clock);
    expect(v3.rolls).not.toBe(v2.rolls);
  });

  it('a player who controls nothing hidden or secret gets the public view; one who does gets a view of its own', () => {
    const s = table();
    expect(viewKeyOf(s, gm)).toBe('gm');
    expect(viewKeyOf(s, spectator)).toBe('public');
    expect(viewKeyOf(s, p1)).toBe('public');
    expect(viewKeyOf(s, p2)).toBe('player:p2'); // Brak's hp is secret, but not from Brak's player
    expect(viewKeyOf(s, { role: 'player', playerId: 'nobody' })).toBe('public');
    // the public view stands for p1 exactly
    expect(JSON.stringify(projectState(mini as never, s, viewerOfKey('public', p1)))).toBe(
      JSON.stringify(projectState(mini as never, s, p1)),
    );
    expect((projectState(mini as never, s, p2).combatants.b!.stats as Record<string, unknown>).hp).toBe(10);
    expect((projectState(mini as never, s, spectator).combatants.b!.stats as Record<string, unknown>).hp).toBeUndefined();
  });

  it("each viewer's view of an unchanged part is the same object state after state, with viewers who see different combatants taking turns", () => {
    // a ruleset part of its own per viewer ("projects the state ... for each viewer")
    let made = 0;
    const rs = { ...(mini as object), projectState: (r: unknown, v: Viewer) => (made++, { ...(r as object), for: v.role }) } as never;
    let s = table();
    const first = { spectator: projectState(rs, s, spectator), p2: projectState(rs, s, p2) };
    expect(first.spectator.combatants).not.toBe(first.p2.combatants); // p2 sees Brak's hp
    for (let i = 0; i < 12; i++) {
      // only a combatant changes: the clock and the ruleset part stay the state's own objects
      const next = must(s, { type: 'combatant.setStat', combatantId: 'a', stat: 'hp', value: 9 - (i % 5) });
      expect(next.clock).toBe(s.clock);
      expect(next.rs).toBe(s.rs);
      s = next;
      const before = made;
      const sp = projectState(rs, s, spectator);
      const pp = projectState(rs, s, p2);
      expect(made - before).toBe(2); // new combatants views: the ruleset part is projected for each
      expect(sp.rs).toEqual({ ...(s.rs as object), for: 'spectator' });
      expect(pp.rs).toEqual({ ...(s.rs as object), for: 'player' });
      // asked again, in any order: the same objects, nothing projected again
      expect(projectState(rs, s, p2).rs).toBe(pp.rs);
      expect(projectState(rs, s, spectator).rs).toBe(sp.rs);
      expect(projectState(rs, s, spectator).clock).toBe(sp.clock);
      expect(projectState(rs, s, p2).clock).toBe(pp.clock);
      expect(made - before).toBe(2);
      expect(sp.clock.order).not.toContain('g'); // the hidden ghoul stays out of the turn order
    }
  });

  it('nothing is cached for a part the viewer loses nothing of: a table with nothing hidden keeps no cache entries, a narrowed view does', () => {
    // every cache entry is a WeakMap ephemeron that a full GC marks apart (docs/journal/performance-2026-11.md, Session 15)
    let s = createEncounter(mini, { id: 'open', seed: 5, options: {} }) as EncounterState;
    s = must(s, { type: 'combatant.add', combatant: { id: 'a', name: 'Aria', side: 'heroes', controller: 'p1', stats: { hp: 10 } } });
    s = must(s, { type: 'combatant.add', combatant: { id: 'o', name: 'Orc', side: 'monsters', stats: { hp: 12 } } });
    s = must(s, { type: 'combat.start' });
    const before = projectionCacheStats.keys;
    for (let i = 0; i < 5; i++) {
      s = must(s, { type: 'combatant.setStat', combatantId: 'o', stat: 'hp', value: 11 - i });
      for (const v of [p1, p2, spectator]) {
        const view = projectState(mini as never, s, v);
        expect(view.combatants).toBe(s.combatants); // the state's own parts, seen whole
        expect(view.clock).toBe(s.clock);
        expect(view.rs).toBe(s.rs);
      }
    }
    expect(projectionCacheStats.keys).toBe(before);
    // the same with a hidden combatant: the narrowed parts are cached, once per part, and asked again they come back the same
    const hidden = must(s, {
      type: 'combatant.add',
      combatant: { id: 'g', name: 'Ghoul', side: 'monsters', hidden: true, stats: { hp: 8 } },
    });
    const v1 = projectState(mini as never, hidden, spectator);
    const added = projectionCacheStats.keys - before;
    expect(added).toBeGreaterThan(0);
    expect(v1.combatants.g).toBeUndefined();
    expect(projectState(mini as never, hidden, spectator).combatants).toBe(v1.combatants);
    expect(projectionCacheStats.keys - before).toBe(added);
  });

  it('the projection helpers give their input back when the viewer loses nothing of it, a narrowed copy in the same key order otherwise', () => {
    const list = ['a', 'g', 'b'];
    expect(keepIf(list, () => true)).toBe(list);
    expect(keepIf(list, (x) => x !== 'g')).toEqual(['a', 'b']);
    const rec = { a: 1, g: 2, b: 3 };
    expect(keepKeys(rec, () => true)).toBe(rec);
    expect(Object.keys(keepKeys(rec, (k) => k !== 'g'))).toEqual(['a', 'b']);
    const groups = { x: { protected: ['a'] }, y: { protected: ['g', 'b'] }, z: { protected: [] as string[] } };
    const narrow = (d: { protected: string[] }) => withParts(d, { protected: keepIf(d.protected, (id) => id !== 'g') });
    const seenAll = (d: { protected: string[] }) => withParts(d, { protected: keepIf(d.protected, () => true) });
    expect(mapValuesShared(groups, seenAll)).toBe(groups);
    const out = mapValuesShared(groups, narrow);
    expect(out).not.toBe(groups);
    expect(Object.keys(out)).toEqual(['x', 'y', 'z']);
    expect(out.x).toBe(groups.x);
    expect(out.z).toBe(groups.z);
    expect(out.y).toEqual({ protected: ['b'] });
    expect(groups.y.protected).toEqual(['g', 'b']); // the state is never changed
    const base = { a: list, n: 1, r: rec };
    expect(withParts(base, { a: list, r: rec })).toBe(base);
    const w = withParts(base, { a: ['a'] });
    expect(Object.keys(w)).toEqual(['a', 'n', 'r']);
    expect(w.r).toBe(rec);
  });
});
