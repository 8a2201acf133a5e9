import { current, isDraft } from 'mutative';

/**
 * A deep copy equal to `JSON.parse(JSON.stringify(value))` (members that are undefined dropped,
 * undefined array items and non-finite numbers turned to null), without the text round trip and
 * without reading drafts through their proxies: use it to put a value read from the draft into an
 * event.
 */
export function jsonCopy<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? (v === 0 ? 0 : v) : null; // JSON writes -0 as 0
  if (typeof v !== 'object' || v === null) return v;
  if (isDraft(v)) v = current(v);
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : copyJson(x);
    }
    return out;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.toJSON === 'function') return copyJson(o.toJSON());
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out[k] = copyJson(x);
  }
  return out;
}
