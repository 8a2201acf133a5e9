import type { VitalSpec } from '@fray/engine';
import { useEffect, useRef, useState } from 'react';
import { adjustableVitals, sendHarm } from '../../components/Vitals.js';
import { sentence, vitalsOf, type RulesetDisplay } from '../../lib/display.js';
import { harmAsks, type HarmAsk } from '../../lib/harm.js';
import { isRecord } from '../../lib/guards.js';
import type { EncounterState, LogEntry } from '../../lib/types.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/** A combatant's vitals as numbers, to see whether they moved. */
const vitalNumbers = (display: RulesetDisplay, state: EncounterState, id: string): string => {
  const c = state.combatants[id];
  return c
    ? vitalsOf(display, state, c, true)
        .map((v) => `${v.key}=${v.current}`)
        .join(',')
    : '';
};

/** The questions settled in this tab (by key), so a reload does not ask again. */
function useSettled(encounterId: string): [ReadonlySet<string>, (key: string) => void] {
  const storeKey = `fray.harm-settled.${encounterId}`;
  const [done, setDone] = useState<ReadonlySet<string>>(() => {
    try {
      const v: unknown = JSON.parse(sessionStorage.getItem(storeKey) ?? '[]');
      return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  });
  const settle = (key: string) =>
    setDone((d) => {
      const next = new Set([...d, key]);
      sessionStorage.setItem(storeKey, JSON.stringify([...next].slice(-50)));
      return next;
    });
  return [done, settle];
}

/** Which vital the harm goes to, when the combatant has several. */
function VitalPick({
  id,
  name,
  vitals,
  value,
  onPick,
}: {
  id: string;
  name: string;
  vitals: VitalSpec[];
  value: string;
  onPick: (k: string) => void;
}) {
  if (vitals.length < 2) return null;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        Which vital of {name}
      </label>
      <select id={id} value={value} onChange={(e) => onPick(e.target.value)}>
        {vitals.map((v) => (
          <option key={v.key} value={v.key}>
            {v.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** One question: what happened, the target's vital, the amount (prefilled when the event knows it), Damage / Heal / Nothing. */
function Ask({
  ask,
  display,
  state,
  send,
  settle,
}: {
  ask: HarmAsk;
  display: RulesetDisplay;
  state: EncounterState;
  send: Send;
  settle: () => void;
}) {
  const c = state.combatants[ask.targetId]!;
  const vitals = adjustableVitals(display, state, c);
  const [vital, setVital] = useState(vitals.find((v) => v.key === ask.vital)?.key ?? vitals[0]?.key ?? '');
  const [amount, setAmount] = useState(ask.amount === null ? '' : String(ask.amount));
  const [err, setErr] = useState<string | null>(null);
  const spec = vitals.find((v) => v.key === vital) ?? vitals[0];
  if (!spec) return null;
  const what = sentence(display, { state }, ask.event);
  const apply = async (sign: 1 | -1) => {
    const n = Number(amount);
    if (amount.trim() === '' || !Number.isInteger(n) || n < 1)
      return setErr(`Give the amount of ${spec.label}: a whole number of at least 1.`);
    setErr(null);
    const r = await sendHarm(send, c, spec, sign * n);
    if (isRecord(r) && r.ok === true) settle();
  };
  const id = `harm-${ask.key.replace(':', '-')}`;
  return (
    <form
      className="harm-ask"
      aria-label={`Damage or healing for ${c.name}`}
      data-testid="harm-ask"
      onSubmit={(e) => (e.preventDefault(), void apply(1))}
    >
      <p className="harm-q">
        <strong>Damage or healing?</strong> {what ?? `${c.name} was hit.`}
      </p>
      <div className="row">
        <span>To {c.name}:</span>
        <VitalPick id={`${id}-vital`} name={c.name} vitals={vitals} value={spec.key} onPick={setVital} />
        <label htmlFor={`${id}-n`} className="sr-only">
          Amount of {spec.label} for {c.name}
        </label>
        <input
          id={`${id}-n`}
          className="stepper-n"
          type="number"
          min={1}
          inputMode="numeric"
          placeholder={spec.short}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className="primary">
          Damage
        </button>
        <button type="button" onClick={() => void apply(-1)}>
          Heal
        </button>
        <button type="button" className="link" onClick={settle}>
          Nothing
        </button>
      </div>
      {err ? (
        <p className="field-error" role="alert">
          ✕ {err}
        </p>
      ) : null}
    </form>
  );
}

/**
 * After an event the rules leave to the GM (`display.harmPrompts`, e.g. a hit whose damage the
 * ruleset does not apply): "Damage or healing?" about its target, with the amount when known; one
 * click applies it (`combatant.adjust`) or says it did nothing.
 */
export function HarmAsks({
  display,
  state,
  log,
  encounterId,
  send,
}: {
  display: RulesetDisplay;
  state: EncounterState;
  log: LogEntry[];
  encounterId: string;
  send: Send;
}) {
  const [done, settle] = useSettled(encounterId);
  const asks = harmAsks(display, state, log, done);
  // answered elsewhere (the GM's other device, or the ± on the card): the target's vitals moved since it was first asked here
  const seen = useRef(new Map<string, string>());
  useEffect(() => {
    for (const a of asks) {
      const now = vitalNumbers(display, state, a.targetId);
      const was = seen.current.get(a.key);
      if (was === undefined) seen.current.set(a.key, now);
      else if (was !== now) settle(a.key);
    }
  });
  if (asks.length === 0) return null;
  return (
    <div className="harm-asks">
      {asks.map((a) => (
        <Ask key={a.key} ask={a} display={display} state={state} send={send} settle={() => settle(a.key)} />
      ))}
    </div>
  );
}
