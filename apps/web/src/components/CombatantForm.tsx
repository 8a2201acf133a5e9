import { useMemo, useState } from 'react';
import { api } from '../lib/api.js';
import { isRecord, isString } from '../lib/guards.js';
import { displayOf, vitalSpecs } from '../lib/display.js';
import { fieldsOf, initialValues, parseValues, validate, withEntryFields, type Field, type FormValues } from '../lib/schema-form.js';
import type { Combatant, RulesetInfo } from '../lib/types.js';
import { ErrorMessage } from './common.js';
import { SchemaFields } from './SchemaFields.js';

type Errors = Record<string, string>;

/**
 * The stat fields: the ruleset's stats schema, with a stat that holds the maxima of the vitals the
 * encounter names (`vitals.{name}`) as one number field per named vital.
 */
function statFields(ruleset: RulesetInfo, options: unknown): Field[] {
  const display = displayOf([ruleset], ruleset.id);
  // labelled in the ruleset's words ("Max HP")
  const fields = fieldsOf(ruleset.stats.schema, ruleset.stats.docs).map((f) => ({ ...f, label: display.statLabels[f.name] ?? f.label }));
  const max = display.namedVitals?.spec.max;
  if (!max || typeof max === 'number' || max.in !== 'stats' || !max.key.includes('.')) return fields;
  const parent = max.key.slice(0, max.key.indexOf('.'));
  const entries = vitalSpecs(display, options).flatMap((v) =>
    typeof v.max === 'object' && v.max.in === 'stats' && v.max.key.startsWith(`${parent}.`) ? [{ key: v.max.key.slice(parent.length + 1), label: `Max ${v.label}`, doc: v.onlyWithMax ? `Blank: this combatant has no ${v.label}.` : undefined }] : [],
  );
  return withEntryFields(fields, new Map([[parent, entries]]));
}

/** The secret stats after a toggle: an entry's secrecy is its stat's (`vitals.Mana` → `vitals`). */
function secretAfter(fields: Field[], secret: string[], name: string, on: boolean): string[] {
  const stat = fields.find((f) => f.name === name)?.parent ?? name;
  return on ? [...secret, stat] : secret.filter((x) => x !== stat);
}

const isItem = (i: unknown): boolean => isRecord(i) && isString(i.id) && isString(i.name) && isString(i.location);

/** The items field: a JSON list of items (each with id, name and location), or an error. */
function parseItems(text: string): { items?: unknown[]; error?: string } {
  if (!text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v) && v.every(isItem)) return { items: v };
  } catch {
    // not JSON: the same message
  }
  return { error: 'must be a JSON list of items, each with id, name and location' };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim();
  }
}

/** Whether the ruleset's position is words (a zone, a range band), typed as it is said; other positions are JSON. */
const positionInWords = (ruleset: RulesetInfo): boolean => fieldsOf({ properties: { p: ruleset.position?.schema } })[0]?.kind === 'text';

/** The position field: words, or JSON (else the text itself), checked with the ruleset's position schema. */
function parsePosition(text: string, schema: unknown, words: boolean): { position?: unknown; error?: string } {
  if (!text.trim()) return {};
  const pos = words ? text.trim() : parsedOrText(text);
  const perr = validate(schema, pos);
  return Object.keys(perr).length > 0 ? { position: pos, error: Object.entries(perr).map(([k, m]) => `${k} ${m}`.trim()).join('; ') } : { position: pos };
}

interface Draft {
  name: string;
  side: string;
  hidden: boolean;
  secret: string[];
  items: string;
  position: string;
}

function IdentityFields({ prefix, d, set, errors, sides }: { prefix: string; d: Draft; set: (p: Partial<Draft>) => void; errors: Errors; sides: string[] }) {
  return (
    <div className="grid3">
      <div className={`field${errors.__name ? ' invalid' : ''}`}>
        <label htmlFor={`${prefix}-name`}>Name *</label>
        <input id={`${prefix}-name`} value={d.name} onChange={(e) => set({ name: e.target.value })} maxLength={120} aria-invalid={errors.__name ? true : undefined} />
        {errors.__name ? <small className="field-error" role="alert">✕ Name {errors.__name}</small> : null}
      </div>
      <div className={`field${errors.__side ? ' invalid' : ''}`}>
        <label htmlFor={`${prefix}-side`}>Side *</label>
        <input id={`${prefix}-side`} value={d.side} onChange={(e) => set({ side: e.target.value })} list={`${prefix}-sides`} maxLength={64} aria-invalid={errors.__side ? true : undefined} />
        <datalist id={`${prefix}-sides`}>
          {[...new Set([...sides, 'heroes', 'foes'])].map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        {errors.__side ? <small className="field-error" role="alert">✕ Side {errors.__side}</small> : null}
      </div>
      <div className="field field-boolean">
        <label htmlFor={`${prefix}-hidden`}>Hidden (GM only until revealed)</label>
        <input id={`${prefix}-hidden`} type="checkbox" checked={d.hidden} onChange={(e) => set({ hidden: e.target.checked })} />
      </div>
    </div>
  );
}

function ItemsAndPosition({ prefix, d, set, errors, words }: { prefix: string; d: Draft; set: (p: Partial<Draft>) => void; errors: Errors; words: boolean }) {
  return (
    <div className="grid2">
      <div className={`field${errors.__items ? ' invalid' : ''}`}>
        <label htmlFor={`${prefix}-items`}>Items (JSON, optional)</label>
        <textarea id={`${prefix}-items`} rows={2} value={d.items} onChange={(e) => set({ items: e.target.value })} aria-describedby={`${prefix}-items-doc`} aria-invalid={errors.__items ? true : undefined} />
        <small id={`${prefix}-items-doc`} className="doc">
          e.g. [{'{'}"id":"bow","name":"Short bow","location":"both-hands","props":{'{'}"weapon":"ranged","type":"bow"{'}}'}]; location: left-hand, right-hand, both-hands, carried, ground.
        </small>
        {errors.__items ? <small className="field-error" role="alert">✕ Items {errors.__items}</small> : null}
      </div>
      <div className={`field${errors.__position ? ' invalid' : ''}`}>
        <label htmlFor={`${prefix}-position`}>Position ({words ? 'optional' : 'JSON, optional'})</label>
        <input id={`${prefix}-position`} value={d.position} onChange={(e) => set({ position: e.target.value })} aria-invalid={errors.__position ? true : undefined} aria-describedby={`${prefix}-position-doc`} placeholder={words ? 'e.g. by the door' : undefined} />
        <small id={`${prefix}-position-doc`} className="doc">
          {words ? 'Where it stands, in words (a zone, a range band).' : 'Where it stands in the ruleset’s spatial model (zone, hex, square…).'}
        </small>
        {errors.__position ? <small className="field-error" role="alert">✕ Position {errors.__position}</small> : null}
      </div>
    </div>
  );
}

/** The body to send, or the errors by field (`__name`, `__side`, `__items`, `__position`, and the stats'). */
function combatantBody(ruleset: RulesetInfo, fields: Field[], values: FormValues, d: Draft): { body: Record<string, unknown>; errs: Errors } {
  const parsed = parseValues(fields, values);
  const errs: Errors = { ...validate(ruleset.stats.schema, parsed.value, new Set(fields.map((f) => f.name))), ...parsed.errors };
  if (!d.name.trim()) errs.__name = 'is required';
  if (!d.side.trim()) errs.__side = 'is required';
  const items = parseItems(d.items);
  if (items.error) errs.__items = items.error;
  const pos = parsePosition(d.position, ruleset.position?.schema, positionInWords(ruleset));
  if (pos.error) errs.__position = pos.error;
  const body: Record<string, unknown> = { name: d.name.trim(), side: d.side.trim(), hidden: d.hidden, secretStats: d.secret, stats: parsed.value };
  if (items.items) body.items = items.items;
  if (pos.position !== undefined) body.position = pos.position;
  return { body, errs };
}

/**
 * Add or edit a combatant: name, side, hidden, and the ruleset's stats as a form generated from
 * its JSON Schema, each stat markable as secret. Validated with the schema before sending.
 */
export function CombatantForm({ ruleset, options, encounterId, token, existing, sides, onDone }: { ruleset: RulesetInfo; options: unknown; encounterId: string; token: string; existing?: Combatant; sides: string[]; onDone: () => void }) {
  const fields = useMemo(() => statFields(ruleset, options), [ruleset, options]);
  const prefix = existing ? `edit-${existing.id}` : 'add';
  const words = positionInWords(ruleset);
  const [d, setD] = useState<Draft>(() => ({
    name: existing?.name ?? '',
    side: existing?.side ?? sides[0] ?? 'heroes',
    hidden: existing?.hidden ?? false,
    secret: existing?.secretStats ?? [],
    items: existing && existing.items.length > 0 ? JSON.stringify(existing.items) : '',
    position: existing?.position == null ? '' : typeof existing.position === 'string' && words ? existing.position : JSON.stringify(existing.position),
  }));
  const set = (p: Partial<Draft>) => setD((x) => ({ ...x, ...p }));
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, existing?.stats));
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setError(null);
    const { body, errs } = combatantBody(ruleset, fields, values, d);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    try {
      if (existing) await api('PATCH', `/encounters/${encodeURIComponent(encounterId)}/combatants/${encodeURIComponent(existing.id)}`, body, { token });
      else await api('POST', `/encounters/${encodeURIComponent(encounterId)}/combatants`, body, { token });
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const statErrors = Object.entries(errors).filter(([k]) => !k.startsWith('__'));
  return (
    <form className="combatant-form" onSubmit={(e) => (e.preventDefault(), void submit())} noValidate aria-label={existing ? `Edit ${existing.name}` : 'Add a combatant'}>
      <IdentityFields prefix={prefix} d={d} set={set} errors={errors} sides={sides} />
      <fieldset>
        <legend>Stats ({ruleset.name})</legend>
        <SchemaFields idPrefix={`${prefix}-stat`} fields={fields} values={values} errors={errors} onChange={(n, v) => setValues({ ...values, [n]: v })} secret={d.secret} onSecret={(n, s) => set({ secret: secretAfter(fields, d.secret, n, s) })} />
      </fieldset>
      <ItemsAndPosition prefix={prefix} d={d} set={set} errors={errors} words={words} />
      {statErrors.length > 0 ? (
        <p className="field-error" role="alert" data-testid="stats-errors">
          ✕ Not sent — fix the stats: {statErrors.map(([k, m]) => `${k || 'stats'} ${m}`).join('; ')}
        </p>
      ) : null}
      <ErrorMessage error={error} />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {existing ? 'Save changes' : 'Add combatant'}
        </button>
        {existing ? (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
