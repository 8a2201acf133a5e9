import { useEffect, useId, useRef, useState } from 'react';
import { formatCost } from '../lib/describe.js';
import { labelOf } from '../lib/labels.js';
import type { CommandResult, Live } from '../lib/live.js';
import type { ActionOption, EncounterState, ParamSpec, WireError } from '../lib/types.js';
import { ErrorMessage } from './common.js';
import { destinationParam, useMapApi } from './MapPanel.js';

type ParamValue = string | boolean | string[];

function optionList(spec: ParamSpec, state: EncounterState, actorId: string): { value: string; label: string }[] {
  if (spec.options && spec.options.length > 0) {
    return spec.options.map((o) => {
      if (typeof o === 'object') return { value: String(o.value), label: o.label };
      const c = state.combatants[String(o)];
      return { value: String(o), label: spec.kind === 'combatant' && c ? c.name : String(o) };
    });
  }
  if (spec.kind === 'combatant') return Object.values(state.combatants).map((c) => ({ value: c.id, label: `${c.name}${c.id === actorId ? ' (self)' : ''}` }));
  if (spec.kind === 'item') return (state.combatants[actorId]?.items ?? []).map((i) => ({ value: i.id, label: `${i.name} (${i.location})` }));
  return [];
}

/** The value to send: numbers as numbers, the original option value when it was a number. */
function convert(spec: ParamSpec, raw: ParamValue): unknown {
  if (spec.kind === 'boolean') return raw === true;
  if (spec.kind === 'list') {
    if (Array.isArray(raw)) return raw;
    return String(raw).split(',').map((s) => s.trim()).filter(Boolean);
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

function ParamInput({ spec, value, onChange, state, actorId, id }: { spec: ParamSpec; value: ParamValue; onChange: (v: ParamValue) => void; state: EncounterState; actorId: string; id: string }) {
  const label = spec.label ?? labelOf(spec.name.replace(/Id$/, ''));
  const opts = optionList(spec, state, actorId);
  if (spec.kind === 'boolean') {
    return (
      <label htmlFor={id} className="inline">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}
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
            <input type="checkbox" checked={list.includes(o.value)} onChange={(e) => onChange(e.target.checked ? [...list, o.value] : list.filter((x) => x !== o.value))} /> {o.label}
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
        <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          <option value="">— choose —</option>
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
          placeholder={spec.kind === 'position' ? 'position (as the ruleset names it)' : undefined}
        />
      )}
    </>
  );
}

export function commandFor(option: ActionOption, params: Record<string, unknown>): Record<string, unknown> {
  return { ...(option.template ?? {}), ...params, type: option.command };
}

function ActionForm({ option, live, state, actorId, onDone }: { option: ActionOption; live: Live; state: EncounterState; actorId: string; onDone: (r: CommandResult | null) => void }) {
  const base = useId();
  const specs = option.params ?? [];
  const [values, setValues] = useState<Record<string, ParamValue>>(() => Object.fromEntries(specs.map((p) => [p.name, p.kind === 'boolean' ? false : p.kind === 'list' ? [] : ''])));
  const [missing, setMissing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLFormElement>(null);
  const mapApi = useMapApi();
  const dest = mapApi ? destinationParam(option) : undefined;
  const pickSpec = specs.find((p) => p.kind === 'combatant');
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.querySelector<HTMLElement>('select, input, textarea')?.focus();
  }, []);
  // A target can be tapped on the map while this form is open.
  useEffect(() => {
    if (!mapApi || !pickSpec) return;
    const ids = optionList(pickSpec, state, actorId).map((o) => o.value);
    return mapApi.pickCombatant(ids, (id) => setValues((v) => ({ ...v, [pickSpec.name]: id })));
  }, [mapApi, pickSpec, state, actorId]);
  /** The fields as the command takes them, or null (and a message) when one is missing or out of range. */
  const collect = (skip?: string): Record<string, unknown> | null => {
    const params: Record<string, unknown> = {};
    for (const p of specs) {
      if (p.name === skip) continue;
      const v = values[p.name]!;
      const empty = v === '' || (Array.isArray(v) && v.length === 0 && p.kind !== 'list');
      if (empty) {
        if (p.optional) continue;
        setMissing(`Choose ${p.label ?? labelOf(p.name.replace(/Id$/, '')).toLowerCase()}.`);
        return null;
      }
      const out = convert(p, v);
      if (p.kind === 'number' && (Number.isNaN(out) || (p.min !== undefined && (out as number) < p.min) || (p.max !== undefined && (out as number) > p.max))) {
        setMissing(`${p.label ?? p.name} must be a number${p.min !== undefined ? ` from ${p.min}` : ''}${p.max !== undefined ? ` to ${p.max}` : ''}.`);
        return null;
      }
      params[p.name] = out;
    }
    return params;
  };
  return (
    <form
      ref={ref}
      className="action-form"
      aria-label={`${option.label}: choose`}
      onSubmit={async (e) => {
        e.preventDefault();
        if (dest && mapApi) {
          const params = collect(dest.name);
          if (!params) return;
          mapApi.startMove(actorId, option, params);
          onDone(null);
          return;
        }
        const params = collect();
        if (!params) return;
        setBusy(true);
        const r = await live.send(commandFor(option, params));
        setBusy(false);
        onDone(r);
      }}
    >
      <p>
        <strong>{option.label}</strong>
        {option.cost ? ` — costs ${formatCost(option.cost)}` : ''}
      </p>
      {pickSpec && mapApi ? <p className="muted">Tap a token on the map, or choose from the list.</p> : null}
      {specs.filter((p) => p !== dest).map((p) => (
        <div className="field" key={p.name}>
          <ParamInput id={`${base}-${p.name}`} spec={p} value={values[p.name]!} onChange={(v) => setValues({ ...values, [p.name]: v })} state={state} actorId={actorId} />
        </div>
      ))}
      {missing ? (
        <p className="field-error" role="alert">
          ✕ {missing}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : dest ? `Next: choose on the map` : `Do it: ${option.label}`}
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * What one combatant may do now, from the server's `legalActions`: the allowed ones as buttons
 * with their cost, the blocked ones with the rule that blocks them, the parameters each needs.
 */
export function ActionPanel({ live, state, version, combatantId, showBlocked = true, blockedOpen = false }: { live: Live; state: EncounterState; version: number; combatantId: string; showBlocked?: boolean; blockedOpen?: boolean }) {
  const [actions, setActions] = useState<ActionOption[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: true; label: string } | { ok: false; error: WireError } | null>(null);
  const [busy, setBusy] = useState(false);
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const mapApi = useMapApi();
  useEffect(() => {
    let live_ = true;
    live.actions(combatantId).then(
      (a) => {
        if (!live_) return;
        setActions(a);
        setLoadError(null);
      },
      (e: unknown) => live_ && setLoadError(e),
    );
    return () => {
      live_ = false;
    };
  }, [live, combatantId, version]);
  const name = state.combatants[combatantId]?.name ?? combatantId;
  if (loadError) return <ErrorMessage error={loadError} />;
  if (!actions) return <p className="muted">Loading actions…</p>;
  const allowed = actions.filter((a) => a.allowed);
  const blocked = actions.filter((a) => !a.allowed);
  const many = allowed.length > 10;
  const needle = filter.trim().toLowerCase();
  const shown = (a: ActionOption) => !needle || a.label.toLowerCase().includes(needle) || (a.kind ?? '').toLowerCase().includes(needle);
  const run = async (a: ActionOption, i: number) => {
    setResult(null);
    const dest = mapApi ? destinationParam(a) : undefined;
    if (mapApi && dest && (a.params ?? []).every((p) => p === dest || p.optional)) {
      mapApi.startMove(combatantId, a, {});
      return;
    }
    if ((a.params ?? []).length > 0) {
      setOpen(i);
      return;
    }
    setBusy(true);
    const r = await live.send(commandFor(a, {}));
    setBusy(false);
    setResult(r.ok ? { ok: true, label: a.label } : r);
  };
  return (
    <div className="actions" data-testid={`actions-${combatantId}`}>
      {allowed.length === 0 ? <p className="muted">{name} has no legal action right now.</p> : null}
      {open !== null && actions[open] ? (
        <ActionForm
          key={`${open}-${version}`}
          option={actions[open]}
          live={live}
          state={state}
          actorId={combatantId}
          onDone={(r) => {
            const label = actions[open]?.label ?? '';
            setOpen(null);
            if (r) setResult(r.ok ? { ok: true, label } : r);
          }}
        />
      ) : null}
      {many ? (
        <div className="field">
          <label htmlFor={filterId}>Find an action ({allowed.length} possible)</label>
          <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. attack, move, minor" />
        </div>
      ) : null}
      <ul className="action-list" aria-label={`Actions for ${name}`}>
        {actions.map((a, i) =>
          a.allowed && shown(a) ? (
            <li key={i}>
              <button type="button" className="action" onClick={() => void run(a, i)} disabled={busy} aria-expanded={(a.params ?? []).length > 0 ? open === i : undefined}>
                <span className="action-label">{a.label}</span>
                {a.kind ? <span className="tag">{a.kind}</span> : null}
                {a.cost && formatCost(a.cost) ? <span className="cost">cost: {formatCost(a.cost)}</span> : null}
                {a.provokes ? <span className="tag tag-warn">! provokes: {a.provokes.reason}</span> : null}
              </button>
            </li>
          ) : null,
        )}
      </ul>
      {showBlocked && blocked.length > 0 ? (
        <details className="blocked-list" open={blockedOpen}>
          <summary>Not possible now ({blocked.length}) — why</summary>
          <ul className="action-list" aria-label={`Blocked actions for ${name}`}>
            {actions.map((a, i) =>
              a.allowed || !shown(a) ? null : (
                <li key={i} className="blocked" data-testid="blocked-action">
                  <button type="button" className="action" aria-disabled="true" aria-describedby={`blocked-${combatantId}-${i}`} onClick={() => setResult({ ok: false, error: a.blocked ?? { code: 'BLOCKED', message: 'Not allowed now.' } })}>
                    <span aria-hidden="true">⊘ </span>
                    <span className="action-label">{a.label}</span>
                    {a.kind ? <span className="tag">{a.kind}</span> : null}
                    {a.cost && formatCost(a.cost) ? <span className="cost">cost: {formatCost(a.cost)}</span> : null}
                  </button>
                  <small id={`blocked-${combatantId}-${i}`} className="reason">
                    Blocked: {a.blocked?.message ?? 'not allowed now'}
                    {a.blocked?.rule ? <span className="rule"> ({a.blocked.rule})</span> : null}
                  </small>
                </li>
              ),
            )}
          </ul>
        </details>
      ) : null}
      {result && !result.ok ? <ErrorMessage error={result.error} onDismiss={() => setResult(null)} /> : null}
      {result && result.ok ? (
        <p className="ok" role="status">
          ✓ {result.label} done.
        </p>
      ) : null}
    </div>
  );
}
