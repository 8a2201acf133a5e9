import type { Field, FormValue, FormValues } from '../lib/schema-form.js';

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

/** The inputs of a schema-generated form, each labelled, with its doc and its error. */
export function SchemaFields({ idPrefix, fields, values, errors, onChange, secret, onSecret }: Props) {
  return (
    <div className="schema-fields">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const err = errors[f.name];
        const described = [f.doc ? `${id}-doc` : null, err ? `${id}-err` : null].filter(Boolean).join(' ') || undefined;
        const v = values[f.name];
        const common = { id, name: f.name, 'aria-invalid': err ? true : undefined, 'aria-describedby': described } as const;
        let input;
        switch (f.kind) {
          case 'boolean':
            input = <input type="checkbox" {...common} checked={v === true} onChange={(e) => onChange(f.name, e.target.checked)} />;
            break;
          case 'select':
            input = (
              <select {...common} value={typeof v === 'string' ? v : ''} onChange={(e) => onChange(f.name, e.target.value)}>
                {f.nullable || !f.required ? <option value="">{f.nullable ? '(none)' : '(default)'}</option> : v === '' ? <option value="">— choose —</option> : null}
                {f.choices!.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            );
            break;
          case 'multiselect':
            input = (
              <fieldset className="checks" id={id} aria-describedby={described}>
                <legend className="sr-only">{f.label}</legend>
                {f.choices!.map((c) => {
                  const list = Array.isArray(v) ? v : [];
                  return (
                    <label key={c}>
                      <input
                        type="checkbox"
                        checked={list.includes(c)}
                        onChange={(e) => onChange(f.name, e.target.checked ? [...list, c] : list.filter((x) => x !== c))}
                      />{' '}
                      {c}
                    </label>
                  );
                })}
              </fieldset>
            );
            break;
          case 'json':
            input = <textarea {...common} rows={2} value={typeof v === 'string' ? v : ''} onChange={(e) => onChange(f.name, e.target.value)} placeholder="JSON" />;
            break;
          case 'integer':
          case 'number':
            input = (
              <input
                {...common}
                type="number"
                inputMode="numeric"
                step={f.kind === 'integer' ? 1 : 'any'}
                value={typeof v === 'string' ? v : ''}
                onChange={(e) => onChange(f.name, e.target.value)}
              />
            );
            break;
          default:
            input = (
              <input {...common} type="text" value={typeof v === 'string' ? v : ''} onChange={(e) => onChange(f.name, e.target.value)} placeholder={f.kind === 'list' ? 'comma, separated' : undefined} />
            );
        }
        const range = f.min !== undefined || f.max !== undefined ? ` (${f.min ?? '…'}–${f.max ?? '…'})` : '';
        return (
          <div key={f.name} className={`field field-${f.kind}${err ? ' invalid' : ''}`}>
            <label htmlFor={id}>
              {f.label}
              {f.required ? <span aria-label="required"> *</span> : null}
              <span className="muted">{range}</span>
            </label>
            {input}
            {onSecret ? (
              <label className="secret-toggle">
                <input type="checkbox" checked={secret?.includes(f.parent ?? f.name) ?? false} onChange={(e) => onSecret(f.name, e.target.checked)} aria-label={`${f.label} is secret`} /> secret
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
      })}
    </div>
  );
}
