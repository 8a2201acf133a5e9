import { labelOf } from '../../lib/labels.js';
import type { ActionOption, EncounterState, ParamSpec } from '../../lib/types.js';

export type ParamValue = string | boolean | string[];

export function optionList(spec: ParamSpec, state: EncounterState, actorId: string): { value: string; label: string }[] {
  if (spec.options && spec.options.length > 0) {
    return spec.options.map((o) => {
      if (typeof o === 'object') return { value: String(o.value), label: o.label };
      const c = state.combatants[String(o)];
      if (spec.kind === 'combatant' && c) return { value: String(o), label: c.name };
      // an item by its id: the actor's item by its name ("Club", not "club")
      const item = spec.kind === 'item' ? state.combatants[actorId]?.items.find((i) => i.id === String(o)) : undefined;
      return { value: String(o), label: item ? item.name : String(o) };
    });
  }
  if (spec.kind === 'combatant')
    return Object.values(state.combatants).map((c) => ({ value: c.id, label: `${c.name}${c.id === actorId ? ' (self)' : ''}` }));
  if (spec.kind === 'item')
    return (state.combatants[actorId]?.items ?? []).map((i) => ({ value: i.id, label: `${i.name} (${i.location})` }));
  return [];
}

/** The value to send: numbers as numbers, the original option value when it was a number. */
function convert(spec: ParamSpec, raw: ParamValue): unknown {
  if (spec.kind === 'boolean') return raw === true;
  if (spec.kind === 'list') {
    if (Array.isArray(raw)) return raw;
    return String(raw)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  const text = String(raw);
  if (spec.kind === 'number') return Number(text);
  const numeric = spec.options?.some((o) => typeof (typeof o === 'object' ? o.value : o) === 'number');
  if (numeric && text !== '' && !Number.isNaN(Number(text))) return Number(text);
  if ((spec.kind === 'position' || spec.kind === 'path') && !spec.options?.length) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The parameter's doc under its field (described-by), when the ruleset gives one. */
function ParamDoc({ spec, id }: { spec: ParamSpec; id: string }) {
  return spec.doc ? (
    <small className="doc" id={`${id}-doc`}>
      {spec.doc}
    </small>
  ) : null;
}

export function ParamInput(props: {
  spec: ParamSpec;
  value: ParamValue;
  onChange: (v: ParamValue) => void;
  state: EncounterState;
  actorId: string;
  id: string;
}) {
  return (
    <>
      <ParamField {...props} />
      <ParamDoc spec={props.spec} id={props.id} />
    </>
  );
}

function ParamField({
  spec,
  value,
  onChange,
  state,
  actorId,
  id,
}: {
  spec: ParamSpec;
  value: ParamValue;
  onChange: (v: ParamValue) => void;
  state: EncounterState;
  actorId: string;
  id: string;
}) {
  const described = spec.doc ? `${id}-doc` : undefined;
  const label = spec.label ?? labelOf(spec.name.replace(/Id$/, ''));
  const opts = optionList(spec, state, actorId);
  if (spec.kind === 'boolean') {
    return (
      <label htmlFor={id} className="inline">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={described} />{' '}
        {label}
      </label>
    );
  }
  if (spec.kind === 'list' && opts.length > 0) {
    const list = Array.isArray(value) ? value : [];
    return (
      <fieldset className="checks">
        <legend>{label}</legend>
        {opts.map((o) => (
          <label key={o.value}>
            <input
              type="checkbox"
              checked={list.includes(o.value)}
              onChange={(e) => onChange(e.target.checked ? [...list, o.value] : list.filter((x) => x !== o.value))}
            />{' '}
            {o.label}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <>
      <label htmlFor={id}>
        {label}
        {spec.optional ? <span className="muted"> (optional)</span> : null}
      </label>
      {opts.length > 0 ? (
        <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)} aria-describedby={described}>
          {spec.default === undefined ? <option value="">— choose —</option> : null}
          {opts.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={spec.kind === 'number' ? 'number' : 'text'}
          min={spec.min}
          max={spec.max}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={described}
          placeholder={spec.placeholder ?? (spec.kind === 'position' ? 'position (as the ruleset names it)' : undefined)}
        />
      )}
    </>
  );
}

export function commandFor(option: ActionOption, params: Record<string, unknown>): Record<string, unknown> {
  return { ...(option.template ?? {}), ...params, type: option.command };
}

/** The fields as the command takes them (`skip`: the one the map fills), or what is missing or out of range. */
export function collectParams(
  specs: ParamSpec[],
  values: Record<string, ParamValue>,
  skip?: string,
): { params: Record<string, unknown> } | { missing: string } {
  const params: Record<string, unknown> = {};
  for (const p of specs) {
    if (p.name === skip) continue;
    const v = values[p.name]!;
    const empty = v === '' || (Array.isArray(v) && v.length === 0 && p.kind !== 'list');
    if (empty) {
      if (p.optional) continue;
      // a typed field is filled in ("Fill in what happens."), a list is chosen from ("Choose target.")
      const what = (p.label ?? labelOf(p.name.replace(/Id$/, ''))).toLowerCase();
      const typed = (p.kind === 'text' || p.kind === 'number') && !p.options?.length;
      return { missing: `${typed ? 'Fill in' : 'Choose'} ${what}.` };
    }
    const out = convert(p, v);
    if (
      p.kind === 'number' &&
      (typeof out !== 'number' || Number.isNaN(out) || (p.min !== undefined && out < p.min) || (p.max !== undefined && out > p.max))
    ) {
      return {
        missing: `${p.label ?? p.name} must be a number${p.min !== undefined ? ` from ${p.min}` : ''}${p.max !== undefined ? ` to ${p.max}` : ''}.`,
      };
    }
    params[p.name] = out;
  }
  return { params };
}
