import { useEffect, useId, useRef, useState } from 'react';
import { FieldError } from '../Outcome.js';
import { formatCost } from '../../lib/describe.js';
import type { CommandResult, Live } from '../../lib/live.js';
import type { ActionOption, EncounterState } from '../../lib/types.js';
import { destinationParam, useMapApi } from '../map-context.js';
import { collectParams, commandFor, optionList, ParamInput, type ParamValue } from './params.js';

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
  /** The fields as the command takes them, or null (and a message) when one is missing or out of range. */
  const collect = (skip?: string): Record<string, unknown> | null => {
    const r = collectParams(specs, values, skip);
    if ('missing' in r) {
      setMissing(r.missing);
      return null;
    }
    return r.params;
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
  return { specs, values, setValues, mapApi, pickSpec, dest, missing, busy, submit };
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
  const { specs, values, setValues, mapApi, pickSpec, dest, missing, busy, submit } = useParamValues(option, state, actorId);
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.querySelector<HTMLElement>('select, input, textarea')?.focus();
  }, []);
  return (
    <form
      ref={ref}
      className="action-form"
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
      {specs
        .filter((p) => p !== dest)
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
