import { useState } from 'react';
import { recordOf } from '../lib/guards.js';
import { initialValues, parseValues, type Field, type FormValue, type FormValues } from '../lib/schema-form.js';

interface Props {
  idPrefix: string;
  fields: Field[];
  values: FormValues;
  errors: Record<string, string>;
  onChange: (name: string, value: FormValue) => void;
  /** stats only: which fields are secret (GM and controller only) */
  secret?: string[];
  onSecret?: (name: string, secret: boolean) => void;
}

type Common = { id: string; name: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/** The control of one field, by its kind. */
function FieldInput({ f, v, common, onChange }: { f: Field; v: FormValue | undefined; common: Common; onChange: Props['onChange'] }) {
  const text = typeof v === 'string' ? v : '';
  switch (f.kind) {
    case 'boolean':
      return <input type="checkbox" {...common} checked={v === true} onChange={(e) => onChange(f.name, e.target.checked)} />;
    case 'select':
      return (
        <select {...common} value={text} onChange={(e) => onChange(f.name, e.target.value)}>
          {f.nullable || !f.required ? (
            <option value="">{f.nullable ? '(none)' : '(default)'}</option>
          ) : v === '' ? (
            <option value="">— choose —</option>
          ) : null}
          {f.choices!.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      );
    case 'multiselect': {
      const list = Array.isArray(v) ? v : [];
      return (
        <fieldset className="checks" id={common.id} aria-describedby={common['aria-describedby']}>
          <legend className="sr-only">{f.label}</legend>
          {f.choices!.map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                checked={list.includes(c)}
                onChange={(e) => onChange(f.name, e.target.checked ? [...list, c] : list.filter((x) => x !== c))}
              />{' '}
              {c}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'json':
      if (f.rows) return <ObjectRows f={f} fields={f.rows} id={common.id} text={text} onChange={(t) => onChange(f.name, t)} />;
      return <textarea {...common} rows={2} value={text} onChange={(e) => onChange(f.name, e.target.value)} placeholder="JSON" />;
    case 'integer':
    case 'number':
      return (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          step={f.kind === 'integer' ? 1 : 'any'}
          value={text}
          onChange={(e) => onChange(f.name, e.target.value)}
        />
      );
    default:
      return (
        <input
          {...common}
          type="text"
          value={text}
          onChange={(e) => onChange(f.name, e.target.value)}
          placeholder={f.kind === 'list' ? 'comma, separated' : undefined}
        />
      );
  }
}

/** The rows of a list of objects as their text (JSON), blank rows left out. */
function rowsOf(text: string, fields: Field[]): FormValues[] {
  try {
    const v: unknown = JSON.parse(text || '[]');
    return Array.isArray(v) ? v.map((x) => initialValues(fields, recordOf(x))) : [];
  } catch {
    return [];
  }
}

/** A list of objects (e.g. a character's ability actions): a row of fields per entry, added and removed by buttons; no JSON. */
function ObjectRows({
  f,
  fields,
  id,
  text,
  onChange,
}: {
  f: Field;
  fields: Field[];
  id: string;
  text: string;
  onChange: (text: string) => void;
}) {
  const [rows, setRows] = useState<FormValues[]>(() => rowsOf(text, fields));
  const emit = (next: FormValues[]) => {
    setRows(next);
    onChange(JSON.stringify(next.map((r) => parseValues(fields, r).value)));
  };
  return (
    <div className="object-rows" id={id} data-testid={`rows-${f.name}`}>
      {rows.map((r, n) => (
        <fieldset key={n} className="object-row">
          <legend>
            {f.label}: {n + 1}
          </legend>
          <SchemaFields
            idPrefix={`${id}-${n}`}
            fields={fields.map((x) => ({ ...x, label: `${x.label} (${n + 1})` }))}
            values={r}
            errors={{}}
            onChange={(name, v) => emit(rows.map((x, k) => (k === n ? { ...x, [name]: v } : x)))}
          />
          <button type="button" onClick={() => emit(rows.filter((_, k) => k !== n))} aria-label={`Remove ${f.label} ${n + 1}`}>
            ✕ Remove
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => emit([...rows, initialValues(fields)])} aria-label={`Add to ${f.label}`}>
        + Add
      </button>
    </div>
  );
}

function SchemaField({ f, p }: { f: Field; p: Props }) {
  const { idPrefix, values, errors, onChange, secret, onSecret } = p;
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
      <FieldInput f={f} v={values[f.name]} common={common} onChange={onChange} />
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

/** The inputs of a schema-generated form, each labelled, with its doc and its error. */
export function SchemaFields(p: Props) {
  return (
    <div className="schema-fields">
      {p.fields.map((f) => (
        <SchemaField key={f.name} f={f} p={p} />
      ))}
    </div>
  );
}
