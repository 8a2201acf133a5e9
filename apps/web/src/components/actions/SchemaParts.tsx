import { useEffect, useMemo, useState } from 'react';
import { SchemaFields } from '../SchemaFields.js';
import { schemaParams } from '../../lib/action-schema.js';
import { commandValue, errorsOnFields } from '../../lib/command-form.js';
import { contextOf } from '../../lib/form-context.js';
import { initialValues, validate, type FormValue, type FormValues } from '../../lib/schema-form.js';
import { rowErrors } from '../../lib/schema-validate.js';
import type { ActionOption, EncounterState, RulesetInfo } from '../../lib/types.js';

/** `params` with the parts added, or null (their errors shown) when the command's schema refuses them. */
export type PartsCollector = (params: Record<string, unknown>) => Record<string, unknown> | null;

/**
 * The parameters the command takes as an object or a list of objects (a stance's penalty, a
 * readied action's trigger): fields from the command's schema, checked with it before sending.
 * Loaded with the form's machinery only when an action has such parts.
 */
export default function SchemaParts({
  option,
  ruleset,
  state,
  idPrefix,
  register,
}: {
  option: ActionOption;
  ruleset: RulesetInfo;
  state: EncounterState;
  idPrefix: string;
  register: (collect: PartsCollector) => void;
}) {
  const subs = useMemo(() => schemaParams(ruleset, option), [ruleset, option]);
  const fields = [...subs.values()].flat();
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const all = { ...initialValues(fields), ...values };
  const collect: PartsCollector = (params) => {
    const { value, errors: shape } = commandValue(fields, all);
    const whole = { ...(option.template ?? {}), ...params, ...value };
    const schema = ruleset.commandInfo?.[option.command]?.schema;
    const said = errorsOnFields(fields, { ...validate(schema, whole), ...rowErrors(schema, whole) });
    // only the complaints about these parts (the rest is the plain parameters' own check)
    const found: Record<string, string> = { ...shape };
    for (const [k, m] of Object.entries(said))
      if ([...subs.keys()].some((n) => k === n || k.startsWith(`${n}.`) || k.startsWith(`${n}[`))) found[k] = m;
    setErrors(found);
    return Object.keys(found).length > 0 ? null : { ...params, ...value };
  };
  useEffect(() => register(collect));
  /** a changed field's complaint goes with the old value */
  const change = (n: string, v: FormValue) => {
    setValues({ ...all, [n]: v });
    if (errors[n]) setErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => k !== n)));
  };
  return (
    <SchemaFields idPrefix={idPrefix} fields={fields} values={all} errors={errors} onChange={change} context={contextOf(ruleset, state)} />
  );
}
