/**
 * Forms for any command of a ruleset, built from the JSON Schema `GET /rulesets` gives for it
 * (`commandInfo`): nested objects become their own fields (`zone.id`, `zone.name`), fields that
 * name a combatant (`combatantId`, `targetIds`) become pickers. Only values no form can express
 * well (lists of objects, unions) stay JSON.
 */
import { isRecord } from './guards.js';
import {
  fieldsOf,
  parseValues,
  subHints,
  type Field,
  type FormValues,
  type Hints,
  type JsonSchema,
  type ParseOptions,
} from './schema-form.js';

export interface CommandField extends Field {
  /** picks one combatant (`…Id`) or several (`…Ids`) */
  combatant?: 'one' | 'many';
}

const ONE = /(^|[a-z])Id$|^(combatant|target|join|watch|by)$/;
/** lists of combatants: `…Ids`, the provokers' `from` (action-points `provoke`), a group's `protected` (legends) */
const MANY = /Ids$|^(from|protected)$/;

/**
 * A command's form fields: its own, and one level of nested objects flattened with a dot. `hints`:
 * the ruleset's form hints for this command (`zone.id` → a zone picker), by the fields' paths.
 */
export function commandFields(schema: unknown, hints: Hints = {}, depth = 0, prefix = ''): CommandField[] {
  const s = (schema ?? {}) as JsonSchema;
  const out: CommandField[] = [];
  const required = new Set(s.required ?? []);
  for (const f of fieldsOf(schema, {}, hints, { entries: false })) {
    const raw = s.properties?.[f.name] ?? {};
    const obj = raw.type === 'object' && raw.properties && depth < 2 ? raw : null;
    if (obj) {
      for (const sub of commandFields(obj, subHints(hints, f.name), depth + 1, `${prefix}${f.name}.`))
        out.push({
          ...sub,
          required: sub.required && required.has(f.name),
          // `defineZone`'s zone picker is "Zone", not "Zone · Zone"
          label: sub.label === f.label ? f.label : `${f.label} · ${sub.label}`,
        });
      continue;
    }
    const name = `${prefix}${f.name}`;
    // a picker is labelled by whom it picks ("Combatant", "Targets"), not by the id it sends
    if (f.kind === 'text' && ONE.test(f.name))
      out.push({ ...f, name, label: f.label.replace(/ id$/i, ''), kind: 'select', combatant: 'one', choices: [] });
    else if ((f.kind === 'list' || f.kind === 'json') && MANY.test(f.name))
      out.push({ ...f, name, label: f.label.replace(/ ids$/i, 's'), kind: 'multiselect', combatant: 'many', choices: [] });
    else out.push({ ...f, name });
  }
  return out;
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
  return { value, errors };
}
