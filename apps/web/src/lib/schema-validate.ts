import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isRecord, isString, recordOf } from './guards.js';

/** A form's value checked with the schema itself (ajv), each message in words by field, before anything is sent. */

// verbose: a pattern's message reads the example beside it (`examples`)
const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: false, validateFormats: false, verbose: true });
const cache = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: unknown): ValidateFunction | null {
  if (!schema || typeof schema !== 'object') return null;
  let v = cache.get(schema);
  if (!v) {
    const { $schema: _ignored, ...rest } = recordOf(schema);
    try {
      v = ajv.compile(rest);
    } catch {
      return null;
    }
    cache.set(schema, v);
  }
  return v;
}

function messageOf(e: ErrorObject): string {
  const p = recordOf(e.params);
  switch (e.keyword) {
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'type':
      return `must be ${String(p.type).replace(/,/g, ' or ')}`;
    case 'enum':
      return `must be one of: ${Array.isArray(p.allowedValues) ? p.allowedValues.join(', ') : ''}`;
    case 'additionalProperties':
      return `unknown field "${String(p.additionalProperty)}"`;
    case 'pattern': {
      const example =
        isRecord(e.parentSchema) && Array.isArray(e.parentSchema.examples) ? e.parentSchema.examples.find(isString) : undefined;
      return example ? `must be written like ${example}` : 'is not written the way the game reads it';
    }
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * Validate against the schema: field name → first message ('' key for the whole object).
 * `fieldNames`: the form's fields, so that an entry's message goes to its own field. `made`: the
 * fields of rows whose ids the form makes from a name: a row without one says its name is missing.
 */
export function validate(schema: unknown, value: unknown, fieldNames?: Set<string>, made = new Set<string>()): Record<string, string> {
  const v = validatorFor(schema);
  if (!v || v(value)) return {};
  const out: Record<string, string> = {};
  for (const e of v.errors ?? []) {
    const path = e.instancePath.split('/');
    let field = path[1] ?? '';
    // an entry with a field of its own (`vitals.Mana`) gets its message there
    const entry = path.length === 3 && fieldNames?.has(`${field}.${path[2]!}`);
    if (entry) field = `${field}.${path[2]!}`;
    const missing = e.keyword === 'required' ? String(recordOf(e.params).missingProperty) : null;
    if (missing !== null && path.length > 1 && made.has(missing)) continue;
    // a missing field of the form is its own message; one inside a field's value (a row's name) is that field's
    if (missing !== null && path.length <= 1) field = missing;
    const msg = missing !== null ? 'is required' : messageOf(e);
    const inner = entry ? [] : [...path.slice(2), ...(missing !== null && path.length > 1 ? [missing] : [])];
    // a row by its number as the form shows it (`row 2 · damage`), not its index
    const rest = inner.map((k) => (/^\d+$/.test(k) ? `row ${Number(k) + 1}` : k)).join(' · ');
    if (!(field in out)) out[field] = rest ? `${rest}: ${msg}` : msg;
  }
  return out;
}

/**
 * The schema's complaints about the entries of lists and maps, for the row that has them:
 * `powers[1].damage` (a list's second row, its field `damage`), `skills[Stealth].__value` (a
 * map's row by its key, its value), `map.walls[0].x` inside a command's object. A row's editor
 * shows each on the row's own input, beside the list's message.
 */
export function rowErrors(schema: unknown, value: unknown): Record<string, string> {
  const v = validatorFor(schema);
  if (!v || v(value)) return {};
  const out: Record<string, string> = {};
  for (const e of v.errors ?? []) {
    const path = e.instancePath.split('/').slice(1);
    const missing = e.keyword === 'required' ? String(recordOf(e.params).missingProperty) : null;
    const msg = missing !== null ? 'is required' : messageOf(e);
    for (let i = 1; i < path.length; i++) {
      const sub = path[i + 1] ?? missing ?? '__value';
      // only the row's own field: deeper complaints stay the row's field's
      if (i + 2 < path.length) continue;
      const key = `${path.slice(0, i).join('.')}[${path[i]!}].${sub}`;
      if (!(key in out)) out[key] = msg;
    }
  }
  return out;
}
