import { useState } from 'react';
import type { VitalSpec } from '@fray/engine';
import { vitalSpecs, vitalsOf, type RulesetDisplay, type VitalView } from '../lib/display.js';
import type { Combatant, EncounterState } from '../lib/types.js';

/** `DMG 0/4` → `Damage 0/4`: the short label spelt out (the player's own card). */
const spelt = (v: VitalView): string => (v.text.startsWith(v.short) ? `${v.label}${v.text.slice(v.short.length)}` : v.text);

/** One bar: what is left of a vital, with its numbers when the viewer may see them, or a word; `full`: its label spelt out (else a title says it). */
export function VitalBar({ v, compact = false, full = false }: { v: VitalView; compact?: boolean; full?: boolean }) {
  const pct = v.left === null ? null : Math.round(v.left * 100);
  const level = pct === null ? '' : pct > 60 ? ' vital-ok' : pct > 25 ? ' vital-low' : ' vital-bad';
  return (
    <span className={`vital${compact ? ' vital-compact' : ''}${level}`} data-testid={`vital-${v.key}`}>
      {pct !== null ? (
        <span
          className="vital-bar"
          role="meter"
          aria-label={v.label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={v.text}
        >
          <span className="vital-fill" style={{ width: `${pct}%` }} />
        </span>
      ) : null}
      <span className="vital-text" title={`${v.label}: ${v.doc}`}>
        {full ? spelt(v) : v.text}
      </span>
    </span>
  );
}

/** Every vital of a combatant. `numbers`: the GM, or the combatant's controller. */
export function Vitals({
  display,
  state,
  c,
  numbers,
  compact = false,
  full = false,
}: {
  display: RulesetDisplay;
  state: EncounterState;
  c: Combatant;
  numbers: boolean;
  compact?: boolean;
  full?: boolean;
}) {
  const vs = vitalsOf(display, state, c, numbers);
  if (vs.length === 0) return null;
  return (
    <span className="vitals" data-testid={`vitals-${c.id}`}>
      {vs.map((v) => (
        <VitalBar key={v.key} v={v} compact={compact} full={full} />
      ))}
    </span>
  );
}

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/**
 * The GM's harm (`harm` > 0) or healing (< 0) of one vital, as the engine's `combatant.adjust`
 * (logged like any command), with what it did in words for the outcome line.
 */
export function sendHarm(send: Send, c: Combatant, spec: VitalSpec, harm: number): Promise<unknown> {
  const n = Math.abs(harm);
  const what = `${c.name}: ${n} ${spec.label} ${harm > 0 ? 'damage' : 'healed'}`;
  // `label`: what the pending line says while it waits to be sent (not sent to the server)
  return send({ type: 'combatant.adjust', combatantId: c.id, vital: spec.key, amount: harm, label: what }, `${what}.`);
}

/** The adjustable vitals this combatant has (the encounter's named vitals included). */
export function adjustableVitals(display: RulesetDisplay, state: EncounterState, c: Combatant): VitalSpec[] {
  const has = new Set(vitalsOf(display, state, c, true).map((v) => v.key));
  return vitalSpecs(display, state.options).filter((v) => v.adjustable && has.has(v.key));
}

/**
 * One vital's quick ±: −N lowers the number shown, +N raises it (N from the field, 1 unless
 * changed). For hit points − is damage; for a damage track + is.
 */
function VitalStepper({ spec, view, c, send }: { spec: VitalSpec; view: VitalView | undefined; c: Combatant; send: Send }) {
  const [amount, setAmount] = useState('1');
  const n = Number(amount);
  const ok = Number.isInteger(n) && n >= 1;
  const id = `adj-${c.id}-${spec.key}`;
  // − lowers the number: harm for a rising track, healing for hit points
  const step = (sign: 1 | -1) => ok && void sendHarm(send, c, spec, spec.direction === 'down' ? -sign * n : sign * n);
  const word = (sign: 1 | -1) => ((spec.direction === 'down') === sign < 0 ? 'damage' : 'heal');
  const shown = ok ? n : '?';
  return (
    <div className="stepper" role="group" aria-label={`${spec.label} of ${c.name}`} data-testid={`stepper-${spec.key}`}>
      <span className="stepper-label" title={spec.doc}>
        {view ? view.text : spec.short}
      </span>
      <button type="button" disabled={!ok} onClick={() => step(-1)} aria-label={`${c.name}: ${spec.label} −${shown} (${word(-1)})`}>
        −{shown}
      </button>
      <label htmlFor={id} className="sr-only">
        Amount of {spec.label} for {c.name}
      </label>
      <input
        id={id}
        className="stepper-n"
        type="number"
        min={1}
        inputMode="numeric"
        value={amount}
        aria-invalid={ok ? undefined : true}
        onChange={(e) => setAmount(e.target.value)}
      />
      <button type="button" disabled={!ok} onClick={() => step(1)} aria-label={`${c.name}: ${spec.label} +${shown} (${word(1)})`}>
        +{shown}
      </button>
    </div>
  );
}

/** A quick ± on every vital the GM may adjust (`adjustable` in the ruleset's display data). */
export function AdjustVital({ display, state, c, send }: { display: RulesetDisplay; state: EncounterState; c: Combatant; send: Send }) {
  const vitals = adjustableVitals(display, state, c);
  if (vitals.length === 0) return null;
  const views = vitalsOf(display, state, c, true);
  return (
    <div className="adjust" role="group" aria-label={`Damage or heal ${c.name}`}>
      {vitals.map((v) => (
        <VitalStepper key={v.key} spec={v} view={views.find((x) => x.key === v.key)} c={c} send={send} />
      ))}
    </div>
  );
}
