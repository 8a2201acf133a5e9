import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EncounterState, Ruleset } from '@fray/engine';
import { compareStream } from '../cow.js';
import { encounter, R } from './helpers.js';

const gm = { role: 'gm' } as const;

const extra = (s: EncounterState, pick: (n: number) => number): Record<string, unknown>[] => {
  const ids = Object.keys(s.combatants);
  const c = s.clock.current ?? ids[pick(ids.length)] ?? 'a1';
  const t = ids[pick(ids.length)] ?? 'b1';
  const p = (s.combatants[c]?.position ?? { q: 0, r: 0 }) as { q: number; r: number };
  return [
    { type: 'attack', by: gm, combatantId: c, manoeuvre: ['strike', 'haymaker', 'block', 'dodge'][pick(4)], targetId: t },
    {
      type: 'move',
      by: gm,
      combatantId: c,
      mode: ['move-half', 'move-full', 'step'][pick(3)],
      path: [{ q: p.q + [1, -1, 0][pick(3)]!, r: p.r + [0, 1, -1][pick(3)]! }],
    },
    { type: 'abort', by: gm, combatantId: c, manoeuvre: 'dodge' },
    { type: 'hold', by: gm, combatantId: c, kind: 'delay' },
    { type: 'setAwareness', by: gm, combatantId: t, aware: pick(2) === 0 },
    { type: 'combatant.place', by: gm, combatantId: t, position: { q: pick(7) - 3, r: pick(7) - 3 } },
  ];
};

describe('ocv-phases on the copy-on-write path', () => {
  it('gives byte-identical states, events and errors to the draft path, never writes its (frozen) input, and keeps unchanged parts shared', () => {
    let accepted = 0;
    const lost: string[] = [];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.nat(), { minLength: 30, maxLength: 150 }), (seed, choices) => {
        const fighters = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'].map((id, i) => ({
          id,
          side: id[0]!,
          cv: 3 + (i % 4),
          at: { q: (i % 3) - 1, r: id[0] === 'a' ? -1 : 1 },
          stats: { speed: 2 + (i % 4) },
        }));
        const { s } = encounter(fighters, { seed });
        const r = compareStream(R as unknown as Ruleset, s as unknown as EncounterState, choices, extra);
        accepted += r.accepted;
        lost.push(...r.lost);
      }),
      { numRuns: Number(process.env.COW_RUNS ?? 20), endOnFailure: true },
    );
    expect(accepted).toBeGreaterThan(200);
    expect(lost).toEqual([]);
  }, 600_000);
});
