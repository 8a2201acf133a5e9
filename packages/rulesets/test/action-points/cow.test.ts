import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EncounterState, Ruleset } from '@fray/engine';
import { actionPoints } from '../../src/action-points/index.js';
import { compareStream } from '../cow.js';
import { encounter } from './helpers.js';

const gm = { role: 'gm' } as const;

const extra = (s: EncounterState, pick: (n: number) => number): Record<string, unknown>[] => {
  const ids = Object.keys(s.combatants);
  const c = s.clock.current ?? ids[pick(ids.length)] ?? 'a1';
  const t = ids[pick(ids.length)] ?? 'b1';
  const p = (s.combatants[c]?.position ?? { x: 0, y: 0 }) as { x: number; y: number };
  return [
    { type: 'attack', by: gm, combatantId: c, kind: ['close', 'ranged'][pick(2)], targetId: t },
    { type: 'move', by: gm, combatantId: c, mode: 'walk', path: [{ x: p.x + [1, -1, 0][pick(3)]!, y: p.y + [0, 1, -1][pick(3)]! }] },
    { type: 'act', by: gm, combatantId: c, action: ['drink', 'five-foot-step', 'escape-grapple', 'total-defense'][pick(4)], targetId: t },
    { type: 'setAware', by: gm, combatantId: t, aware: pick(2) === 0 },
    { type: 'combatant.place', by: gm, combatantId: t, position: { x: pick(5), y: pick(5) } },
  ];
};

describe('action-points on the copy-on-write path', () => {
  it('gives byte-identical states, events and errors to the draft path, never writes its (frozen) input, and keeps unchanged parts shared', () => {
    let accepted = 0;
    const lost: string[] = [];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.nat(), { minLength: 30, maxLength: 150 }), (seed, choices) => {
        const fighters = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'].map((id, i) => ({
          id,
          side: id[0]!,
          stats: { dexterity: 8 + i },
          at: { x: i, y: i % 2 },
        }));
        const s = encounter(fighters, {}, seed) as unknown as EncounterState;
        const r = compareStream(actionPoints as unknown as Ruleset, s, choices, extra);
        accepted += r.accepted;
        lost.push(...r.lost);
      }),
      { numRuns: Number(process.env.COW_RUNS ?? 20), endOnFailure: true },
    );
    expect(accepted).toBeGreaterThan(200);
    expect(lost).toEqual([]);
  }, 600_000);
});
