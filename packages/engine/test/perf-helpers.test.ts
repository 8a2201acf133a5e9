import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { create } from 'mutative';
import { apply, createEncounter } from '../src/engine.js';
import { jsonCopy } from '../src/json-copy.js';
import { mini } from './fixture.js';

// Values as event payloads hold them: JSON data with undefined members and items mixed in.
const payload = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, undefined, true, false, Number.NaN, Infinity),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonCopy', () => {
  it('gives exactly what a JSON round trip gives (undefined dropped or null, non-finite numbers null)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), payload, { maxKeys: 5 }), (v) => {
        const copy = jsonCopy(v);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
        expect(copy).toStrictEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });

  it('copies a draft as it is now, and the copy shares nothing with the draft', () => {
    const base = { a: { list: [1, { x: 2 }], keep: { y: 3 } }, b: 'text' };
    let copied: unknown;
    const next = create(base, (d) => {
      d.a.list.push(4);
      (d.a.list[1] as { x: number }).x = 5;
      copied = jsonCopy(d.a);
      d.a.keep.y = 9;
    });
    expect(copied).toStrictEqual({ list: [1, { x: 5 }, 4], keep: { y: 3 } });
    expect(next.a.keep.y).toBe(9);
    expect(base.a.keep.y).toBe(3);
  });
});

describe('apply: the envelope fast path', () => {
  const s0 = createEncounter(mini, { id: 'e', seed: 1 });
  it('refuses malformed envelopes with the schema message, as before', () => {
    for (const bad of [
      null,
      1,
      {},
      { type: '' },
      { type: 'x'.repeat(65), by: { role: 'gm' } },
      { type: 'dice.roll' },
      { type: 'dice.roll', by: { role: 'player' } },
      { type: 'dice.roll', by: { role: 'player', playerId: '' } },
      { type: 'dice.roll', by: { role: 'boss' } },
    ]) {
      const r = apply(mini, s0, bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'INVALID_COMMAND', rule: 'engine.commands' });
    }
  });
  it('knows only the ruleset’s own command names (not inherited object keys)', () => {
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = apply(mini, s0, { type, by: { role: 'gm' } });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('UNKNOWN_COMMAND');
    }
  });
  it('accepts well-formed envelopes for every role', () => {
    for (const by of [{ role: 'gm' }, { role: 'system' }, { role: 'player', playerId: 'p1' }]) {
      const r = apply(mini, s0, { type: 'dice.roll', by, formula: '1d6', purpose: 'test' });
      expect(r.ok).toBe(true);
    }
  });
});
