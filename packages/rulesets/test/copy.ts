import { expect, it } from 'vitest';

/**
 * The tests a ruleset's own copy function for the copy-on-write path must pass (engine plumbing, not
 * a rule): it gives exactly what a spread gives — a new object with the same keys, order and values —
 * also for data with a key it does not know or with its keys in another order. `moved` is a key that
 * the reordering test moves to the end.
 */
export function copiesLikeASpread<T extends object>(d: T, copy: (v: T) => T, moved: keyof T & string): void {
  it('copies field by field: a new object with the same keys, order and values', () => {
    const c = copy(d);
    expect(c).not.toBe(d);
    expect(Object.keys(c)).toEqual(Object.keys(d));
    expect(JSON.stringify(c)).toBe(JSON.stringify(d));
    for (const k of Object.keys(d)) expect((c as Record<string, unknown>)[k]).toBe((d as Record<string, unknown>)[k]);
  });

  it('keeps a key it does not know (falls back to a spread)', () => {
    const odd = { ...d, extra: 1 } as T & { extra: number };
    const c = copy(odd) as T & { extra: number };
    expect(c.extra).toBe(1);
    expect(Object.keys(c)).toEqual(Object.keys(odd));
  });

  it('keeps the order of data whose keys are in another order', () => {
    const { [moved]: last, ...rest } = d as Record<string, unknown>;
    const reordered = { ...rest, [moved]: last } as T;
    expect(Object.keys(copy(reordered))).toEqual(Object.keys(reordered));
  });
}
