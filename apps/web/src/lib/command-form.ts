/**
 * Forms for any command of a ruleset, built from the JSON Schema `GET /rulesets` gives for it
 * (`commandInfo`): nested objects become their own fields (`zone.id`, `zone.name`), a pair (a
 * tuple) a field per entry, fields that name something of the encounter pickers by name (a
 * combatant, an item, an effect, a roll, a vital, a stat; the ruleset's form hints name the rest).
 */
import type { FieldRefers } from '@fray/engine';
import { isRecord } from './guards.js';
import {
  fieldsOf,
  parseValues,
  subHints,
  unwrapNullable,
  type Field,
  type FormValues,
  type Hints,
  type JsonSchema,
  type ParseOptions,
} from './schema-form.js';

export interface CommandField extends Field {
  /** picks one combatant (`…Id`) or several (`…Ids`) */
  combatant?: 'one' | 'many';
  /** an entry of a pair or tuple (`opposing.0`): the value there is a list */
  tuple?: string;
}

/** Fields that name a combatant, by their names (a ruleset's hint says otherwise). */
const ONE = /^(combatant|target|source|ally|assessor|beneficiary|to|by|join|watch|before|attacker|defender|mover)(Id)?$/;
/** lists of combatants: `…Ids`, the provokers' `from` (action-points `provoke`), a group's `protected` (legends) */
const MANY = /^(combatant|target|minion|ally)Ids$|^(from|protected)$/;
/** The engine's own fields that name something else of the encounter. */
const NAMED: Record<string, FieldRefers> = {
  itemId: 'item',
  weaponId: 'item',
  carryId: 'item',
  effectId: 'effect',
  rollId: 'roll',
  vital: 'vital',
  stat: 'stat',
};

/** A field as a picker: labelled by what it picks ("Combatant", "Item"), not by the id it sends. */
function picker(f: Field, name: string): CommandField {
  // a list's rows name things the same way (a legends' `act` op's item)
  if (f.rows) return { ...f, name, rows: f.rows.map((r) => picker(r, r.name)) };
  if (f.refers) return { ...f, name };
  if (f.kind === 'text' && ONE.test(f.name))
    return { ...f, name, label: f.label.replace(/ id$/i, ''), kind: 'select', combatant: 'one', choices: [], refers: 'combatant' };
  if ((f.kind === 'list' || f.kind === 'json') && MANY.test(f.name))
    return { ...f, name, label: f.label.replace(/ ids$/i, 's'), kind: 'multiselect', combatant: 'many', choices: [], refers: 'combatant' };
  const named = f.kind === 'text' && !f.loose ? NAMED[f.name] : undefined;
  if (named) return { ...f, name, label: f.label.replace(/ id$/i, ''), kind: 'select', choices: [], refers: named };
  return { ...f, name };
}

/** A pair or tuple (`opposing: [skill, skill]`): a field per entry, labelled by the hints (`opposing.0`). */
function tupleFields(f: Field, raw: JsonSchema, hints: Hints, prefix: string, required: boolean): CommandField[] {
  const items: JsonSchema[] = Array.isArray(raw.prefixItems) ? raw.prefixItems : [];
  const props = Object.fromEntries(items.map((s, i) => [String(i), s]));
  const inner = fieldsOf({ type: 'object', properties: props, required: Object.keys(props) }, {}, subHints(hints, f.name));
  return inner.map((x, i) => ({
    ...x,
    name: `${prefix}${f.name}.${i}`,
    label: hints[`${f.name}.${i}`]?.label ?? `${f.label} ${i + 1}`,
    required,
    tuple: `${prefix}${f.name}`,
  }));
}

/**
 * A command's form fields: its own, and one level of nested objects flattened with a dot. `hints`:
 * the ruleset's form hints for this command (`zone.id` → a zone picker), by the fields' paths.
 */
export function commandFields(schema: unknown, hints: Hints = {}, depth = 0, prefix = ''): CommandField[] {
  const s = (schema ?? {}) as JsonSchema;
  const out: CommandField[] = [];
  const required = new Set(s.required ?? []);
  for (const f of fieldsOf(schema, {}, hints, { entries: false })) {
    const raw = unwrapNullable(s.properties?.[f.name] ?? {}).schema;
    if (raw.type === 'array' && Array.isArray(raw.prefixItems)) {
      out.push(...tupleFields(f, raw, hints, prefix, required.has(f.name)));
      continue;
    }
    const obj = raw.type === 'object' && raw.properties && depth < 2 ? raw : null;
    if (!obj) {
      out.push(picker(f, `${prefix}${f.name}`));
      continue;
    }
    for (const sub of commandFields(obj, subHints(hints, f.name), depth + 1, `${prefix}${f.name}.`))
      out.push({
        ...sub,
        required: sub.required && required.has(f.name),
        // `defineZone`'s zone picker is "Zone", not "Zone · Zone"
        label: sub.label === f.label ? f.label : `${f.label} · ${sub.label}`,
      });
  }
  return out;
}

/** Nested objects left empty are left out (an optional part not filled in); a tuple's entries become its list. */
function tidy(v: Record<string, unknown>, path: string, tuples: Set<string>): void {
  for (const [k, x] of Object.entries(v)) {
    if (!isRecord(x)) continue;
    const p = path ? `${path}.${k}` : k;
    tidy(x, p, tuples);
    if (Object.keys(x).length === 0) delete v[k];
    else if (tuples.has(p))
      v[k] = Object.keys(x)
        .sort((a, b) => Number(a) - Number(b))
        .map((i) => x[i]);
  }
}

/** The command's fields from the form's values (dotted names nested again); shape errors by field. */
export function commandValue(
  fields: CommandField[],
  values: FormValues,
  opts: ParseOptions = {},
): { value: Record<string, unknown>; errors: Record<string, string> } {
  const { value: flat, errors } = parseValues(fields, values, opts);
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    const parts = k.split('.');
    let at = value;
    for (const p of parts.slice(0, -1)) {
      const inner = isRecord(at[p]) ? at[p] : {};
      at[p] = inner;
      at = inner;
    }
    at[parts[parts.length - 1]!] = v;
  }
  tidy(value, '', new Set(fields.flatMap((f) => (f.tuple ? [f.tuple] : []))));
  return { value, errors };
}

/**
 * The schema's complaints (`validate`: by top field, a nested one as `n: must be at most 5`) on the
 * form's own fields: `bonus` + `n: …` → `bonus.n`; one about the whole object on its first field.
 */
export function errorsOnFields(fields: CommandField[], errs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, m] of Object.entries(errs)) {
    if (fields.some((f) => f.name === k) || k.includes('[')) {
      out[k] = m;
      continue;
    }
    const inner = /^([\w-]+(?: · [\w-]+)*): (.*)$/.exec(m);
    const deep = inner ? `${k}.${inner[1]!.split(' · ').join('.')}` : null;
    if (deep && fields.some((f) => f.name === deep)) out[deep] = inner![2]!;
    else {
      const first = fields.find((f) => f.name.startsWith(`${k}.`));
      out[first ? first.name : k] = m;
    }
  }
  return out;
}
