import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { at, isString, recordOf } from './guards.js';
import { labelOf } from './labels.js';

/**
 * Forms generated from a JSON Schema (the ruleset's stats or options, as GET /rulesets gives
 * them): one field per property, the right input for its type, and validation with the schema
 * itself before anything is sent.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: JsonSchema | boolean;
  description?: string;
  title?: string;
  [k: string]: unknown;
};

export type FieldKind = 'integer' | 'number' | 'text' | 'boolean' | 'select' | 'multiselect' | 'list' | 'json';

export interface Field {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  choices?: string[];
  min?: number;
  max?: number;
  doc?: string;
  default?: unknown;
  /** a field for one entry of an object-valued property: its value is `value[parent][key]` */
  parent?: string;
  key?: string;
  /** an object-valued property: the kind of each of its entries (a map of numbers: integer) */
  entry?: Pick<Field, 'kind' | 'choices' | 'min' | 'max'>;
  /** a list of plain objects (`json`, its value the list as JSON): the fields of each entry, edited as rows */
  rows?: Field[];
}

/** The non-null branch of `X | null`, and whether null is allowed. */
function unwrapNullable(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const nonNull = branches.filter((b) => b.type !== 'null');
    if (nonNull.length === 1 && nonNull.length < branches.length)
      return { schema: { ...nonNull[0]!, default: s.default ?? nonNull[0]!.default }, nullable: true };
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const rest = s.type.filter((t) => t !== 'null');
    return { schema: { ...s, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  return { schema: s, nullable: false };
}

/** A bound a player can read: zod's `.int()` gives ±(2^53 − 1), which is no limit of the game. */
function gameBound(n: number | undefined): number | undefined {
  return n !== undefined && Math.abs(n) < 1e9 ? n : undefined;
}

function kindOf(s: JsonSchema): Pick<Field, 'kind' | 'choices' | 'min' | 'max' | 'rows'> {
  if (s.enum && s.enum.every(isString)) return { kind: 'select', choices: s.enum.filter(isString) };
  const type = Array.isArray(s.type) ? undefined : s.type;
  const min = gameBound(s.minimum ?? s.exclusiveMinimum);
  const max = gameBound(s.maximum ?? s.exclusiveMaximum);
  switch (type) {
    case 'integer':
      return { kind: 'integer', min, max };
    case 'number':
      return { kind: 'number', min, max };
    case 'string':
      return { kind: 'text' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array': {
      const item = s.items ? unwrapNullable(s.items).schema : undefined;
      if (item?.enum && item.enum.every(isString)) return { kind: 'multiselect', choices: item.enum.filter(isString) };
      if (item && (item.type === 'string' || item.type === 'number' || item.type === 'integer')) return { kind: 'list' };
      // a list of plain objects (every field of an entry has an input of its own): rows of fields
      const rows = item?.type === 'object' && item.properties ? fieldsOf(item) : [];
      return rows.length > 0 && rows.every((f) => f.kind !== 'json') ? { kind: 'json', rows } : { kind: 'json' };
    }
    default:
      return { kind: 'json' };
  }
}

/** A readable label from a property name: `mobilityInjury` → `Mobility injury`, `DEX` stays. */
export { labelOf };

export function fieldsOf(schema: unknown, docs: Record<string, string> = {}): Field[] {
  const s = (schema ?? {}) as JsonSchema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, raw]) => {
    const { schema: prop, nullable } = unwrapNullable(raw);
    const k = kindOf(prop);
    const ap = prop.additionalProperties;
    const field: Field = {
      ...(typeof ap === 'object' ? { entry: kindOf(unwrapNullable(ap).schema) } : {}),
      name,
      label: prop.title ?? labelOf(name),
      ...k,
      // a field with a default may be left as it is
      required: required.has(name) && raw.default === undefined && prop.default === undefined && !nullable,
      nullable,
      doc: docs[name] ?? prop.description ?? raw.description,
      default: raw.default !== undefined ? raw.default : prop.default,
    };
    return field;
  });
}

/**
 * An object-valued property whose entries are named elsewhere (a number per vital the encounter
 * names: `vitals` → `vitals.Mana`, `vitals.Stress`) shown as one field per entry instead of a JSON
 * field; with no entries it is not shown. `entries`: property → its entries' keys and labels.
 */
export function withEntryFields(
  fields: Field[],
  entries: Map<string, Array<{ key: string; label: string; doc?: string | undefined }>>,
): Field[] {
  return fields.flatMap((f) => {
    const list = entries.get(f.name);
    if (!list) return [f];
    const each = f.entry ?? { kind: 'json' as const };
    return list.map(({ key, label, doc }): Field => ({
      name: `${f.name}.${key}`,
      label,
      ...each,
      required: false,
      nullable: false,
      parent: f.name,
      key,
      ...(doc ? { doc } : {}),
    }));
  });
}

/** Form values are strings (inputs), booleans (checkboxes) or string lists (multiselects). */
export type FormValue = string | boolean | string[];
export type FormValues = Record<string, FormValue>;

export function initialValues(fields: Field[], current?: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v = f.parent ? at(current?.[f.parent], f.key!) : current && f.name in current ? current[f.name] : f.default;
    out[f.name] = toFormValue(f, v);
  }
  return out;
}

function toFormValue(f: Field, v: unknown): FormValue {
  switch (f.kind) {
    case 'boolean':
      return v === true;
    case 'multiselect':
      return Array.isArray(v) ? v.map(String) : [];
    case 'list':
      return Array.isArray(v) ? v.join(', ') : '';
    case 'json':
      return v === undefined ? '' : JSON.stringify(v, null, 1);
    default:
      return v === undefined || v === null ? '' : String(v);
  }
}

export interface ParseResult {
  value: Record<string, unknown>;
  /** field name → message, for values that are not even of the right shape */
  errors: Record<string, string>;
}

/** Turn form values into the object to validate and send (blank optional fields are left out). */
export function parseValues(fields: Field[], values: FormValues): ParseResult {
  const { value, errors } = parseFlat(fields, values);
  const inside: Record<string, Record<string, unknown>> = {};
  for (const f of fields) {
    if (!f.parent || !(f.name in value)) continue;
    (inside[f.parent] ??= {})[f.key!] = value[f.name];
    delete value[f.name];
  }
  return { value: { ...value, ...inside }, errors };
}

function parseFlat(fields: Field[], values: FormValues): ParseResult {
  const value: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const raw = values[f.name];
    if (f.kind === 'boolean') {
      value[f.name] = raw === true;
      continue;
    }
    if (f.kind === 'multiselect') {
      value[f.name] = Array.isArray(raw) ? raw : [];
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') {
      if (f.nullable) value[f.name] = null;
      continue; // missing: the schema says whether that is allowed
    }
    switch (f.kind) {
      case 'integer':
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n)) errors[f.name] = 'must be a number';
        else value[f.name] = n;
        break;
      }
      case 'list':
        value[f.name] = text
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        break;
      case 'json':
        try {
          value[f.name] = JSON.parse(text);
        } catch {
          errors[f.name] = 'must be valid JSON';
        }
        break;
      default:
        value[f.name] = text;
    }
  }
  return { value, errors };
}

const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: false, validateFormats: false });
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
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * Validate against the schema: field name → first message ('' key for the whole object).
 * `fieldNames`: the form's fields, so that an entry's message goes to its own field.
 */
export function validate(schema: unknown, value: unknown, fieldNames?: Set<string>): Record<string, string> {
  const v = validatorFor(schema);
  if (!v || v(value)) return {};
  const out: Record<string, string> = {};
  for (const e of v.errors ?? []) {
    const path = e.instancePath.split('/');
    let field = path[1] ?? '';
    // an entry with a field of its own (`vitals.Mana`) gets its message there
    const entry = path.length === 3 && fieldNames?.has(`${field}.${path[2]!}`);
    if (entry) field = `${field}.${path[2]!}`;
    if (e.keyword === 'required') field = String(recordOf(e.params).missingProperty);
    const msg = e.keyword === 'required' ? 'is required' : messageOf(e);
    const rest = entry ? '' : path.slice(2).join('/');
    if (!(field in out)) out[field] = rest ? `${rest}: ${msg}` : msg;
  }
  return out;
}
