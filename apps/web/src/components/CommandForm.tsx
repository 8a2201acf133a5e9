import { useMemo, useState } from 'react';
import { commandFields, commandValue, type CommandField } from '../lib/command-form.js';
import { initialValues, labelOf, validate, type FormValues } from '../lib/schema-form.js';
import type { EncounterState, RulesetInfo } from '../lib/types.js';
import { SchemaFields } from './SchemaFields.js';

/** What a command type is for, in a few words, from its name: "defineZone" → "Define zone". */
function titleOf(type: string): string {
  return labelOf(type.replace(/[.-]/g, ' '));
}

function CombatantPicker({ f, id, value, onChange, state }: { f: CommandField; id: string; value: FormValues[string]; onChange: (v: string | string[]) => void; state: EncounterState }) {
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
            <input type="checkbox" checked={list.includes(c.id)} onChange={(e) => onChange(e.target.checked ? [...list, c.id] : list.filter((x) => x !== c.id))} /> {c.name}
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

/**
 * GM: any command of the ruleset from a form built from its schema (the rulings and GM tools that
 * no other control covers: zones, groups, surprise, rulings, …). Validated before sending.
 */
export function CommandForm({ ruleset, state, send }: { ruleset: RulesetInfo; state: EncounterState; send: (cmd: Record<string, unknown>, text: string) => Promise<unknown> }) {
  const info = ruleset.commandInfo ?? {};
  const types = useMemo(() => Object.keys(info).sort((a, b) => Number(info[a]!.actor !== 'gm') - Number(info[b]!.actor !== 'gm') || a.localeCompare(b)), [info]);
  const [type, setType] = useState(types[0] ?? '');
  const schema = info[type]?.schema;
  const fields = useMemo(() => commandFields(schema), [schema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pick = fields.filter((f) => f.combatant);
  const rest = fields.filter((f) => !f.combatant);
  if (types.length === 0) return null;
  return (
    <form
      aria-label="GM command"
      onSubmit={(e) => {
        e.preventDefault();
        const { value, errors: shape } = commandValue(fields, values);
        const errs = { ...shape, ...validate(schema, value) };
        // nested fields report under their parent: show them on the first sub-field
        for (const k of Object.keys(errs)) if (!fields.some((f) => f.name === k)) {
          const sub = fields.find((f) => f.name.startsWith(`${k}.`));
          if (sub) errs[sub.name] = errs[k]!;
        }
        setErrors(errs);
        if (Object.keys(errs).length > 0) return;
        void send({ ...value, type }, `${titleOf(type)}: sent.`);
      }}
    >
      <div className="field">
        <label htmlFor="gm-command-type">Command</label>
        <select
          id="gm-command-type"
          value={type}
          onChange={(e) => {
            const t = e.target.value;
            setType(t);
            setValues(initialValues(commandFields(info[t]?.schema)));
            setErrors({});
          }}
        >
          {types.map((t) => (
            <option key={t} value={t}>
              {titleOf(t)} ({t}){info[t]!.actor === 'gm' ? ' — GM' : ''}
            </option>
          ))}
        </select>
      </div>
      {pick.map((f) => (
        <div key={f.name}>
          <CombatantPicker f={f} id={`gmc-${f.name}`} value={values[f.name]!} state={state} onChange={(v) => setValues({ ...values, [f.name]: v })} />
          {errors[f.name] ? (
            <p className="field-error" role="alert">
              ✕ {f.label} {errors[f.name]}
            </p>
          ) : null}
        </div>
      ))}
      <SchemaFields idPrefix="gmc" fields={rest} values={values} errors={errors} onChange={(n, v) => setValues({ ...values, [n]: v })} />
      {errors[''] ? (
        <p className="field-error" role="alert">
          ✕ {errors['']}
        </p>
      ) : null}
      <button type="submit">Send: {titleOf(type)}</button>
    </form>
  );
}
