/**
 * What Postgres `jsonb` does to a value's objects: their keys sorted, shorter keys first, then
 * bytewise (the order a state read back from a `jsonb` column has). For the key-order test and
 * bench (`inEngineOrder`).
 */
export function jsonbOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonbOrder);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)))
      o[k] = jsonbOrder((v as Record<string, unknown>)[k]);
    return o;
  }
  return v;
}
