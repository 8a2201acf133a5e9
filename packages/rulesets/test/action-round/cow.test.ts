import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EncounterState, Ruleset } from '@fray/engine';
import { compareStream } from '../cow.js';
import { ruleset, setup } from './helpers.js';

const gm = { role: 'gm' } as const;

const extra = (s: EncounterState, pick: (n: number) => number): Record<string, unknown>[] => {
  const ids = Object.keys(s.combatants);
  const c = s.clock.current ?? ids[pick(ids.length)] ?? 'a';
  const t = ids[pick(ids.length)] ?? 'b';
  const p = (s.combatants[c]?.position ?? { x: 0, y: 0 }) as { x: number; y: number };
  return [
    { type: 'attack', by: gm, combatantId: c, kind: ['close', 'ranged'][pick(2)], targetId: t },
    { type: 'move', by: gm, combatantId: c, mode: 'walk', path: [{ x: p.x + [1, -1, 0][pick(3)]!, y: p.y + [0, 1, -1][pick(3)]! }] },
    { type: 'defend', by: gm, combatantId: c },
    { type: 'talk', by: gm, combatantId: c, text: 'hey' },
    { type: 'combatant.place', by: gm, combatantId: t, position: { x: pick(5), y: pick(5) } },
  ];
};

describe('action-round on the copy-on-write path', () => {
  it('gives byte-identical states, events and errors to the draft path, never writes its (frozen) input, and keeps unchanged parts shared', () => {
    let accepted = 0;
    const lost: string[] = [];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.nat(), { minLength: 30, maxLength: 150 }), (seed, choices) => {
        const specs = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({
          id,
          side: i < 3 ? 'x' : 'y',
          at: [i, i % 2] as [number, number],
          stats: { initiative: 10 - 5 * i },
        }));
        const { s } = setup(specs, {}, seed);
        const r = compareStream(ruleset as unknown as Ruleset, s as unknown as EncounterState, choices, extra);
        accepted += r.accepted;
        lost.push(...r.lost);
      }),
      { numRuns: Number(process.env.COW_RUNS ?? 20), endOnFailure: true },
    );
    expect(accepted).toBeGreaterThan(200);
    expect(lost).toEqual([]);
  }, 600_000);
});
