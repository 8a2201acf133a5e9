import { useMemo, useState } from 'react';
import { api } from '../lib/api.js';
import { combatantBody, positionFields, positionValues, secretAfter, statFields, type Draft, type Errors } from '../lib/combatant-body.js';
import { displayOf } from '../lib/display.js';
import { contextOf, NEW_ZONE, zonesIn, type FormContext } from '../lib/form-context.js';
import { initialValues, type FormValues } from '../lib/schema-form.js';
import type { Combatant, EncounterState, RulesetInfo } from '../lib/types.js';
import { ErrorMessage } from './common.js';
import { recordOf } from '../lib/guards.js';
import { rowsOf } from '../lib/items.js';
import { ItemsEditor } from './ItemsEditor.js';
import { SchemaFields } from './SchemaFields.js';

const NEW_SIDE = '\u0000new';

/**
 * The side, chosen by the GM (never a silent default): the encounter's sides by name, or a new
 * side named here; with no side yet, its name.
 */
function SidePicker({
  prefix,
  side,
  onSide,
  error,
  sides,
}: {
  prefix: string;
  side: string;
  onSide: (s: string) => void;
  error: string | undefined;
  sides: string[];
}) {
  const [naming, setNaming] = useState(sides.length === 0 || (side !== '' && !sides.includes(side)));
  const invalid = error ? true : undefined;
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      {sides.length > 0 ? (
        <>
          <label htmlFor={`${prefix}-side`}>Side *</label>
          <select
            id={`${prefix}-side`}
            value={naming ? NEW_SIDE : side}
            aria-invalid={invalid}
            onChange={(e) => {
              const v = e.target.value;
              setNaming(v === NEW_SIDE);
              onSide(v === NEW_SIDE ? '' : v);
            }}
          >
            <option value="">— choose a side —</option>
            {sides.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
            <option value={NEW_SIDE}>A new side…</option>
          </select>
        </>
      ) : null}
      {naming ? (
        <>
          <label htmlFor={`${prefix}-side-new`}>{sides.length > 0 ? "New side's name *" : 'Side *'}</label>
          <input
            id={`${prefix}-side-new`}
            value={side}
            onChange={(e) => onSide(e.target.value)}
            maxLength={64}
            placeholder="e.g. heroes, the goblins"
            aria-invalid={invalid}
          />
        </>
      ) : null}
      {error ? (
        <small className="field-error" role="alert">
          ✕ Side {error === 'is required' ? 'is required: choose one' : error}
        </small>
      ) : null}
    </div>
  );
}

function IdentityFields({
  prefix,
  d,
  set,
  errors,
  sides,
}: {
  prefix: string;
  d: Draft;
  set: (p: Partial<Draft>) => void;
  errors: Errors;
  sides: string[];
}) {
  return (
    <div className="grid3">
      <div className={`field${errors.__name ? ' invalid' : ''}`}>
        <label htmlFor={`${prefix}-name`}>Name *</label>
        <input
          id={`${prefix}-name`}
          value={d.name}
          onChange={(e) => set({ name: e.target.value })}
          maxLength={120}
          aria-invalid={errors.__name ? true : undefined}
        />
        {errors.__name ? (
          <small className="field-error" role="alert">
            ✕ Name {errors.__name}
          </small>
        ) : null}
      </div>
      <SidePicker prefix={prefix} side={d.side} onSide={(side) => set({ side })} error={errors.__side} sides={sides} />
      <div className="field field-boolean">
        <label htmlFor={`${prefix}-hidden`}>Hidden (GM only until revealed)</label>
        <input id={`${prefix}-hidden`} type="checkbox" checked={d.hidden} onChange={(e) => set({ hidden: e.target.checked })} />
      </div>
    </div>
  );
}

interface FormProps {
  ruleset: RulesetInfo;
  options: unknown;
  encounterId: string;
  token: string;
  existing?: Combatant;
  sides: string[];
  onDone: () => void;
  /** the encounter (its combatants and zones, for the pickers) */
  state?: EncounterState;
  /** sends a command (a new zone named in the form is made before the combatant is added) */
  send?: (cmd: Record<string, unknown>, text: string) => Promise<unknown>;
}

/** Made before the combatant: the ruleset's command for a new zone, with its id and name; a refusal as it came. */
async function makeZone(ruleset: RulesetInfo, send: FormProps['send'], zone: { id: string; name: string }): Promise<unknown> {
  const how = displayOf([ruleset], ruleset.id).forms?.newZone;
  if (!how || !send) return { message: 'This ruleset has no way to add a zone by its name.' };
  const r = recordOf(await send({ type: how.command, [how.field]: zone }, `Zone ${zone.name} added.`));
  return r.ok === true ? null : (r.error ?? { message: 'The new zone was not made.' });
}

/** The form's state and what sending it does: validated first (the schema's messages by field), then POST or PATCH. */
function useCombatantForm({ ruleset, options, encounterId, token, existing, onDone, state, send }: FormProps) {
  const fields = useMemo(() => statFields(ruleset, options), [ruleset, options]);
  const posFields = useMemo(() => positionFields(ruleset), [ruleset]);
  const newZone = !!send && !!displayOf([ruleset], ruleset.id).forms?.newZone;
  const context: FormContext = contextOf(ruleset, state, { newZone, ...(existing ? { self: existing.id } : {}) });
  const [d, setD] = useState<Draft>(() => ({
    name: existing?.name ?? '',
    side: existing?.side ?? '',
    hidden: existing?.hidden ?? false,
    secret: existing?.secretStats ?? [],
    items: rowsOf(existing),
    position: positionValues(posFields, existing),
    newZone: '',
  }));
  const set = (p: Partial<Draft>) => setD((x) => ({ ...x, ...p }));
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, existing?.stats));
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setError(null);
    const zoneIds = zonesIn(ruleset, state).map((z) => z.id);
    const { body, errs, zone } = combatantBody(ruleset, fields, posFields, values, d, zoneIds);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    // an edit sends the items only when they changed
    if (existing && JSON.stringify(body.items) === JSON.stringify(existing.items)) delete body.items;
    setBusy(true);
    try {
      const refused = zone ? await makeZone(ruleset, send, zone) : null;
      if (refused) {
        setError(refused);
        return;
      }
      // made: a second try (after a refusal of the combatant) picks it instead of making another
      if (zone) set({ position: Object.fromEntries(Object.entries(d.position).map(([k, v]) => [k, v === NEW_ZONE ? zone.id : v])) });
      const path = `/encounters/${encodeURIComponent(encounterId)}/combatants`;
      if (existing) await api('PATCH', `${path}/${encodeURIComponent(existing.id)}`, body, { token });
      else await api('POST', path, body, { token });
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { fields, posFields, context, d, set, values, setValues, errors, error, busy, submit };
}

/**
 * Add or edit a combatant: name, side, hidden, and the ruleset's stats as a form generated from
 * its JSON Schema, each stat markable as secret; its items as a list; its position by coordinate
 * (or in words). Validated with the schemas before sending.
 */
export function CombatantForm(props: FormProps) {
  const { ruleset, existing, sides, onDone } = props;
  const { fields, posFields, context, d, set, values, setValues, errors, error, busy, submit } = useCombatantForm(props);
  const prefix = existing ? `edit-${existing.id}` : 'add';
  // a row's own errors (`powers[1].damage`) are on the row; the list's message says which row
  const statErrors = Object.entries(errors).filter(([k]) => !k.startsWith('__') && !k.startsWith('position') && !k.includes('['));
  return (
    <form
      className="combatant-form"
      onSubmit={(e) => (e.preventDefault(), void submit())}
      noValidate
      aria-label={existing ? `Edit ${existing.name}` : 'Add a combatant'}
    >
      <IdentityFields prefix={prefix} d={d} set={set} errors={errors} sides={sides} />
      <fieldset>
        <legend>Stats ({ruleset.name})</legend>
        <SchemaFields
          idPrefix={`${prefix}-stat`}
          fields={fields}
          values={values}
          errors={errors}
          onChange={(n, v) => setValues({ ...values, [n]: v })}
          secret={d.secret}
          onSecret={(n, s) => set({ secret: secretAfter(fields, d.secret, n, s) })}
          context={context}
        />
      </fieldset>
      <ItemsEditor prefix={prefix} rows={d.items} onChange={(items) => set({ items })} ruleset={ruleset} error={errors.__items} />
      <fieldset>
        <legend>Position (optional{posFields.length > 1 ? '; or place it on the map' : ''})</legend>
        <SchemaFields
          idPrefix={`${prefix}-pos`}
          fields={posFields}
          values={d.position}
          errors={errors}
          onChange={(n, v) => set({ position: { ...d.position, [n]: v } })}
          context={context}
        />
        {Object.values(d.position).includes(NEW_ZONE) ? (
          <div className="field">
            <label htmlFor={`${prefix}-new-zone`}>New zone's name *</label>
            <input id={`${prefix}-new-zone`} value={d.newZone} maxLength={120} onChange={(e) => set({ newZone: e.target.value })} />
            <small className="doc">Made when the combatant is added, with no neighbours (define them later with the GM's commands).</small>
          </div>
        ) : null}
      </fieldset>
      {statErrors.length > 0 ? (
        <p className="field-error" role="alert" data-testid="stats-errors">
          ✕ Not sent — fix the stats:{' '}
          {statErrors.map(([k, m]) => `${fields.find((f) => f.name === k)?.label ?? (k || 'stats')} ${m}`).join('; ')}
        </p>
      ) : null}
      <ErrorMessage error={error} />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : existing ? 'Save changes' : 'Add combatant'}
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
