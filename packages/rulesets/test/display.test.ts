import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, createEncounter, type EncounterState, type RulesetDisplay } from '@fray/engine';
import { registry } from '../src/index.js';

/** Stats that every ruleset accepts, with the vitals' maxima set. */
const STATS: Record<string, Record<string, unknown>> = {
  legends: { DEX: 10, SPD: 10, STR: 10 },
  'ocv-phases': { combatValue: 5, stun: 20, endurance: 20 },
  'action-round': {},
  'action-points': { hp: 12 },
  freeform: { hp: 12 },
};

function flatten(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length
      ? flatten(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k}`],
  );
}

function encounter(id: string): EncounterState {
  const r = registry[id]!;
  let s = createEncounter(r, { id: 'e1', name: 'test', seed: 32 });
  for (const name of ['Aria', 'Brute']) {
    const res = apply(r, s, {
      type: 'combatant.add',
      by: { role: 'gm' },
      combatant: { id: name.toLowerCase(), name, side: name === 'Aria' ? 'pcs' : 'npcs', stats: STATS[id] },
    });
    if (!res.ok) throw new Error(res.error.message);
    s = res.state;
  }
  return s;
}

/** The event types a ruleset's source emits, read from the source (`type: 'x.y'`, `ev('y')`, `emit(ctx, 'y'`, `patchData(ctx, 'y'`, `setItems(..., 'y'`). */
function emittedTypes(id: string): string[] {
  const dir = join(import.meta.dirname, '../src', id);
  const found = new Set<string>();
  // every source file of the ruleset, in its folders too; its presentation (the sentences themselves) aside
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('.ts') || /(^|\/)(display|presentation)\.ts$/.test(f)) continue;
    const src = readFileSync(join(dir, f), 'utf8');
    for (const m of src.matchAll(new RegExp(`type: '(${id}\\.[a-zA-Z-]+)'`, 'g'))) found.add(m[1]!);
    for (const m of src.matchAll(/(?<!kind: |kind !== |kind === )\bev\('([a-z-]+)'\)/g)) found.add(`${id}.${m[1]}`);
    for (const m of src.matchAll(/\b(?:emit|patchData)\(ctx, '([a-z-]+)'/g)) found.add(`${id}.${m[1]}`);
    for (const m of src.matchAll(/setItems\(ctx, c, items, (?:mode === 'draw' \? )?'([a-z-]+)'(?: : '([a-z-]+)')?/g)) {
      found.add(`${id}.${m[1]}`);
      if (m[2]) found.add(`${id}.${m[2]}`);
    }
  }
  return [...found].sort();
}

describe('each ruleset describes how it is shown', () => {
  for (const [id, r] of Object.entries(registry)) {
    const d = r.display as RulesetDisplay;

    it(`${id}: "a sentence for each of its events in the game's words"`, () => {
      const types = emittedTypes(id);
      expect(types.length).toBeGreaterThan(5);
      const missing = types.filter((t) => !d.events[t] && !(d.quiet ?? []).includes(t));
      expect(missing).toEqual([]);
    });

    it(`${id}: "which fields of its per-combatant state are internal (never shown as stats)": every state field is internal, a vital or labelled`, () => {
      const s = encounter(id);
      const keys = flatten(s.combatants.aria!.data as Record<string, unknown>);
      const listed = [
        ...d.internal,
        ...Object.keys(d.dataLabels),
        ...d.vitals.filter((v) => v.current.in === 'data').map((v) => v.current.key),
      ];
      const covered = (k: string) => listed.some((l) => l === k || k.startsWith(`${l}.`) || l.startsWith(`${k}.`));
      expect(keys.filter((k) => !covered(k))).toEqual([]);
      const tops = new Set(Object.keys(s.combatants.aria!.data as object));
      expect(listed.filter((l) => !tops.has(l.split('.')[0]!))).toEqual([]);
    });

    it(`${id}: the clock's phase is named in the game's words (display.phases), never shown as its id`, () => {
      const out = apply(r, encounter(id), { type: 'combat.start', by: { role: 'gm' } });
      if (!out.ok) throw new Error(out.error.message);
      const phase = out.state.clock.phase;
      if (phase) expect(d.phases?.[phase], `${id}: no name for the phase ${phase}`).toMatch(/^[A-Z]/);
      for (const name of Object.values(d.phases ?? {})) expect(name).not.toMatch(/^[a-z-]+$/);
    });

    it(`${id}: each phase hint (display.phaseHints) belongs to a named phase and is a sentence`, () => {
      for (const [phase, hint] of Object.entries(d.phaseHints ?? {})) {
        expect(d.phases?.[phase], `${id}: a hint for the unnamed phase ${phase}`).toBeTruthy();
        expect(hint).toMatch(/^[A-Z].*\.$/);
      }
    });

    it(`${id}: "Each ruleset ships a few sample stat blocks (documented, original)": each is valid`, () => {
      expect((d.samples ?? []).length).toBeGreaterThanOrEqual(3);
      for (const b of d.samples ?? []) {
        const parsed = r.statsSchema.safeParse(b.stats);
        expect(parsed.success, `${b.name}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
        expect(b.doc.length).toBeGreaterThan(5);
      }
    });

    it(`${id}: "labels and groups for stats": every stat has a label and a group`, () => {
      const stats = Object.keys(encounter(id).combatants.aria!.stats as object);
      const grouped = new Set(d.statGroups.flatMap((g) => g.stats));
      expect(stats.filter((k) => !d.statLabels[k] || !grouped.has(k))).toEqual([]);
    });

    it(`${id}: "The GM applies damage or healing to any combatant in one action, as a logged command"`, () => {
      const s = encounter(id);
      expect(d.vitals.filter((v) => v.adjustable).length).toBeGreaterThan(0);
      for (const v of d.vitals.filter((x) => x.adjustable)) {
        const read = (st: EncounterState) => (st.combatants.brute!.data as Record<string, number>)[v.current.key]!;
        const before = read(s);
        const hurt = apply(r, s, { type: 'combatant.adjust', by: { role: 'gm' }, combatantId: 'brute', vital: v.key, amount: 3 });
        if (!hurt.ok) throw new Error(hurt.error.message);
        expect(read(hurt.state)).toBe(v.direction === 'down' ? before - 3 : before + 3);
        expect(hurt.events.some((e) => typeof d.events[e.type] !== 'undefined')).toBe(true);
        const healed = apply(r, hurt.state, {
          type: 'combatant.adjust',
          by: { role: 'gm' },
          combatantId: 'brute',
          vital: v.key,
          amount: -10,
        });
        if (!healed.ok) throw new Error(healed.error.message);
        // healing never goes past the start (the maximum, or no harm at all)
        expect(read(healed.state)).toBe(before);
        const player = apply(r, s, {
          type: 'combatant.adjust',
          by: { role: 'player', playerId: 'p1' },
          combatantId: 'brute',
          vital: v.key,
          amount: 1,
        });
        expect(player.ok).toBe(false);
      }
      const bad = apply(r, s, { type: 'combatant.adjust', by: { role: 'gm' }, combatantId: 'brute', vital: 'luck', amount: 1 });
      expect(bad.ok ? null : bad.error.rule).toBe(`${id}.vitals`);
    });
  }
});
