import { useState } from 'react';
import { OutcomeLine, type Outcome } from '../../components/Outcome.js';
import type { Live } from '../../lib/live.js';

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
