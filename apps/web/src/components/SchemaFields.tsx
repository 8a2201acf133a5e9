import { useState } from 'react';
import { inContext, type FormContext } from '../lib/form-context.js';
import { initialValues, type Field, type FormValue, type FormValues } from '../lib/schema-form.js';
import { repeatedKeys, rowsOfText, valueOfRows } from '../lib/schema-rows.js';
import { ChoiceList, ChoiceSelect, type Common } from './ChoiceInputs.js';

interface Props {
  idPrefix: string;
  fields: Field[];
  values: FormValues;
  errors: Record<string, string>;
  onChange: (name: string, value: FormValue) => void;
  /** stats only: which fields are secret (GM and controller only) */
  secret?: string[];
  onSecret?: (name: string, secret: boolean) => void;
  /** what the pickers offer: combatants, zones, actions (fields that name something) */
  context?: FormContext;
}

/** The control of one field, by its kind. */
function FieldInput({ f, v, common, p }: { f: Field; v: FormValue | undefined; common: Common; p: Props }) {
  const { onChange } = p;
  const text = typeof v === 'string' ? v : '';
  switch (f.kind) {
    case 'boolean':
      return <input type="checkbox" {...common} checked={v === true} onChange={(e) => onChange(f.name, e.target.checked)} />;
    case 'select':
      return <ChoiceSelect f={f} value={text} common={common} onChange={(x) => onChange(f.name, x)} />;
    case 'multiselect':
      return <ChoiceList f={f} value={Array.isArray(v) ? v : []} common={common} onChange={(x) => onChange(f.name, x)} />;
    case 'json':
      if (f.rows)
        return <ObjectRows f={f} id={common.id} text={text} context={p.context} errors={p.errors} onChange={(t) => onChange(f.name, t)} />;
      return <textarea {...common} rows={2} value={text} onChange={(e) => onChange(f.name, e.target.value)} placeholder="JSON" />;
    case 'integer':
    case 'number':
      return (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.min}
          max={f.max}
          value={text}
          onChange={(e) => onChange(f.name, e.target.value)}
        />
      );
    default:
      return (
        <>
          <input
            {...common}
            type="text"
            value={text}
            onChange={(e) => onChange(f.name, e.target.value)}
            list={f.choices?.length ? `${common.id}-usual` : undefined}
            placeholder={f.example ? `e.g. ${f.example}` : f.kind === 'list' ? 'comma, separated' : undefined}
          />
          {f.choices?.length ? (
            <datalist id={`${common.id}-usual`}>
              {f.choices.map((c) => (
                <option key={c} value={c}>
                  {f.choiceLabels?.[c]}
                </option>
              ))}
            </datalist>
          ) : null}
        </>
      );
  }
}

/**
 * A list of objects (e.g. a character's ability actions) or a map (skill → rank): a row of fields
 * per entry, added and removed by buttons; no JSON. Ids made from names are not asked.
 */
/** The form's errors about row `key` of `f` (`powers[1].damage` → `damage`), by the row's field. */
function errorsOfRow(f: Field, key: string, errors: Record<string, string>): Record<string, string> {
  const p = `${f.name}[${key}].`;
  return Object.fromEntries(Object.entries(errors).flatMap(([k, m]) => (k.startsWith(p) ? [[k.slice(p.length), m]] : [])));
}

/** A row's fields, numbered; a list of names offers the other rows' names (a power's alternates: the other powers). */
function rowFields(fields: Field[], rows: FormValues[], n: number): Field[] {
  const names = rows.flatMap((r, k) => (k !== n && typeof r.name === 'string' && r.name.trim() ? [r.name.trim()] : []));
  return fields.map((x) => ({ ...x, label: `${x.label} (${n + 1})`, ...(x.entries === 'siblings' ? { choices: names } : {}) }));
}

function ObjectRows({
  f,
  id,
  text,
  context,
  errors,
  onChange,
}: {
  f: Field;
  id: string;
  text: string;
  context: FormContext | undefined;
  errors: Record<string, string>;
  onChange: (text: string) => void;
}) {
  const fields = f.rows ?? [];
  const [rows, setRows] = useState<FormValues[]>(() => rowsOfText(f, text));
  const emit = (next: FormValues[]) => {
    setRows(next);
    onChange(JSON.stringify(valueOfRows(f, next)));
  };
  const twice = repeatedKeys(f, rows);
  const what = f.map ? (fields[0]?.label ?? f.label) : f.label;
  return (
    <div className="object-rows" id={id} data-testid={`rows-${f.name}`}>
      {rows.map((r, n) => (
        <fieldset key={n} className="object-row">
          <legend>
            {what}: {n + 1}
          </legend>
          <SchemaFields
            idPrefix={`${id}-${n}`}
            fields={rowFields(fields, rows, n)}
            values={r}
            errors={errorsOfRow(f, f.map ? String(r.__key ?? '').trim() : String(n), errors)}
            context={context}
            onChange={(name, v) => emit(rows.map((x, k) => (k === n ? { ...x, [name]: v } : x)))}
          />
          <button type="button" onClick={() => emit(rows.filter((_, k) => k !== n))} aria-label={`Remove ${what} ${n + 1}`}>
            ✕ Remove
          </button>
        </fieldset>
      ))}
      {twice.length > 0 ? (
        <p className="field-error" role="alert">
          ✕ {twice.join(', ')}: given twice; the last one counts.
        </p>
      ) : null}
      <button type="button" onClick={() => emit([...rows, initialValues(fields)])}>
        + Add to {f.label}
      </button>
    </div>
  );
}

function SchemaField({ f, p }: { f: Field; p: Props }) {
  const { idPrefix, values, errors, onSecret, secret } = p;
  const id = `${idPrefix}-${f.name}`;
  const err = errors[f.name];
  const described = [f.doc ? `${id}-doc` : null, err ? `${id}-err` : null].filter(Boolean).join(' ') || undefined;
  const common: Common = { id, name: f.name, 'aria-invalid': err ? true : undefined, 'aria-describedby': described };
  const range = f.min !== undefined || f.max !== undefined ? ` (${f.min ?? '…'}–${f.max ?? '…'})` : '';
  return (
    <div className={`field field-${f.kind}${err ? ' invalid' : ''}`}>
      <label htmlFor={id}>
        {f.label}
        {f.required ? <span aria-label="required"> *</span> : null}
        <span className="muted">{range}</span>
      </label>
      <FieldInput f={f} v={values[f.name]} common={common} p={p} />
      {onSecret ? (
        <label className="secret-toggle">
          <input
            type="checkbox"
            checked={secret?.includes(f.parent ?? f.name) ?? false}
            onChange={(e) => onSecret(f.name, e.target.checked)}
            aria-label={`${f.label} is secret`}
          />{' '}
          secret
        </label>
      ) : null}
      {f.doc ? (
        <small id={`${id}-doc`} className="doc">
          {f.doc}
        </small>
      ) : null}
      {err ? (
        <small id={`${id}-err`} className="field-error" role="alert">
          ✕ {f.label} {err}
        </small>
      ) : null}
    </div>
  );
}

/**
 * The inputs of a schema-generated form, each labelled, with its doc and its error; a field that
 * names something is a picker (its choices from `context`); an id made from a name is not asked.
 */
export function SchemaFields(p: Props) {
  const shown = p.fields.filter((f) => !(f.madeFrom && !f.refers));
  return (
    <div className="schema-fields">
      {shown.map((f) => (
        <SchemaField key={f.name} f={p.context ? inContext(f, p.context) : f} p={p} />
      ))}
    </div>
  );
}
