import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FieldError } from '../Outcome.js';
import { partNames } from '../../lib/action-parts.js';
import { formatCost } from '../../lib/describe.js';
import type { CommandResult, Live } from '../../lib/live.js';
import { loadRulesets } from '../../lib/rulesets.js';
import type { ActionOption, EncounterState, RulesetInfo } from '../../lib/types.js';
import { useAsync } from '../../lib/useAsync.js';
import { destinationParam, useMapApi } from '../map-context.js';
import { collectParams, commandFor, optionList, ParamInput, type ParamValue } from './params.js';
import type { PartsCollector } from './SchemaParts.js';

// the form machinery (fields from a schema, ajv) is the GM's: a player loads it only for such an action
const SchemaParts = lazy(() => import('./SchemaParts.js'));

/** The form's values; a target tapped on the map fills the combatant field. */
function useParamValues(option: ActionOption, state: EncounterState, actorId: string) {
  const specs = option.params ?? [];
  const [values, setValues] = useState<Record<string, ParamValue>>(() =>
    Object.fromEntries(
      specs.map((p) => [
        p.name,
        typeof p.default === 'number' ? String(p.default) : (p.default ?? (p.kind === 'boolean' ? false : p.kind === 'list' ? [] : '')),
      ]),
    ),
  );
  const mapApi = useMapApi();
  const pickSpec = specs.find((p) => p.kind === 'combatant');
  // A target can be tapped on the map while this form is open.
  useEffect(() => {
    if (!mapApi || !pickSpec) return;
    const ids = optionList(pickSpec, state, actorId).map((o) => o.value);
    return mapApi.pickCombatant(ids, (id: string) => setValues((v) => ({ ...v, [pickSpec.name]: id })));
  }, [mapApi, pickSpec, state, actorId]);
  const [missing, setMissing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dest = mapApi ? destinationParam(option) : undefined;
  const parts = useSchemaParts(option, state);
  /** The fields as the command takes them, or null (and a message) when one is missing or out of range. */
  const collect = (skip?: string): Record<string, unknown> | null => {
    const r = collectParams(
      specs.filter((p) => !parts.names.has(p.name)),
      values,
      skip,
    );
    if ('missing' in r) {
      setMissing(r.missing);
      return null;
    }
    return parts.collect(r.params);
  };
  /** A destination is chosen on the map next; else the command is sent. */
  const submit = async (live: Live, onDone: (r: CommandResult | null) => void) => {
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
  };
  return { specs, values, setValues, mapApi, pickSpec, dest, missing, busy, submit, parts };
}

/** The parts of the command asked from its schema (a stance's penalty): their names at once, their fields with the form's chunk. */
function useSchemaParts(option: ActionOption, state: EncounterState) {
  const rulesets = useAsync(() => loadRulesets(), []);
  const ruleset: RulesetInfo | undefined = rulesets.data?.find((r) => r.id === state.ruleset);
  const names = useMemo(() => partNames(ruleset, option), [ruleset, option]);
  const collector = useRef<PartsCollector | null>(null);
  /** `params` with the parts added; null while their fields are not there yet or refuse */
  const collect = (params: Record<string, unknown>): Record<string, unknown> | null =>
    names.size === 0 ? params : (collector.current?.(params) ?? null);
  const register = (c: PartsCollector) => {
    collector.current = c;
  };
  return { ruleset, names, collect, register };
}

/** An action's parameters: a form (a target may be tapped on the map; a destination is chosen on it). */
export function ActionForm({
  option,
  live,
  state,
  actorId,
  onDone,
}: {
  option: ActionOption;
  live: Live;
  state: EncounterState;
  actorId: string;
  onDone: (r: CommandResult | null) => void;
}) {
  const base = useId();
  const { specs, values, setValues, mapApi, pickSpec, dest, missing, busy, submit, parts } = useParamValues(option, state, actorId);
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.querySelector<HTMLElement>('select, input, textarea')?.focus();
  }, []);
  return (
    <form
      ref={ref}
      className="action-form"
      // the form's own checks say what is wrong, in words, on the field (not the browser's bubble)
      noValidate
      aria-label={`${option.label}: choose`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(live, onDone);
      }}
    >
      <p>
        <strong>{option.label}</strong>
        {option.cost ? ` — costs ${formatCost(option.cost)}` : ''}
      </p>
      {pickSpec && mapApi ? <p className="muted">Tap a token on the map, or choose from the list.</p> : null}
      {parts.names.size > 0 && parts.ruleset ? (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <SchemaParts option={option} ruleset={parts.ruleset} state={state} idPrefix={`${base}-part`} register={parts.register} />
        </Suspense>
      ) : null}
      {specs
        .filter((p) => p !== dest && !parts.names.has(p.name))
        .map((p) => (
          <div className="field" key={p.name}>
            <ParamInput
              id={`${base}-${p.name}`}
              spec={p}
              value={values[p.name]!}
              onChange={(v) => setValues({ ...values, [p.name]: v })}
              state={state}
              actorId={actorId}
            />
          </div>
        ))}
      <FieldError text={missing} />
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
