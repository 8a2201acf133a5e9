import { useRef, useState } from 'react';
import { DiceVerifyError, diceSummary, rollLine, verifyDice, type DiceReport, type RollStatus } from '@fray/client';
import type { Live } from '../lib/live.js';
import type { EncounterState } from '../lib/types.js';

/**
 * "Verify the dice" (docs/dice.md, "Verify"), for the GM and the players: before the reveal, the
 * commitment and when the dice become checkable; after it, the viewer's own log fetched from the
 * server and every roll recomputed in the browser from the revealed seed and the contributions,
 * against the commitment this page saw first.
 */

const TAG: Record<RollStatus, { text: string; className: string }> = {
  verified: { text: 'verified', className: 'tag tag-ok' },
  override: { text: 'GM override', className: 'tag tag-warn' },
  forced: { text: 'forced', className: 'tag tag-warn' },
  mismatch: { text: 'does not match', className: 'tag tag-bad' },
  unchecked: { text: 'could not check', className: 'tag' },
};

type Outcome = { report: DiceReport } | { error: string } | null;

function Report({ report }: { report: DiceReport }) {
  const notable = report.rolls.flatMap((r, i) => (r.status === 'verified' ? [] : [{ r, i }]));
  const all = report.rolls.map((r, i) => ({ r, i }));
  const list = (rows: typeof all) => (
    <ol className="dice-checks">
      {rows.map(({ r, i }) => (
        <li key={r.rollId} data-status={r.status}>
          <span className={TAG[r.status].className}>{TAG[r.status].text}</span> {rollLine(r, i)}
        </li>
      ))}
    </ol>
  );
  return (
    <div data-testid="dice-report">
      <p className={report.ok ? 'ok' : 'error'} role="status" data-testid="dice-summary">
        {report.ok ? '✓ ' : '✗ '}
        {diceSummary(report)}
      </p>
      {notable.length > 0 ? list(notable) : null}
      {report.rolls.length > 0 ? (
        <details className="sub">
          <summary>Every roll ({report.rolls.length})</summary>
          {list(all)}
        </details>
      ) : null}
    </div>
  );
}

export function VerifyDice({ live, state }: { live: Live; state: EncounterState }) {
  const dice = state.dice ?? null;
  // the commitment as this page first saw it: a later one cannot replace it unnoticed
  const first = useRef<string | null>(null);
  first.current ??= dice?.commitment ?? null;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  if (!dice)
    return (
      <p className="muted">
        This encounter’s dice were not committed (it was created before committed dice, or with a chosen seed): they cannot be checked.
      </p>
    );
  const commitment = (
    <p className="muted">
      Commitment (SHA-256 of the server’s secret seed): <code className="hash">{first.current ?? dice.commitment}</code>
    </p>
  );
  if (!dice.revealed) {
    return (
      <div data-testid="dice-verify">
        {commitment}
        <p data-testid="dice-not-yet">
          The dice will be checkable when combat ends: the server reveals its seed then, and this button checks every roll you saw.
        </p>
      </div>
    );
  }
  const revealed = dice.revealed;
  const check = async () => {
    setBusy(true);
    try {
      const log = await live.fetchLog();
      if (!log) return setOutcome({ error: 'Could not fetch the log from the server: try again once connected.' });
      setOutcome({ report: verifyDice(log, { seed: revealed.seed, salt: revealed.salt, commitment: first.current ?? dice.commitment }) });
    } catch (e) {
      setOutcome({
        error: e instanceof DiceVerifyError ? `The dice could not be checked: ${e.message}` : `The check failed: ${String(e)}`,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="dice-verify">
      {commitment}
      <button type="button" className="primary" onClick={() => void check()} disabled={busy} data-testid="verify-dice">
        {busy ? 'Checking…' : 'Verify the dice'}
      </button>
      {outcome && 'error' in outcome ? (
        <p className="error" role="alert">
          ✗ {outcome.error}
        </p>
      ) : null}
      {outcome && 'report' in outcome ? <Report report={outcome.report} /> : null}
    </div>
  );
}
