import { describe, expect, it } from 'vitest';
import { IdFilter } from '../src/id-filter.js';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i.toString(36)}-${(i * 2654435761) >>> 0}`);

describe('IdFilter (the accepted command ids of an encounter)', () => {
  it('never says no for an id it holds, through several stages', () => {
    const f = new IdFilter(256);
    const held = ids('cmd', 20_000);
    for (const id of held) f.add(id);
    expect(f.size).toBe(20_000);
    for (const id of held) expect(f.has(id)).toBe(true);
  });

  it('says "maybe" for under 1 % of the ids it never held, however far it grew', () => {
    for (const [capacity, n] of [
      [1024, 1000],
      [256, 20_000],
      [12_500, 10_000],
    ] as const) {
      const f = new IdFilter(capacity);
      for (const id of ids('cmd', n)) f.add(id);
      const unseen = ids('other', 20_000);
      const maybe = unseen.filter((id) => f.has(id)).length;
      expect(maybe / unseen.length).toBeLessThan(0.01);
    }
  });

  it('holds nothing when empty, and sizes a stage at about 1.6 bytes an id of its capacity', () => {
    const f = new IdFilter(10_000);
    expect(f.has('anything')).toBe(false);
    expect(f.bytes).toBe(0);
    f.add('one');
    expect(f.has('one')).toBe(true);
    expect(f.bytes).toBeGreaterThan(10_000 * 1.4);
    expect(f.bytes).toBeLessThan(10_000 * 1.8);
  });

  it('refuses an error rate outside (0, 1)', () => {
    expect(() => new IdFilter(10, 0)).toThrow(RangeError);
    expect(() => new IdFilter(10, 1)).toThrow(RangeError);
  });
});
