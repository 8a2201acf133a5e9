import { describe, expect, it } from 'vitest';
import { apply, createEncounter, type EncounterState, type Ruleset } from '@fray/engine';
import { registry } from '@fray/rulesets';
import { reachOf } from '../src/reach.js';

const gm = { role: 'gm' } as const;
const R = (id: string) => (registry as Record<string, Ruleset>)[id]!;

function run(r: Ruleset, s: EncounterState, cmd: Record<string, unknown>): EncounterState {
  const out = apply(r, s, { by: gm, ...cmd });
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.state;
}
function fight(
  ruleset: string,
  people: Array<{ id: string; side: string; at: unknown; stats?: Record<string, unknown>; hidden?: boolean; controller?: string }>,
  before: Record<string, unknown>[] = [],
) {
  const r = R(ruleset);
  let s = createEncounter(r, { id: 'e', seed: 3 });
  for (const cmd of before) s = run(r, s, cmd);
  people.forEach((p, i) => {
    s = run(r, s, {
      type: 'combatant.add',
      combatant: {
        id: p.id,
        name: p.id,
        side: p.side,
        hidden: p.hidden ?? false,
        controller: p.controller ?? null,
        stats: { initiative: 40 - 20 * i, ...(p.stats ?? {}) },
        position: p.at,
      },
    });
  });
  return { r, s: run(r, s, { type: 'combat.start' }) };
}
const everyone = (s: EncounterState) => new Set(Object.keys(s.combatants));
const walk = { command: 'move', template: { combatantId: 'hero', mode: 'walk' } };

describe('reach: where a combatant can go, from the rules', () => {
  it('action-round WALK "up to your normal speed rank": 6 squares every way, each with its shortest path; the 7th refused with the rule', () => {
    const { r, s } = fight('action-round', [
      { id: 'hero', side: 'pc', at: { x: 0, y: 0 } },
      { id: 'orc', side: 'npc', at: { x: 30, y: 30 } },
    ]);
    const a = reachOf(r, s, gm, everyone(s), { combatantId: 'hero', ...walk });
    if (!a.ok) throw new Error(a.error.message);
    expect(a.space).toBe('squares');
    expect(a.reachable).toHaveLength(13 * 13 - 1);
    for (const t of a.reachable) {
      const { x, y } = t.to as { x: number; y: number };
      expect(t.steps).toBe(Math.max(Math.abs(x), Math.abs(y)));
      expect(t.path).toHaveLength(t.steps);
    }
    const far = a.refused.find((f) => JSON.stringify(f.to) === JSON.stringify({ x: 7, y: 0 }));
    expect(far?.error.message).toContain('more than the 6');
  });

  it('marks the step that leaves a threatened square ("OA from movement") and who may attack', () => {
    const { r, s } = fight('action-round', [
      { id: 'hero', side: 'pc', at: { x: 0, y: 0 } },
      { id: 'orc', side: 'npc', at: { x: 1, y: 0 }, stats: { naturalWeapons: true } },
    ]);
    const a = reachOf(r, s, gm, everyone(s), { combatantId: 'hero', ...walk });
    if (!a.ok) throw new Error(a.error.message);
    const away = a.reachable.find((t) => JSON.stringify(t.to) === JSON.stringify({ x: -2, y: 0 }));
    expect(away?.provokes?.from).toEqual(['orc']);
    // the window opens as the first step leaves the threatened square: after 0 steps
    expect(away?.provokes?.at).toBe(0);
    // the orc's own square is not a destination
    expect(a.reachable.some((t) => JSON.stringify(t.to) === JSON.stringify({ x: 1, y: 0 }))).toBe(false);
  });

  it("a hidden combatant neither blocks nor threatens in a player's answer (the GM's shows both)", () => {
    const { r, s } = fight('action-round', [
      { id: 'hero', side: 'pc', at: { x: 0, y: 0 }, controller: 'p1' },
      { id: 'orc', side: 'npc', at: { x: 1, y: 0 }, stats: { naturalWeapons: true }, hidden: true },
    ]);
    const player = { role: 'player', playerId: 'p1' } as const;
    const a = reachOf(r, s, player, new Set(['hero']), { combatantId: 'hero', ...walk });
    if (!a.ok) throw new Error(a.error.message);
    expect(JSON.stringify(a)).not.toContain('orc');
    expect(a.reachable.some((t) => JSON.stringify(t.to) === JSON.stringify({ x: 1, y: 0 }))).toBe(true);
    expect(a.reachable.every((t) => !t.provokes)).toBe(true);
    const g = reachOf(r, s, gm, everyone(s), { combatantId: 'hero', ...walk });
    if (!g.ok) throw new Error(g.error.message);
    expect(g.reachable.some((t) => t.provokes?.from.includes('orc'))).toBe(true);
  });

  it('walls set by the GM (map.set) are refused with the map rule, and paths go around them', () => {
    const wall = [-1, 0, 1].map((y) => ({ x: 1, y }));
    const { r, s } = fight(
      'action-round',
      [
        { id: 'hero', side: 'pc', at: { x: 0, y: 0 } },
        { id: 'orc', side: 'npc', at: { x: 9, y: 9 } },
      ],
      [{ type: 'map.set', map: { width: 20, height: 20, origin: { x: -10, y: -10 }, walls: wall } }],
    );
    const a = reachOf(r, s, gm, everyone(s), { combatantId: 'hero', ...walk, to: { x: 3, y: 0 } });
    if (!a.ok) throw new Error(a.error.message);
    expect(a.refused.find((f) => JSON.stringify(f.to) === '{"x":1,"y":0}')?.error.rule).toBe('map.walls');
    const behind = a.reachable.find((t) => JSON.stringify(t.to) === '{"x":2,"y":0}');
    expect(behind?.steps).toBe(4);
    expect(a.explain?.ok).toBe(false);
    expect(a.explain?.error?.rule).toBe('map.walls');
  });

  it('a `to` that is not a cell of the map is not explained (the reachable cells are still answered)', () => {
    const { r, s } = fight('action-round', [
      { id: 'hero', side: 'pc', at: { x: 0, y: 0 } },
      { id: 'orc', side: 'npc', at: { x: 30, y: 30 } },
    ]);
    // a client sends anything as `to`: a zone on a square grid once walked an endless line
    for (const to of [{ zone: 'hall' }, { x: 3 }, { x: '3', y: 0 }, { q: 1, r: 0 }]) {
      const a = reachOf(r, s, gm, everyone(s), { combatantId: 'hero', ...walk, to });
      if (!a.ok) throw new Error(a.error.message);
      expect(a.explain).toBeUndefined();
      expect(a.reachable).toHaveLength(13 * 13 - 1);
    }
  });

  it('ocv-phases: a 1-hex step reaches the six neighbouring hexes', () => {
    const { r, s } = fight('ocv-phases', [
      { id: 'hero', side: 'pc', at: { q: 0, r: 0 }, stats: { combatValue: 6 } },
      { id: 'orc', side: 'npc', at: { q: 8, r: 0 }, stats: { combatValue: 3 } },
    ]);
    const current = s.clock.current!;
    const a = reachOf(r, s, gm, everyone(s), { combatantId: current, command: 'step', template: { combatantId: current } });
    if (!a.ok) throw new Error(a.error.message);
    expect(a.space).toBe('hexes');
    expect(a.reachable.map((t) => t.steps)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
