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
