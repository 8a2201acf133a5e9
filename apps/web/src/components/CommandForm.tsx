import { useMemo, useState } from 'react';
import { commandValue, errorsOnFields, type CommandField } from '../lib/command-form.js';
import { contextOf, zonesIn } from '../lib/form-context.js';
import { commandTitle, elsewhere, gmCommandFields } from '../lib/gm-commands.js';
import { initialValues, validate, type FormValues } from '../lib/schema-form.js';
import { rowErrors } from '../lib/schema-validate.js';
import type { EncounterState, RulesetInfo } from '../lib/types.js';
import { RawJson } from './RawJson.js';
import { SchemaFields } from './SchemaFields.js';

/** The command's value, or the errors by field (nested fields report under their parent: shown on its first sub-field). */
function checked(
  fields: CommandField[],
  values: FormValues,
  schema: unknown,
  taken: string[],
): { value: Record<string, unknown>; errs: Record<string, string> } {
  const { value, errors: shape } = commandValue(fields, values, { taken });
  const errs = errorsOnFields(fields, { ...shape, ...validate(schema, value), ...rowErrors(schema, value) });
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
  title,
  onPick,
}: {
  types: string[];
  info: NonNullable<RulesetInfo['commandInfo']>;
  type: string;
  title: (t: string) => string;
  onPick: (t: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="gm-command-type">Command</label>
      <select id="gm-command-type" value={type} onChange={(e) => onPick(e.target.value)}>
        <option value="">— choose a ruling —</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {title(t)}
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
  const titleOf = (t: string) => commandTitle(ruleset, t);
  const types = useMemo(
    () =>
      Object.keys(info).sort(
        (a, b) => Number(info[a]!.actor !== 'gm') - Number(info[b]!.actor !== 'gm') || titleOf(a).localeCompare(titleOf(b)),
      ),
    [info],
  );
  // nothing chosen at first: a stray click on Send must not end the fight
  const [type, setType] = useState('');
  const schema = info[type]?.schema;
  const fields = useMemo(() => (type ? gmCommandFields(ruleset, type) : []), [type, ruleset]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (types.length === 0) return null;
  const pick = (t: string) => {
    setType(t);
    setValues(initialValues(t ? gmCommandFields(ruleset, t) : []));
    setErrors({});
  };
  // an id made from a name (a new zone) is not one of the zones there are
  const taken = zonesIn(ruleset, state).map((z) => z.id);
  const other = type ? elsewhere(ruleset, type) : null;
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
      <CommandPicker types={types} info={info} type={type} title={titleOf} onPick={pick} />
      {other ? (
        <p className="doc" data-testid="command-elsewhere">
          Done with its own form: {other}
        </p>
      ) : (
        <SchemaFields
          idPrefix="gmc"
          fields={fields}
          values={values}
          errors={errors}
          onChange={(n, v) => setValues({ ...values, [n]: v })}
          context={contextOf(ruleset, state)}
        />
      )}
      {errors[''] ? (
        <p className="field-error" role="alert">
          ✕ {errors['']}
        </p>
      ) : null}
      <button type="submit" disabled={!type || !!other}>
        {type ? `Send: ${titleOf(type)}` : 'Send (choose a ruling first)'}
      </button>
      {type ? (
        <RawJson
          key={type}
          type={type}
          title={titleOf(type)}
          prefill={() => JSON.stringify(commandValue(fields, values, { taken }).value, null, 1)}
          send={send}
        />
      ) : null}
    </form>
  );
}
