import { useState } from 'react';
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

/**
 * The GM's damage or healing in one action (`combatant.adjust`, logged like any command), on any
 * adjustable vital this combatant has (the encounter's named vitals included).
 */
export function AdjustVital({
  display,
  state,
  c,
  send,
}: {
  display: RulesetDisplay;
  state: EncounterState;
  c: Combatant;
  send: (cmd: Record<string, unknown>, text: string) => Promise<unknown>;
}) {
  const has = new Set(vitalsOf(display, state, c, true).map((v) => v.key));
  const vitals = vitalSpecs(display, state.options).filter((v) => v.adjustable && has.has(v.key));
  const [vital, setVital] = useState(vitals[0]?.key ?? '');
  const [amount, setAmount] = useState('');
  const [err, setErr] = useState<string | null>(null);
  if (vitals.length === 0) return null;
  const spec = vitals.find((v) => v.key === vital) ?? vitals[0]!;
  const go = (sign: 1 | -1) => {
    const n = Number(amount);
    if (!Number.isInteger(n) || n <= 0) return setErr('Give a whole number of at least 1.');
    setErr(null);
    // harm lowers a `down` vital (hit points) and raises an `up` one (a damage track, fatigue)
    const what =
      spec.direction === 'down'
        ? `${c.name}: ${n} ${spec.label} ${sign > 0 ? 'damage' : 'healed'}`
        : `${c.name}: ${sign > 0 ? '+' : '−'}${n} ${spec.label}`;
    void send({ type: 'combatant.adjust', combatantId: c.id, vital: spec.key, amount: sign * n, label: what }, `${what}.`);
    setAmount('');
  };
  const id = `adj-${c.id}`;
  return (
    <form className="adjust row" aria-label={`Damage or heal ${c.name}`} onSubmit={(e) => (e.preventDefault(), go(1))}>
      {vitals.length > 1 ? (
        <>
          <label htmlFor={`${id}-vital`} className="sr-only">
            Vital of {c.name}
          </label>
          <select id={`${id}-vital`} value={spec.key} onChange={(e) => setVital(e.target.value)}>
            {vitals.map((v) => (
              <option key={v.key} value={v.key}>
                {v.short}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label htmlFor={`${id}-n`} className="sr-only">
        Amount of {spec.label} for {c.name}
      </label>
      <input
        id={`${id}-n`}
        className="narrow"
        type="number"
        min={1}
        inputMode="numeric"
        placeholder={spec.short}
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <button type="submit" aria-label={`Damage ${c.name} (${spec.label})`}>
        − Damage
      </button>
      <button type="button" onClick={() => go(-1)} aria-label={`Heal ${c.name} (${spec.label})`}>
        + Heal
      </button>
      {err ? (
        <span className="field-error" role="alert">
          ✕ {err}
        </span>
      ) : null}
    </form>
  );
}
