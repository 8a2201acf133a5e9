/** Narrowing what comes off the wire or out of storage (JSON), instead of casting it. */

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `v` as an object of fields, or an empty one when it is not an object. */
export const recordOf = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});

/** The value at a dotted `path` (`a.b.c`, `list.0`) in nested objects and arrays, undefined where there is none. */
export function at(v: unknown, path: string): unknown {
  let o = v;
  for (const k of path.split('.')) o = typeof o === 'object' && o !== null ? Reflect.get(o, k) : undefined;
  return o;
}

export const isString = (v: unknown): v is string => typeof v === 'string';
export const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter(isString) : []);

/** A text field at `path`, if there is one. */
export const textAt = (v: unknown, path: string): string | undefined => {
  const x = at(v, path);
  return isString(x) ? x : undefined;
};
