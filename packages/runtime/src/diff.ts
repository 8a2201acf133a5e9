/** An RFC 6902 operation as the diff writes it (add, remove, replace). */
export type DiffOp =
  { op: 'add'; path: string; value: unknown } | { op: 'remove'; path: string } | { op: 'replace'; path: string; value: unknown };

const hasOwn = Object.prototype.hasOwnProperty;

function isPlain(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const special = /[~/]/;
function segment(k: string): string {
  return special.test(k) ? k.replace(/~/g, '~0').replace(/\//g, '~1') : k;
}

/**
 * RFC 6902 patch from `a` to `b` (JSON values, treated as immutable).
 *
 * Written for Fray's states, which share every unchanged subtree with the previous version
 * (structural sharing, and projections that keep those references): any two identical
 * references are skipped at every depth without being looked into, so the cost follows the size
 * of what changed, not the size of the state. (fast-json-patch's `compare`, used before, walks
 * every subtree even when both sides are the same object, and deep-clones what it adds.)
 *
 * The values in the ops are references into `b`, not copies: the states are never mutated, and
 * the ops are serialized when sent. A list that dropped items at its front and appended at its
 * back (the recent rolls) becomes `remove /0` and `add /-`; any other list changes element by
 * element, or is replaced whole when that is shorter.
 */
export function diff(a: unknown, b: unknown): DiffOp[] {
  const ops: DiffOp[] = [];
  walk(a, b, '', ops);
  return ops;
}

function walk(a: unknown, b: unknown, path: string, ops: DiffOp[]): void {
  if (a === b) return;
  if (isPlain(a) && isPlain(b)) {
    const start = ops.length;
    // One pass over a's keys finds the removed and the changed ones. Most keys are unchanged:
    // for those the two values are compared and nothing else (no own-property lookups, which
    // were most of a diff's cost). A key that a patch applier refuses in a path (UNSAFE) matters
    // only where an op would name it: the keys that changed.
    let kept = 0; // a's defined keys that b has too (unchanged or changed)
    for (const k in a) {
      const av = a[k];
      const bv = b[k];
      if (av === bv) {
        if (av !== undefined) kept++;
        continue;
      }
      if (av === undefined || !hasOwn.call(a, k)) continue; // not a value of a: an addition, if b has it (below)
      if (bv === undefined || !hasOwn.call(b, k)) {
        if (UNSAFE.has(k)) return replaceWhole(b, path, ops, start);
        ops.push({ op: 'remove', path: `${path}/${segment(k)}` });
        continue;
      }
      if (UNSAFE.has(k)) return replaceWhole(b, path, ops, start);
      kept++;
      walk(av, bv, `${path}/${segment(k)}`, ops);
    }
    // b has keys that a has not (additions) only when it has more defined keys than were kept
    let defined = 0;
    for (const k in b) if (b[k] !== undefined) defined++;
    if (defined === kept) return;
    for (const k in b) {
      if (!hasOwn.call(b, k)) continue;
      const bv = b[k];
      if (bv === undefined || (hasOwn.call(a, k) && a[k] !== undefined)) continue;
      if (UNSAFE.has(k)) return replaceWhole(b, path, ops, start);
      ops.push({ op: 'add', path: `${path}/${segment(k)}`, value: bv });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (shifted(a, b, path, ops)) return;
    const start = ops.length;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const av: unknown = a[i] === undefined ? null : a[i];
      const bv: unknown = b[i] === undefined ? null : b[i];
      if (av !== bv) walk(av, bv, `${path}/${i}`, ops);
    }
    for (let i = a.length - 1; i >= n; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    for (let i = n; i < b.length; i++) ops.push({ op: 'add', path: `${path}/-`, value: b[i] === undefined ? null : b[i] });
    // many small changes to a list: one replace says it in fewer bytes
    if (ops.length - start > Math.max(2, b.length >> 1)) {
      ops.length = start;
      ops.push({ op: 'replace', path, value: b });
    }
    return;
  }
  ops.push({ op: 'replace', path, value: b });
}

/**
 * Keys that patch appliers refuse in a path (fast-json-patch bans `__proto__` and
 * `constructor/prototype` against prototype pollution): when one of them is added, removed or
 * changed, the object holding it is replaced whole, so no op's path names it. Unchanged, such a
 * key is left alone: a path to a sibling key does not name it.
 */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);
function replaceWhole(b: unknown, path: string, ops: DiffOp[], start: number): void {
  ops.length = start;
  ops.push({ op: 'replace', path, value: b });
}

/**
 * A bounded list that dropped items at the front and appended at the back (the recent rolls):
 * `remove /0` for each dropped item and `add /-` for each new one, instead of rewriting every
 * index. Detected by identity of the kept items.
 */
function shifted(a: unknown[], b: unknown[], path: string, ops: DiffOp[]): boolean {
  for (let k = 1; k <= a.length; k++) {
    const kept = a.length - k;
    if (kept > b.length) continue;
    let same = true;
    for (let i = 0; i < kept; i++) {
      if (a[k + i] !== b[i]) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    if (kept === 0 && b.length > 0 && a.length > 0) return false; // nothing in common: compare element-wise
    for (let i = 0; i < k; i++) ops.push({ op: 'remove', path: `${path}/0` });
    for (let i = kept; i < b.length; i++) ops.push({ op: 'add', path: `${path}/-`, value: b[i] });
    return true;
  }
  return false;
}
