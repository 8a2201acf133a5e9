import { useEffect, useState } from 'react';
import { FieldError } from '../../components/Outcome.js';
import { rollLabel } from '../../lib/describe.js';
import { recordOf } from '../../lib/guards.js';
import type { EncounterState } from '../../lib/types.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

function OverrideRoll({ state, send, setErr }: { state: EncounterState; send: Send; setErr: (e: string | null) => void }) {
  const rolls = [...state.rolls].reverse();
  const [rollId, setRollId] = useState('');
  const [total, setTotal] = useState('');
  const [reason, setReason] = useState('');
  const chosen = rollId || rolls[0]?.id || '';
  return (
    <form
      aria-label="Override a roll"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(total);
        if (!chosen) return setErr('There is no roll to override yet.');
        if (total.trim() === '' || !Number.isInteger(n)) return setErr('The new total must be a whole number.');
        setErr(null);
        const cmd: Record<string, unknown> = { type: 'dice.override', rollId: chosen, total: n };
        if (reason.trim()) cmd.reason = reason.trim();
        const roll = rolls.find((r) => r.id === chosen);
        void send(cmd, roll ? `${rollLabel(state, roll)}: now ${n}.` : `Roll changed to ${n}.`);
      }}
    >
      <div className="field">
        <label htmlFor="ov-roll">Recent roll</label>
        <select id="ov-roll" value={chosen} onChange={(e) => setRollId(e.target.value)}>
          {rolls.length === 0 ? <option value="">(no rolls yet)</option> : null}
          {rolls.map((r) => (
            <option key={r.id} value={r.id}>
              {rollLabel(state, r)}
            </option>
          ))}
        </select>
      </div>
      <div className="grid2">
        <div className="field">
          <label htmlFor="ov-total">New total</label>
          <input id="ov-total" type="number" value={total} onChange={(e) => setTotal(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="ov-reason">Reason (optional)</label>
          <input id="ov-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} />
        </div>
      </div>
      <button type="submit">Override roll</button>
    </form>
  );
}

/**
 * GM rolls are secret unless the GM says otherwise: a per-encounter option kept on the server
 * (`encounter.gmRolls`), so every device of the GM starts from it.
 */
function useSecretRolls(state: EncounterState, send: Send): [boolean, (v: boolean) => void] {
  const serverSecret = recordOf(state.options).gmRollsSecret !== false;
  const [secret, setSecretState] = useState(serverSecret);
  useEffect(() => setSecretState(serverSecret), [serverSecret]);
  const setSecret = (v: boolean) => {
    setSecretState(v);
    void send(
      { type: 'encounter.gmRolls', secret: v },
      v ? 'GM rolls are secret by default in this encounter.' : 'GM rolls are public by default in this encounter.',
    );
  };
  return [secret, setSecret];
}

function RollDice({ state, send, setErr }: { state: EncounterState; send: Send; setErr: (e: string | null) => void }) {
  const [formula, setFormula] = useState('1d20');
  const [purpose, setPurpose] = useState('');
  const [secret, setSecret] = useSecretRolls(state, send);
  const last = state.rolls.at(-1);
  return (
    <form
      aria-label="Roll dice"
      onSubmit={(e) => {
        e.preventDefault();
        if (!formula.trim() || !purpose.trim()) return setErr('Give a formula (e.g. 2d6+1) and what the roll is for.');
        setErr(null);
        void send(
          { type: 'dice.roll', formula: formula.trim(), purpose: purpose.trim(), ...(secret ? { secret: true } : {}) },
          `Rolled ${formula.trim()}.`,
        );
      }}
    >
      <div className="grid3">
        <div className="field">
          <label htmlFor="roll-formula">Formula</label>
          <input id="roll-formula" value={formula} onChange={(e) => setFormula(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="roll-purpose">For</label>
          <input id="roll-purpose" value={purpose} onChange={(e) => setPurpose(e.target.value)} placeholder="perception check" />
        </div>
        <div className="field field-boolean">
          <label htmlFor="roll-secret">Secret roll (GM only; the default in this encounter)</label>
          <input id="roll-secret" type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} />
        </div>
      </div>
      <button type="submit">Roll</button>
      {/* what the last roll gave, where the GM clicked (the log has it too) */}
      {last ? (
        <p className="muted" role="status" data-testid="last-roll">
          Last roll: {rollLabel(state, last)}
        </p>
      ) : null}
    </form>
  );
}

/** Override a recent roll, or roll dice (secret by the encounter's default). */
export function Dice({ state, send }: { state: EncounterState; send: Send }) {
  const [err, setErr] = useState<string | null>(null);
  return (
    <div>
      <OverrideRoll state={state} send={send} setErr={setErr} />
      <RollDice state={state} send={send} setErr={setErr} />
      <FieldError text={err} />
    </div>
  );
}
