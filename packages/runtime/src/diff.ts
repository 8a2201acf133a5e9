import jsonpatch, { type Operation } from 'fast-json-patch';

function isPlain(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function escape(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * RFC 6902 patch from `a` to `b` (JSON values). The engine's states share unchanged subtrees
 * between versions (structural sharing), so the top levels are walked here and identical
 * references skipped; what changed below `depth` levels is diffed by fast-json-patch.
 */
export function diff(a: unknown, b: unknown, depth = 3): Operation[] {
  const ops: Operation[] = [];
  walk(a, b, '', depth, ops);
  return ops;
}

function walk(a: unknown, b: unknown, path: string, depth: number, ops: Operation[]): void {
  if (a === b) return;
  if (depth > 0 && isPlain(a) && isPlain(b)) {
    for (const k of Object.keys(a)) {
      if (a[k] !== undefined && (!Object.prototype.hasOwnProperty.call(b, k) || b[k] === undefined)) ops.push({ op: 'remove', path: `${path}/${escape(k)}` });
    }
    for (const k of Object.keys(b)) {
      const bv = b[k];
      if (bv === undefined) continue;
      const p = `${path}/${escape(k)}`;
      if (!Object.prototype.hasOwnProperty.call(a, k) || a[k] === undefined) ops.push({ op: 'add', path: p, value: jsonpatch.deepClone(bv) as unknown });
      else walk(a[k], bv, p, depth - 1, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && shifted(a, b, path, ops)) return;
  const containers = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b);
  if (containers) {
    for (const op of jsonpatch.compare(a as object, b as object)) {
      const moved = op as Operation & { from?: string };
      ops.push({ ...op, path: path + op.path, ...(moved.from !== undefined ? { from: path + moved.from } : {}) } as Operation);
    }
    return;
  }
  ops.push({ op: 'replace', path, value: jsonpatch.deepClone(b) as unknown });
}

/**
 * A bounded list that dropped items at the front and appended at the back (the recent rolls):
 * `remove /0` for each dropped item and `add /-` for each new one, instead of rewriting every
 * index. Detected by identity of the kept items.
 */
function shifted(a: unknown[], b: unknown[], path: string, ops: Operation[]): boolean {
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
    if (kept === 0 && b.length > 0 && a.length > 0) return false; // nothing in common: let compare decide
    for (let i = 0; i < k; i++) ops.push({ op: 'remove', path: `${path}/0` });
    for (let i = kept; i < b.length; i++) ops.push({ op: 'add', path: `${path}/-`, value: jsonpatch.deepClone(b[i]) as unknown });
    return true;
  }
  return false;
}
