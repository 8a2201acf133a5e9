import { describe, expect, it } from 'vitest';
import { copyData, type Data } from '../../src/action-round/state.js';
import { setup } from './helpers.js';

// Engine plumbing, not a rule: the copy-on-write path copies a combatant's data with the ruleset's own
// copy function, which must give exactly what a spread gives.
describe('action-round copyData', () => {
  const { s } = setup([
    { id: 'a', side: 'x', at: [0, 0] },
    { id: 'b', side: 'y', at: [1, 0] },
  ]);
  const d = s.combatants.a!.data;

  it('copies field by field: a new object with the same keys, order and values', () => {
    const c = copyData(d);
    expect(c).not.toBe(d);
    expect(Object.keys(c)).toEqual(Object.keys(d));
    expect(Object.keys(c)).toHaveLength(40);
    expect(JSON.stringify(c)).toBe(JSON.stringify(d));
    for (const k of Object.keys(d)) expect((c as unknown as Record<string, unknown>)[k]).toBe((d as unknown as Record<string, unknown>)[k]);
  });

  it('keeps a key it does not know (falls back to a spread)', () => {
    const odd = { ...d, extra: 1 } as Data & { extra: number };
    const c = copyData(odd) as Data & { extra: number };
    expect(c.extra).toBe(1);
    expect(Object.keys(c)).toEqual(Object.keys(odd));
  });

  it('keeps the order of data whose keys are in another order', () => {
    const { slots, ...rest } = d;
    const reordered = { ...rest, slots } as Data;
    expect(Object.keys(copyData(reordered))).toEqual(Object.keys(reordered));
  });
});
