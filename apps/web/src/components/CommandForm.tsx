import { useMemo, useState } from 'react';
import { commandFields, commandValue, type CommandField } from '../lib/command-form.js';
import { displayOf } from '../lib/display.js';
import { contextOf, hintsUnder, zonesIn } from '../lib/form-context.js';
import { initialValues, labelOf, validate, type FormValues } from '../lib/schema-form.js';
import type { EncounterState, RulesetInfo } from '../lib/types.js';
import { SchemaFields } from './SchemaFields.js';

/** What a command type is for, in a few words, from its name: "defineZone" → "Define zone". */
function titleOf(type: string): string {
  return labelOf(type.replace(/[.-]/g, ' '));
}

function CombatantPicker({
  f,
  id,
  value,
  onChange,
  state,
}: {
  f: CommandField;
  id: string;
  value: FormValues[string];
  onChange: (v: string | string[]) => void;
  state: EncounterState;
}) {
  const people = Object.values(state.combatants);
  if (f.combatant === 'many') {
    const list = Array.isArray(value) ? value : [];
    return (
      <fieldset className="checks">
        <legend>
          {f.label}
          {f.required ? ' *' : ''}
        </legend>
        {people.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              checked={list.includes(c.id)}
              onChange={(e) => onChange(e.target.checked ? [...list, c.id] : list.filter((x) => x !== c.id))}
            />{' '}
            {c.name}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {f.label}
        {f.required ? ' *' : ''}
      </label>
      <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">{f.required ? '— choose —' : '(none)'}</option>
        {people.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.side})
          </option>
        ))}
      </select>
    </div>
  );
}

/** The command's value, or the errors by field (nested fields report under their parent: shown on its first sub-field). */
function checked(
  fields: CommandField[],
  values: FormValues,
  schema: unknown,
  taken: string[],
): { value: Record<string, unknown>; errs: Record<string, string> } {
  const { value, errors: shape } = commandValue(fields, values, { taken });
  const errs = { ...shape, ...validate(schema, value) };
  for (const k of Object.keys(errs)) {
    if (fields.some((f) => f.name === k)) continue;
    const sub = fields.find((f) => f.name.startsWith(`${k}.`));
    if (sub) errs[sub.name] = errs[k]!;
  }
  return { value, errs };
}

/** Commands that undo the table's work, in plain words: the form asks before sending them. */
const destructive: Record<string, string> = {
  'combat.end': 'ends the fight for everyone',
  'combatant.remove': 'removes a combatant from the encounter',
  'timeline.rewind': 'takes the whole encounter back to an earlier point for everyone',
};

/** The command types, the GM's first, each with its title and actor. */
function CommandPicker({
  types,
  info,
  type,
  onPick,
}: {
  types: string[];
  info: NonNullable<RulesetInfo['commandInfo']>;
  type: string;
  onPick: (t: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="gm-command-type">Command</label>
      <select id="gm-command-type" value={type} onChange={(e) => onPick(e.target.value)}>
        <option value="">— choose a ruling —</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {titleOf(t)}
            {info[t]!.actor === 'gm' ? ' — GM' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * GM: any command of the ruleset from a form built from its schema (the rulings and GM tools that
 * no other control covers: zones, groups, surprise, rulings, …). Validated before sending.
 */
export function CommandForm({
  ruleset,
  state,
  send,
}: {
  ruleset: RulesetInfo;
  state: EncounterState;
  send: (cmd: Record<string, unknown>, text: string) => Promise<unknown>;
}) {
  const info = ruleset.commandInfo ?? {};
  const types = useMemo(
    () => Object.keys(info).sort((a, b) => Number(info[a]!.actor !== 'gm') - Number(info[b]!.actor !== 'gm') || a.localeCompare(b)),
    [info],
  );
  // nothing chosen at first: a stray click on Send must not end the fight
  const [type, setType] = useState('');
  const schema = info[type]?.schema;
  const display = displayOf([ruleset], ruleset.id);
  const fieldsFor = (t: string) => commandFields(info[t]?.schema, hintsUnder(display, `commands.${t}`));
  const fields = useMemo(() => fieldsFor(type), [type, ruleset]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (types.length === 0) return null;
  const pick = (t: string) => {
    setType(t);
    setValues(initialValues(fieldsFor(t)));
    setErrors({});
  };
  // an id made from a name (a new zone) is not one of the zones there are
  const taken = zonesIn(ruleset, state).map((z) => z.id);
  return (
    <form
      aria-label="GM command"
      onSubmit={(e) => {
        e.preventDefault();
        const { value, errs } = checked(fields, values, schema, taken);
        setErrors(errs);
        if (!type || Object.keys(errs).length > 0) return;
        if (destructive[type] && !window.confirm(`${titleOf(type)}: this ${destructive[type]}. Send it?`)) return;
        void send({ ...value, type }, `${titleOf(type)}: done.`);
      }}
    >
      <CommandPicker types={types} info={info} type={type} onPick={pick} />
      {fields
        .filter((f) => f.combatant)
        .map((f) => (
          <div key={f.name}>
            <CombatantPicker
              f={f}
              id={`gmc-${f.name}`}
              value={values[f.name]!}
              state={state}
              onChange={(v) => setValues({ ...values, [f.name]: v })}
            />
            {errors[f.name] ? (
              <p className="field-error" role="alert">
                ✕ {f.label} {errors[f.name]}
              </p>
            ) : null}
          </div>
        ))}
      <SchemaFields
        idPrefix="gmc"
        fields={fields.filter((f) => !f.combatant)}
        values={values}
        errors={errors}
        onChange={(n, v) => setValues({ ...values, [n]: v })}
        context={contextOf(ruleset, state)}
      />
      {errors[''] ? (
        <p className="field-error" role="alert">
          ✕ {errors['']}
        </p>
      ) : null}
      <button type="submit" disabled={!type}>
        {type ? `Send: ${titleOf(type)}` : 'Send (choose a ruling first)'}
      </button>
    </form>
  );
}
