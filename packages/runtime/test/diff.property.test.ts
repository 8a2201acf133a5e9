import fc from 'fast-check';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { diff } from '../src/diff.js';

describe('diff (RFC 6902 with shared subtrees skipped)', () => {
  it('patching a with diff(a, b) gives b, for any JSON values', () => {
    const json = fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), json), fc.dictionary(fc.string({ maxLength: 4 }), json), (a, b) => {
        const ops = diff(a, b);
        const out = jsonpatch.applyPatch(structuredClone(a), ops as Operation[], true, false).newDocument;
        expect(out).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('a list that drops at the front and appends at the back becomes removes and adds', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ id: i }));
    fc.assert(
      fc.property(fc.nat(16), fc.nat(16), fc.nat(4), (start, len, extra) => {
        const a = { list: items.slice(start, start + len) };
        const b = { list: items.slice(Math.min(start + extra, start + len), start + len + extra) };
        const ops = diff(a, b);
        expect(jsonpatch.applyPatch(structuredClone(a), ops as Operation[], true, false).newDocument).toEqual(b);
      }),
      { numRuns: 500 },
    );
    const a = { rolls: items.slice(0, 16) };
    const b = { rolls: items.slice(1, 17) };
    expect(diff(a, b)).toEqual([
      { op: 'remove', path: '/rolls/0' },
      { op: 'add', path: '/rolls/-', value: { id: 16 } },
    ]);
  });

  it('skips identical subtrees and reaches into changed ones', () => {
    const shared = { big: Array.from({ length: 50 }, (_, i) => i) };
    const a = { combatants: { x: shared, y: { hp: 3, tags: ['a'] } }, version: 1 };
    const b = { combatants: { x: shared, y: { hp: 2, tags: ['a'] } }, version: 2 };
    expect(diff(a, b)).toEqual([
      { op: 'replace', path: '/combatants/y/hp', value: 2 },
      { op: 'replace', path: '/version', value: 2 },
    ]);
  });
});

describe('diff: keys a patch applier refuses in a path', () => {
  it('an object with a "__proto__", "constructor" or "prototype" key is replaced whole (the counterexample {"":{}} → {"":{"__proto__":0}})', () => {
    const a = JSON.parse('{"":{}}') as unknown;
    const b = JSON.parse('{"":{"__proto__":0}}') as unknown;
    const ops = diff(a, b);
    expect(ops).toEqual([{ op: 'replace', path: '/', value: JSON.parse('{"__proto__":0}') }]);
    expect(JSON.stringify(jsonpatch.applyPatch(structuredClone(a), ops as Operation[], true, false).newDocument)).toBe(JSON.stringify(b));
    const c = JSON.parse('{"x":{"constructor":{"prototype":1}}}') as unknown;
    expect(JSON.stringify(jsonpatch.applyPatch({ x: {} }, diff({ x: {} }, c) as Operation[], true, false).newDocument)).toBe(JSON.stringify(c));
  });
});
