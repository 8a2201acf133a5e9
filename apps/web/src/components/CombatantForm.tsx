import { useMemo, useState } from 'react';
import { api } from '../lib/api.js';
import { displayOf, vitalSpecs } from '../lib/display.js';
import { fieldsOf, initialValues, parseValues, validate, withEntryFields, type Field, type FormValues } from '../lib/schema-form.js';
import type { Combatant, RulesetInfo } from '../lib/types.js';
import { ErrorMessage } from './common.js';
import { SchemaFields } from './SchemaFields.js';

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

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.trim();
  }
}

/** The secret stats after a toggle: an entry's secrecy is its stat's (`vitals.Mana` → `vitals`). */
function secretAfter(fields: Field[], secret: string[], name: string, on: boolean): string[] {
  const stat = fields.find((f) => f.name === name)?.parent ?? name;
  return on ? [...secret, stat] : secret.filter((x) => x !== stat);
}

/**
 * Add or edit a combatant: name, side, hidden, and the ruleset's stats as a form generated from
 * its JSON Schema, each stat markable as secret. Validated with the schema before sending.
 */
export function CombatantForm({ ruleset, options, encounterId, token, existing, sides, onDone }: { ruleset: RulesetInfo; options: unknown; encounterId: string; token: string; existing?: Combatant; sides: string[]; onDone: () => void }) {
  const fields = useMemo(() => statFields(ruleset, options), [ruleset, options]);
  const prefix = existing ? `edit-${existing.id}` : 'add';
  const [name, setName] = useState(existing?.name ?? '');
  const [side, setSide] = useState(existing?.side ?? sides[0] ?? 'heroes');
  const [hidden, setHidden] = useState(existing?.hidden ?? false);
  const [secret, setSecret] = useState<string[]>(existing?.secretStats ?? []);
  const [items, setItems] = useState(existing && existing.items.length > 0 ? JSON.stringify(existing.items) : '');
  // a position in words (a zone, a range band) is typed as it is said; other positions as JSON
  const wordsPosition = fieldsOf({ properties: { p: ruleset.position?.schema } })[0]?.kind === 'text';
  const [position, setPosition] = useState(existing?.position == null ? '' : typeof existing.position === 'string' && wordsPosition ? existing.position : JSON.stringify(existing.position));
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, existing?.stats as Record<string, unknown> | undefined));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setError(null);
    const parsed = parseValues(fields, values);
    const errs: Record<string, string> = { ...validate(ruleset.stats.schema, parsed.value, new Set(fields.map((f) => f.name))), ...parsed.errors };
    if (!name.trim()) errs.__name = 'is required';
    if (!side.trim()) errs.__side = 'is required';
    let itemList: unknown[] | undefined;
    if (items.trim()) {
      try {
        const v = JSON.parse(items) as unknown;
        if (!Array.isArray(v) || !v.every((i) => i && typeof i === 'object' && typeof (i as { id?: unknown }).id === 'string' && typeof (i as { name?: unknown }).name === 'string' && typeof (i as { location?: unknown }).location === 'string')) throw new Error('shape');
        itemList = v;
      } catch {
        errs.__items = 'must be a JSON list of items, each with id, name and location';
      }
    }
    let pos: unknown;
    if (position.trim()) {
      pos = wordsPosition ? position.trim() : parsedOrText(position);
      const perr = validate(ruleset.position?.schema, pos);
      if (Object.keys(perr).length > 0) errs.__position = Object.entries(perr).map(([k, m]) => `${k} ${m}`.trim()).join('; ');
    }
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    const body: Record<string, unknown> = { name: name.trim(), side: side.trim(), hidden, secretStats: secret, stats: parsed.value };
    if (itemList) body.items = itemList;
    if (pos !== undefined) body.position = pos;
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
      <div className="grid3">
        <div className={`field${errors.__name ? ' invalid' : ''}`}>
          <label htmlFor={`${prefix}-name`}>Name *</label>
          <input id={`${prefix}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} aria-invalid={errors.__name ? true : undefined} />
          {errors.__name ? <small className="field-error" role="alert">✕ Name {errors.__name}</small> : null}
        </div>
        <div className={`field${errors.__side ? ' invalid' : ''}`}>
          <label htmlFor={`${prefix}-side`}>Side *</label>
          <input id={`${prefix}-side`} value={side} onChange={(e) => setSide(e.target.value)} list={`${prefix}-sides`} maxLength={64} aria-invalid={errors.__side ? true : undefined} />
          <datalist id={`${prefix}-sides`}>
            {[...new Set([...sides, 'heroes', 'foes'])].map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          {errors.__side ? <small className="field-error" role="alert">✕ Side {errors.__side}</small> : null}
        </div>
        <div className="field field-boolean">
          <label htmlFor={`${prefix}-hidden`}>Hidden (GM only until revealed)</label>
          <input id={`${prefix}-hidden`} type="checkbox" checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
        </div>
      </div>
      <fieldset>
        <legend>Stats ({ruleset.name})</legend>
        <SchemaFields
          idPrefix={`${prefix}-stat`}
          fields={fields}
          values={values}
          errors={errors}
          onChange={(n, v) => setValues({ ...values, [n]: v })}
          secret={secret}
          onSecret={(n, s) => setSecret(secretAfter(fields, secret, n, s))}
        />
      </fieldset>
      <div className="grid2">
        <div className={`field${errors.__items ? ' invalid' : ''}`}>
          <label htmlFor={`${prefix}-items`}>Items (JSON, optional)</label>
          <textarea id={`${prefix}-items`} rows={2} value={items} onChange={(e) => setItems(e.target.value)} aria-describedby={`${prefix}-items-doc`} aria-invalid={errors.__items ? true : undefined} />
          <small id={`${prefix}-items-doc`} className="doc">
            e.g. [{'{'}"id":"bow","name":"Short bow","location":"both-hands","props":{'{'}"weapon":"ranged","type":"bow"{'}}'}]; location: left-hand, right-hand, both-hands, carried, ground.
          </small>
          {errors.__items ? <small className="field-error" role="alert">✕ Items {errors.__items}</small> : null}
        </div>
        <div className={`field${errors.__position ? ' invalid' : ''}`}>
          <label htmlFor={`${prefix}-position`}>Position ({wordsPosition ? 'optional' : 'JSON, optional'})</label>
          <input id={`${prefix}-position`} value={position} onChange={(e) => setPosition(e.target.value)} aria-invalid={errors.__position ? true : undefined} aria-describedby={`${prefix}-position-doc`} placeholder={wordsPosition ? 'e.g. by the door' : undefined} />
          <small id={`${prefix}-position-doc`} className="doc">
            {wordsPosition ? 'Where it stands, in words (a zone, a range band).' : 'Where it stands in the ruleset’s spatial model (zone, hex, square…).'}
          </small>
          {errors.__position ? <small className="field-error" role="alert">✕ Position {errors.__position}</small> : null}
        </div>
      </div>
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
