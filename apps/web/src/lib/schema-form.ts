import type { FieldHint } from '@fray/engine';
import type { Field, Hints, JsonSchema } from './schema-types.js';
import { at, isRecord, isString, recordOf } from './guards.js';
import { madeId } from './ids.js';
import { labelOf } from './labels.js';

export { validate } from './schema-validate.js';

/** The fields of rows whose ids the form makes from a name (never asked): a missing one is its name's fault. */
export function madeFields(fields: Field[]): Set<string> {
  return new Set(fields.flatMap((f) => (f.rows ?? []).filter((r) => r.madeFrom && !r.refers).map((r) => r.name)));
}

/**
 * Forms generated from a JSON Schema (the ruleset's stats or options, as GET /rulesets gives
 * them): one field per property, the right input for its type, and validation with the schema
 * itself before anything is sent. The ruleset's form hints (`display.forms.fields`, by path) say
 * what the schema cannot: a field's words, what it names (a combatant, a zone…), an id made from a
 * name, what a map's keys are.
 */

export type { Field, Hints, JsonSchema } from './schema-types.js';

/** The hints below `name` (`powers` → `id`, …). */
export function subHints(hints: Hints, name: string): Hints {
  const p = `${name}.`;
  return Object.fromEntries(Object.entries(hints).flatMap(([k, v]) => (k.startsWith(p) ? [[k.slice(p.length), v]] : [])));
}

/** The non-null branch of `X | null`, and whether null is allowed. */
export function unwrapNullable(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
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

type Kind = Pick<Field, 'kind' | 'choices' | 'min' | 'max' | 'rows' | 'map' | 'loose'>;

/** A map's entries as rows: its key, then its value (a number, a choice…) or the value's own fields. */
function mapRows(value: JsonSchema, hints: Hints, hint: FieldHint | undefined): Kind {
  const keys = hint?.keys;
  const key: Field = {
    name: '__key',
    label: keys?.label ?? 'Name',
    ...(keys?.refers ? { kind: 'select', choices: [], refers: keys.refers } : { kind: 'text' }),
    required: true,
    nullable: false,
    ...(keys?.usual ? { usual: keys.usual } : {}),
  };
  const inner = unwrapNullable(value).schema;
  const scalar = inner.type !== 'object';
  const rest = scalar
    ? [{ ...kindOf(inner), name: '__value', label: keys?.value ?? 'Value', required: true, nullable: false }]
    : fieldsOf(inner, {}, hints);
  const rows = [key, ...rest];
  return rows.every((f) => f.kind !== 'json') ? { kind: 'json', rows, map: { scalar } } : { kind: 'json' };
}

/**
 * Objects of a few kinds told apart by one field (`op: 'draw' | 'stow' | …`): one row of every
 * kind's fields, that field a choice; a field another kind has not is left blank (the schema says so).
 */
function variantsOf(s: JsonSchema): JsonSchema | null {
  const vs = s.oneOf ?? s.anyOf;
  if (!vs || !vs.every((v) => v.type === 'object' && v.properties)) return null;
  const props: Record<string, JsonSchema> = {};
  for (const v of vs)
    for (const [k, p] of Object.entries(v.properties ?? {})) {
      const tag = props[k]?.enum;
      props[k] = p.const !== undefined ? { type: 'string', enum: [...(tag ?? []), p.const] } : (props[k] ?? p);
    }
  const required = (vs[0]!.required ?? []).filter((k) => vs.every((v) => v.required?.includes(k)));
  return { type: 'object', properties: props, required };
}

/** A schema that takes anything (`{}`), or a number or one of a few words (a DC: 12 or "hard"): typed. */
function looseKind(s: JsonSchema): (Kind & { loose: true }) | null {
  const keys = Object.keys(s).filter((k) => k !== 'description' && k !== 'default' && k !== 'title');
  if (keys.length === 0) return { kind: 'text', loose: true };
  const branches = s.anyOf ?? s.oneOf;
  if (!branches || !branches.every((b) => b.type === 'integer' || b.type === 'number' || (b.type === 'string' && b.enum))) return null;
  return { kind: 'text', loose: true, choices: branches.flatMap((b) => (b.enum ?? []).filter(isString)) };
}

function kindOf(s: JsonSchema, hints: Hints = {}, hint?: FieldHint): Kind {
  if (s.enum && s.enum.every(isString)) return { kind: 'select', choices: s.enum.filter(isString) };
  const loose = looseKind(s);
  if (loose) return loose;
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
      const obj = item ? (item.type === 'object' && item.properties ? item : variantsOf(item)) : null;
      const rows = obj ? fieldsOf(obj, {}, hints) : [];
      return rows.length > 0 && rows.every((f) => f.kind !== 'json') ? { kind: 'json', rows } : { kind: 'json' };
    }
    case 'object':
      return isRecord(s.additionalProperties) && !s.properties && !s.propertyNames?.enum
        ? mapRows(s.additionalProperties, hints, hint)
        : { kind: 'json' };
    default:
      return { kind: 'json' };
  }
}

/** What the hint changes: the words, a picker for what the value names, the example. */
function hinted(f: Field, hint: FieldHint | undefined, prop: JsonSchema): Field {
  const example = prop.examples?.find(isString);
  const out: Field = { ...f, ...(example ? { example } : {}) };
  if (!hint) return out;
  if (hint.label) out.label = hint.label;
  if (hint.doc && !out.doc) out.doc = hint.doc;
  if (hint.choices) {
    out.choiceLabels = hint.choices;
    if (out.kind === 'list') Object.assign(out, { kind: 'multiselect', choices: Object.keys(hint.choices), open: true });
  }
  if (hint.madeFrom) out.madeFrom = hint.madeFrom;
  if (hint.kinds) out.actionKinds = hint.kinds;
  if (hint.entries) {
    out.entries = hint.entries;
    // a list of names (a power's alternate effects): the other rows' names ticked, others typed
    if (out.kind === 'list') Object.assign(out, { kind: 'multiselect', choices: [], open: true });
  }
  if (hint.refers) {
    out.refers = hint.refers;
    if (out.kind === 'text') Object.assign(out, { kind: 'select', choices: [] });
    else if (out.kind === 'list') Object.assign(out, { kind: 'multiselect', choices: [] });
  }
  return out;
}

/**
 * An object of fixed fields (an attack bonus by attack kind), or of a value for each of a few
 * named keys (a speed by size): a field per entry, read and written inside it (`attack.close`).
 */
function entryFields(f: Field, prop: JsonSchema, hints: Hints): Field[] | null {
  const ap = prop.additionalProperties;
  const keys = prop.propertyNames?.enum;
  if (prop.type !== 'object') return null;
  let props: Record<string, JsonSchema>;
  if (keys && keys.every(isString) && isRecord(ap)) props = Object.fromEntries(keys.map((k) => [k, ap]));
  else if (prop.properties && !isRecord(ap)) props = prop.properties;
  else return null;
  const named = !!keys;
  const inner = fieldsOf({ type: 'object', properties: props }, {}, hints);
  if (inner.length === 0 || inner.some((x) => x.kind === 'json')) return null;
  const defaults = recordOf(f.default);
  return inner.map((x) => ({
    ...x,
    name: `${f.name}.${x.name}`,
    label: hints[x.name]?.label ?? `${f.label} · ${named ? x.name.replace(/-/g, ' ') : x.label}`,
    required: false,
    parent: f.name,
    key: x.name,
    default: defaults[x.name] ?? x.default,
  }));
}

/** A readable label from a property name: `mobilityInjury` → `Mobility injury`, `DEX` stays. */
export { labelOf };

/** `entries: false`: an object of fixed fields stays one field (a command's form flattens it itself). */
export function fieldsOf(schema: unknown, docs: Record<string, string> = {}, hints: Hints = {}, opts: { entries?: boolean } = {}): Field[] {
  const s = (schema ?? {}) as JsonSchema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).flatMap(([name, raw]) => {
    const { schema: prop, nullable } = unwrapNullable(raw);
    const inner = subHints(hints, name);
    const k = kindOf(prop, inner, hints[name]);
    const ap = prop.additionalProperties;
    const field: Field = hinted(
      {
        ...(typeof ap === 'object' ? { entry: kindOf(unwrapNullable(ap).schema) } : {}),
        name,
        label: prop.title ?? labelOf(name),
        ...k,
        // a field with a default may be left as it is
        required: required.has(name) && raw.default === undefined && prop.default === undefined && !nullable,
        nullable,
        doc: docs[name] ?? prop.description ?? raw.description,
        default: raw.default !== undefined ? raw.default : prop.default,
      },
      hints[name],
      prop,
    );
    return (opts.entries !== false && field.kind === 'json' && !field.rows && entryFields(field, prop, inner)) || [field];
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
    const v = f.parent ? (at(current?.[f.parent], f.key!) ?? f.default) : current && f.name in current ? current[f.name] : f.default;
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

/** `taken`: the ids an id made from a name must not be (`madeFrom`): the encounter's zones, the other rows'. */
export interface ParseOptions {
  taken?: Iterable<string>;
}

/** A typed plain value: `12` → 12, `yes`/`true` → true, `no`/`false` → false, else the words. */
export function looseValue(text: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^(yes|true)$/i.test(text)) return true;
  if (/^(no|false)$/i.test(text)) return false;
  return text;
}

/** Turn form values into the object to validate and send (blank optional fields are left out). */
export function parseValues(fields: Field[], values: FormValues, opts: ParseOptions = {}): ParseResult {
  const { value, errors } = parseFlat(fields, values, opts);
  const inside: Record<string, Record<string, unknown>> = {};
  for (const f of fields) {
    if (!f.parent || !(f.name in value)) continue;
    (inside[f.parent] ??= {})[f.key!] = value[f.name];
    delete value[f.name];
  }
  return { value: { ...value, ...inside }, errors };
}

/** The sibling a field's id is made from: `name` beside `key`, `zone.name` beside `zone.id`. */
function madeFromText(f: Field, values: FormValues): string {
  const dot = f.name.lastIndexOf('.');
  const v = values[`${dot < 0 ? '' : f.name.slice(0, dot + 1)}${f.madeFrom!}`];
  return typeof v === 'string' ? v.trim() : '';
}

/** A map's entries need their key: the message for the first one without. */
function mapProblem(f: Field, v: unknown): string | null {
  if (!f.map || !isRecord(v) || !('' in v)) return null;
  return `need a ${(f.rows?.[0]?.label ?? 'name').toLowerCase()} in every row`;
}

function parseFlat(fields: Field[], values: FormValues, opts: ParseOptions): ParseResult {
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
    if (text === '' && f.madeFrom && madeFromText(f, values)) {
      value[f.name] = madeId(madeFromText(f, values), opts.taken);
      continue;
    }
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
      case 'text':
        value[f.name] = f.loose ? looseValue(text) : text;
        break;
      case 'list':
        value[f.name] = text
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        break;
      case 'json':
        try {
          value[f.name] = JSON.parse(text);
          const problem = mapProblem(f, value[f.name]);
          if (problem) errors[f.name] = problem;
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
