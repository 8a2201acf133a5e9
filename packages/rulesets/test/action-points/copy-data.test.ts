import { describe, expect, it } from 'vitest';
import { DATA_KEYS, copyData, type Data } from '../../src/action-points/index.js';
import { encounter } from './helpers.js';

// Engine plumbing, not a rule: the copy-on-write path copies a combatant's data with the ruleset's own
// copy function, which must give exactly what a spread gives.
describe('action-points copyData', () => {
  const s = encounter([
    { id: 'a', side: 'x', at: { x: 0, y: 0 } },
    { id: 'b', side: 'y', at: { x: 1, y: 0 } },
  ]);
  const d = s.combatants.a!.data as Data;

  it('DATA_KEYS are the keys initCombatant gives, in its order', () => {
    expect(Object.keys(d)).toEqual(DATA_KEYS);
  });

  it('copies field by field: a new object with the same keys, order and values', () => {
    const c = copyData(d);
    expect(c).not.toBe(d);
    expect(Object.keys(c)).toEqual(Object.keys(d));
    expect(JSON.stringify(c)).toBe(JSON.stringify(d));
    for (const k of DATA_KEYS) expect((c as unknown as Record<string, unknown>)[k]).toBe((d as unknown as Record<string, unknown>)[k]);
  });

  it('keeps a key it does not know (falls back to a spread)', () => {
    const odd = { ...d, extra: 1 } as Data & { extra: number };
    const c = copyData(odd) as Data & { extra: number };
    expect(c.extra).toBe(1);
    expect(Object.keys(c)).toEqual(Object.keys(odd));
  });

  it('keeps the order of data whose keys are in another order', () => {
    const { hp, ...rest } = d;
    const reordered = { ...rest, hp } as Data;
    expect(Object.keys(copyData(reordered))).toEqual(Object.keys(reordered));
  });
});
