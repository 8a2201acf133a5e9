/**
 * The add / edit combatant form's fields and the body it sends (POST or PATCH
 * /encounters/:id/combatants): the stats from the ruleset's schema, the position from its position
 * schema (a field per coordinate, or words), the items from the list editor.
 */
import { itemsOf, type ItemRow } from './items.js';
import { commandFields, commandValue, type CommandField } from './command-form.js';
import { displayOf, vitalSpecs } from './display.js';
import { hintsUnder, NEW_ZONE } from './form-context.js';
import { madeId } from './ids.js';
import { at, isRecord } from './guards.js';
import {
  fieldsOf,
  initialValues,
  madeFields,
  parseValues,
  validate,
  withEntryFields,
  type Field,
  type FormValues,
  type JsonSchema,
} from './schema-form.js';
import type { Combatant, RulesetInfo } from './types.js';
import { rowErrors } from './schema-validate.js';

export type Errors = Record<string, string>;

/**
 * The stat fields: the ruleset's stats schema, with a stat that holds the maxima of the vitals the
 * encounter names (`vitals.{name}`) as one number field per named vital.
 */
export function statFields(ruleset: RulesetInfo, options: unknown): Field[] {
  const display = displayOf([ruleset], ruleset.id);
  // labelled in the ruleset's words ("Max HP")
  const fields = fieldsOf(ruleset.stats.schema, ruleset.stats.docs, hintsUnder(display, 'stats')).map((f) => ({
    ...f,
    label: display.statLabels[f.name] ?? f.label,
  }));
  const max = display.namedVitals?.spec.max;
  if (!max || typeof max === 'number' || max.in !== 'stats' || !max.key.includes('.')) return fields;
  const parent = max.key.slice(0, max.key.indexOf('.'));
  const entries = vitalSpecs(display, options).flatMap((v) =>
    typeof v.max === 'object' && v.max.in === 'stats' && v.max.key.startsWith(`${parent}.`)
      ? [
          {
            key: v.max.key.slice(parent.length + 1),
            label: `Max ${v.label}`,
            doc: v.onlyWithMax ? `Blank: this combatant has no ${v.label}.` : undefined,
          },
        ]
      : [],
  );
  return withEntryFields(fields, new Map([[parent, entries]]));
}

/** The secret stats after a toggle: an entry's secrecy is its stat's (`vitals.Mana` → `vitals`). */
export function secretAfter(fields: Field[], secret: string[], name: string, on: boolean): string[] {
  const stat = fields.find((f) => f.name === name)?.parent ?? name;
  return on ? [...secret, stat] : secret.filter((x) => x !== stat);
}

/** The position's schema without its `null` branch (a combatant off the map has none). */
export function positionSchema(ruleset: RulesetInfo): JsonSchema {
  const s: unknown = ruleset.position?.schema;
  const branches = isRecord(s) && Array.isArray(s.anyOf) ? s.anyOf.filter((b) => isRecord(b) && b.type !== 'null') : [];
  return branches.length === 1 && isRecord(branches[0]) ? branches[0] : isRecord(s) ? s : {};
}

/** The position as fields: one per coordinate or part (`position.x`, `position.zone`), or one for words (`position`). */
export function positionFields(ruleset: RulesetInfo): CommandField[] {
  const hints = hintsUnder(displayOf([ruleset], ruleset.id), '');
  return commandFields({ type: 'object', properties: { position: positionSchema(ruleset) } }, hints).map((f) => ({
    ...f,
    required: false,
    label: f.label.replace(/^Position · /, ''),
  }));
}

export function positionValues(fields: CommandField[], existing: Combatant | undefined): FormValues {
  const flat = Object.fromEntries(fields.map((f) => [f.name, at({ position: existing?.position }, f.name)]));
  return initialValues(fields, flat);
}

/** The position to send (none when every field is blank), or its errors by field. */
function positionOf(ruleset: RulesetInfo, fields: CommandField[], values: FormValues): { position?: unknown; errs: Errors } {
  if (fields.every((f) => String(values[f.name] ?? '').trim() === '')) return { errs: {} };
  const { value, errors } = commandValue(fields, values);
  const errs: Errors = { ...errors };
  for (const [k, m] of Object.entries(validate(ruleset.position?.schema, value.position)))
    errs[k ? `position.${k}` : (fields[0]?.name ?? 'position')] = m;
  return { position: value.position, errs };
}

export interface Draft {
  name: string;
  side: string;
  hidden: boolean;
  secret: string[];
  items: ItemRow[];
  position: FormValues;
  /** the name of the new zone the position's zone picker asks for ("+ A new zone…") */
  newZone: string;
}

/** The position with the new zone's id (made from its name) in place of the picker's "+ A new zone…", and that zone. */
function withNewZone(
  posFields: CommandField[],
  d: Draft,
  zoneIds: string[],
): { position: FormValues; zone?: { id: string; name: string }; errs: Errors } {
  const field = posFields.find((f) => f.refers === 'zone' && d.position[f.name] === NEW_ZONE);
  if (!field) return { position: d.position, errs: {} };
  const name = d.newZone.trim();
  if (!name) return { position: d.position, errs: { [field.name]: "needs the new zone's name" } };
  const zone = { id: madeId(name, zoneIds, 'zone'), name };
  return { position: { ...d.position, [field.name]: zone.id }, zone, errs: {} };
}

/**
 * The body to send, or the errors by field (`__name`, `__side`, `__items`, `position…`, and the
 * stats'); `zone`: a new zone to make first (named in the form), its id not among `zoneIds`.
 */
export function combatantBody(
  ruleset: RulesetInfo,
  fields: Field[],
  posFields: CommandField[],
  values: FormValues,
  d: Draft,
  zoneIds: string[] = [],
): { body: Record<string, unknown>; errs: Errors; zone?: { id: string; name: string } } {
  const parsed = parseValues(fields, values);
  const errs: Errors = {
    ...validate(ruleset.stats.schema, parsed.value, new Set(fields.map((f) => f.name)), madeFields(fields)),
    // and on the row's own input (`powers[1].damage`)
    ...rowErrors(ruleset.stats.schema, parsed.value),
    ...parsed.errors,
  };
  if (!d.name.trim()) errs.__name = 'is required';
  if (!d.side.trim()) errs.__side = 'is required';
  const items = itemsOf(d.items);
  if (items.error) errs.__items = items.error;
  const nz = withNewZone(posFields, d, zoneIds);
  const pos = positionOf(ruleset, posFields, nz.position);
  Object.assign(errs, pos.errs, nz.errs);
  const body: Record<string, unknown> = {
    name: d.name.trim(),
    side: d.side.trim(),
    hidden: d.hidden,
    secretStats: d.secret,
    stats: parsed.value,
    items: items.items,
  };
  if (pos.position !== undefined) body.position = pos.position;
  return { body, errs, ...(nz.zone ? { zone: nz.zone } : {}) };
}
