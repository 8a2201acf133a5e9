import { useState } from 'react';
import { FieldError, OutcomeLine, type Outcome } from '../../components/Outcome.js';
import { isRecord } from '../../lib/guards.js';
import type { Live } from '../../lib/live.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/** The GM's turn timer: a turn ends by itself after this many seconds, or never. */
export function TurnTimer({ live }: { live: Live }) {
  const [seconds, setSeconds] = useState('60');
  const [msg, setMsg] = useState<Outcome>(null);
  const set = async (v: number | null) => {
    const r = await live.setTurnTimer(v);
    setMsg(
      r.ok ? { ok: true, text: v === null ? 'Turn timer off.' : `Turns end by themselves after ${v} s.` } : { ok: false, error: r.error },
    );
  };
  return (
    <form
      aria-label="Turn timer"
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(seconds);
        if (!Number.isInteger(n) || n < 5 || n > 3600)
          return setMsg({
            ok: false,
            error: { code: 'INVALID_REQUEST', message: 'The turn timer is a whole number of seconds from 5 to 3600.' },
          });
        void set(n);
      }}
    >
      <label htmlFor="turn-timer">Turn timer (s)</label>
      <input
        id="turn-timer"
        className="narrow"
        type="number"
        min={5}
        max={3600}
        value={seconds}
        onChange={(e) => setSeconds(e.target.value)}
      />
      <button type="submit">Set</button>
      <button type="button" onClick={() => void set(null)}>
        Off
      </button>
      <OutcomeLine outcome={msg} clear={() => setMsg(null)} />
    </form>
  );
}

/** Any command of the ruleset (GM rulings, ruleset-specific GM tools), as JSON. */
export function RawCommand({ commands, send }: { commands: string[]; send: Send }) {
  const [type, setType] = useState(commands[0] ?? '');
  const [body, setBody] = useState('{}');
  const [err, setErr] = useState<string | null>(null);
  return (
    <form
      aria-label="Send a ruleset command"
      onSubmit={(e) => {
        e.preventDefault();
        let fields: unknown;
        try {
          fields = JSON.parse(body || '{}');
        } catch {
          return setErr('The fields must be a JSON object, e.g. {"combatantId": "c1.1"}.');
        }
        if (!isRecord(fields)) return setErr('The fields must be a JSON object.');
        setErr(null);
        void send({ ...fields, type }, `${type} sent.`);
      }}
    >
      <div className="grid2">
        <div className="field">
          <label htmlFor="raw-type">Command</label>
          <select id="raw-type" value={type} onChange={(e) => setType(e.target.value)}>
            {commands.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="raw-body">Fields (JSON)</label>
          <textarea id="raw-body" rows={2} value={body} onChange={(e) => setBody(e.target.value)} />
        </div>
      </div>
      <button type="submit">Send command</button>
      <FieldError text={err} />
    </form>
  );
}
