/**
 * A list of objects (abilities, weapons, powers) or a map (skill → rank) edited as rows of fields:
 * the form keeps it as JSON text, the editor as rows; ids made from names are unique in the list.
 */
import { isRecord, isString, recordOf } from './guards.js';
import { initialValues, parseValues, type Field, type FormValues } from './schema-form.js';

/** The rows of the field's value (its JSON text). */
export function rowsOfText(f: Field, text: string): FormValues[] {
  let v: unknown;
  try {
    v = JSON.parse(text || (f.map ? '{}' : '[]'));
  } catch {
    return [];
  }
  const fields = f.rows ?? [];
  if (f.map) {
    const scalar = f.map.scalar;
    return isRecord(v)
      ? Object.entries(v).map(([k, x]) => initialValues(fields, scalar ? { __key: k, __value: x } : { ...recordOf(x), __key: k }))
      : [];
  }
  return Array.isArray(v) ? v.map((x) => initialValues(fields, recordOf(x))) : [];
}

/** The list or map the rows make; an id left blank is made from its name, unique among the rows. */
export function valueOfRows(f: Field, rows: FormValues[]): unknown {
  const fields = f.rows ?? [];
  const made = fields.filter((x) => x.madeFrom && !x.refers);
  // the ids the rows already have (entries being edited) are taken first
  const taken = new Set(
    rows.flatMap((r) =>
      made
        .map((m) => r[m.name])
        .filter(isString)
        .filter(Boolean),
    ),
  );
  const list = rows.map((r) => {
    const v = parseValues(fields, r, { taken }).value;
    for (const m of made) {
      const id = v[m.name];
      if (isString(id)) taken.add(id);
    }
    return v;
  });
  if (!f.map) return list;
  const scalar = f.map.scalar;
  // a number left blank stays in the map (null): the check names it instead of dropping it
  return Object.fromEntries(list.map(({ __key, __value, ...rest }) => [isString(__key) ? __key : '', scalar ? (__value ?? null) : rest]));
}

/** The keys given more than once (the last one counts): the editor says so. */
export function repeatedKeys(f: Field, rows: FormValues[]): string[] {
  if (!f.map) return [];
  const keys = rows
    .map((r) => r.__key)
    .filter(isString)
    .map((k) => k.trim())
    .filter(Boolean);
  return [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
}
