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

  it('a key whose value is undefined counts as absent, on either side (as JSON.stringify drops it); shared subtrees stay shared', () => {
    // b is made from a: some keys kept (the same references), some changed, removed, set to
    // undefined or added: the fast path compares values only, and must still find every change
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    const value = fc.option(json, { nil: undefined });
    const key = fc.string({ maxLength: 3 });
    fc.assert(
      fc.property(
        fc.dictionary(key, value),
        fc.array(fc.tuple(fc.constantFrom('keep', 'change', 'remove', 'undefine', 'nest'), key, value)),
        (a, edits) => {
          const b: Record<string, unknown> = { ...a };
          for (const [what, k, v] of edits) {
            if (what === 'change') b[k] = v;
            else if (what === 'remove') delete b[k];
            else if (what === 'undefine') b[k] = undefined;
            else if (what === 'nest') b[k] = { inner: a[k] ?? null, v: v ?? null };
          }
          const ops = diff(a, b);
          const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
          expect(jsonpatch.applyPatch(plain(a), ops as Operation[], true, false).newDocument).toEqual(plain(b));
          // no op for a key whose value did not change (same reference, or undefined on both sides)
          for (const o of ops) {
            const k = o.path.split('/')[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
            expect(o.path === '' || a[k] !== b[k]).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
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
    expect(JSON.stringify(jsonpatch.applyPatch({ x: {} }, diff({ x: {} }, c) as Operation[], true, false).newDocument)).toBe(
      JSON.stringify(c),
    );
  });

  it('for any objects whose keys include them, no op names one in its path and the patch still gives b', () => {
    // JSON text parsed, so that "__proto__" is an own key, as it is in parsed input
    const key = fc.constantFrom('a', 'b', '__proto__', 'constructor', 'prototype');
    const members = (value: fc.Arbitrary<string>) =>
      fc.array(fc.tuple(key, value), { maxLength: 4 }).map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
    const text = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.constantFrom('0', '1', 'null', '[1]'), members(tie('node'))),
    })).node;
    const asObject = members(text).map((t) => JSON.parse(t) as unknown);
    const canonical = (v: unknown): string =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
            .join(',')}}`
        : JSON.stringify(v);
    fc.assert(
      fc.property(asObject, asObject, (a0, b) => {
        const a = JSON.parse(JSON.stringify(a0)) as unknown;
        const ops = diff(a, b);
        for (const o of ops) {
          const segs = o.path.split('/');
          expect(segs.some((p, i) => p === '__proto__' || (p === 'prototype' && segs[i - 1] === 'constructor'))).toBe(false);
        }
        const out = jsonpatch.applyPatch(JSON.parse(JSON.stringify(a)), ops as Operation[], true, false).newDocument;
        expect(canonical(out)).toBe(canonical(b));
      }),
      { numRuns: 1000 },
    );
  });

  it('an unchanged "__proto__" key does not force a whole replace: only the changed sibling is patched', () => {
    const a = JSON.parse('{"x":{"__proto__":{"k":1},"hp":3}}') as unknown;
    const b = JSON.parse('{"x":{"__proto__":{"k":1},"hp":2}}') as unknown;
    // same value, but not the same reference: the unsafe key is compared, not named
    expect(diff(a, b)).toEqual([{ op: 'replace', path: '/x', value: (b as { x: unknown }).x }]);
    const shared = JSON.parse('{"k":1}') as unknown;
    const c = { x: Object.assign(JSON.parse('{"hp":3}') as object, JSON.parse('{}') as object) } as { x: Record<string, unknown> };
    Object.defineProperty(c.x, '__proto__', { value: shared, enumerable: true, writable: true, configurable: true });
    const d = { x: { ...c.x, hp: 2 } } as { x: Record<string, unknown> };
    Object.defineProperty(d.x, '__proto__', { value: shared, enumerable: true, writable: true, configurable: true });
    expect(diff(c, d)).toEqual([{ op: 'replace', path: '/x/hp', value: 2 }]);
  });
});
