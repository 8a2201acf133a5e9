import { useEffect, useState } from 'react';
import { phaseHint, phaseName, type RulesetDisplay } from '../../lib/display.js';
import type { LiveSnapshot } from '../../lib/live.js';
import { fightOver, ownResult, turnKey, upNext, waitingFor } from '../../lib/turn-flow.js';
import type { EncounterState } from '../../lib/types.js';

/** How long the result of a command made outside my turn stays up (in my turn it stays until the turn moves on). */
const OFF_TURN_MS = 12_000;

/** The version the turn last moved on at (the clock, the status, an undo): older results are stale. */
function useTurnMark(state: EncounterState, snap: LiveSnapshot): number {
  const key = turnKey(state, snap.branch);
  const [mark, setMark] = useState({ key, version: snap.version });
  if (mark.key !== key) {
    const next = { key, version: snap.version };
    setMark(next);
    return next.version;
  }
  return mark.version;
}

/**
 * What my last command did, in the game's words (the log's sentences of its events and of what
 * followed it in this turn, e.g. the GM's ruling): in the your-turn card while the turn lasts,
 * elsewhere for a few seconds. Nothing once the turn moves on, after an undo or at the end.
 */
export function OwnResult({
  snap,
  state,
  display,
  mine,
  inCard,
}: {
  snap: LiveSnapshot;
  state: EncounterState;
  display: RulesetDisplay;
  mine: (id: string) => boolean;
  inCard: boolean;
}) {
  const since = useTurnMark(state, snap);
  const [dismissed, setDismissed] = useState(-1);
  const seq = snap.lastOwn?.entry.seq ?? -1;
  useEffect(() => {
    if (inCard || seq < 0) return;
    const t = setTimeout(() => setDismissed(seq), OFF_TURN_MS);
    return () => clearTimeout(t);
  }, [inCard, seq]);
  if (state.status === 'ended' || seq <= dismissed) return null;
  const lines = ownResult(display, state, snap.log, snap.lastOwn, snap.branch, since, { role: 'player', mine });
  if (lines.length === 0) return null;
  return (
    <div className="ok own-result" role="status" data-testid="action-done">
      {lines.map((l, i) => (
        <p key={i}>{i === 0 ? `✓ ${l}` : l}</p>
      ))}
      {inCard ? null : (
        <button type="button" className="link" onClick={() => setDismissed(seq)} aria-label="Dismiss">
          ✕
        </button>
      )}
    </div>
  );
}

/** What my turn waits for (reactions of others, the GM's rulings), in plain words; outside my turn, the GM's rulings about mine. */
export function WaitingNote({
  state,
  display,
  mine,
  rulingsOnly = false,
}: {
  state: EncounterState;
  display: RulesetDisplay;
  mine: (id: string) => boolean;
  rulingsOnly?: boolean;
}) {
  const waiting = waitingFor(display, state, mine);
  const lines = rulingsOnly ? waiting.rulings : waiting.lines;
  if (lines.length === 0) return null;
  return (
    <div className="waiting" role="status" data-testid="waiting-note">
      {lines.map((l, i) => (
        <p key={i}>{l}</p>
      ))}
    </div>
  );
}

/** When my combatants act next (not in my turn). */
export function UpNext({ state, mine }: { state: EncounterState; mine: (id: string) => boolean }) {
  const text = upNext(state, mine);
  return text ? (
    <p className="up-next" data-testid="up-next">
      {text}
    </p>
  ) : null;
}

/** The fight is over: who stands, who is down. */
export function FightOver({
  state,
  display,
  numbers,
}: {
  state: EncounterState;
  display: RulesetDisplay;
  numbers: (id: string) => boolean;
}) {
  if (state.status !== 'ended') return null;
  const { standing, down } = fightOver(display, state, numbers);
  return (
    <section className="card fight-over" aria-labelledby="fight-over-h" data-testid="fight-over">
      <h2 id="fight-over-h">The fight is over</h2>
      <p>
        <strong>Still standing:</strong> {standing.join(', ') || 'no one'}
      </p>
      {down.length > 0 ? (
        <p>
          <strong>Down:</strong> {down.join(', ')}
        </p>
      ) : null}
    </section>
  );
}

/** A cue when my turn comes: the tab's title says so, and a phone vibrates (where it can). */
export function useTurnCue(myTurn: boolean, name: string | null): void {
  useEffect(() => {
    if (!myTurn) return;
    const before = document.title;
    document.title = `▶ Your turn${name ? `: ${name}` : ''} — ${before}`;
    if (typeof navigator.vibrate === 'function') navigator.vibrate([120, 60, 120]);
    return () => {
      document.title = before;
    };
  }, [myTurn, name]);
}

/** What to do in this phase, from the ruleset's display data (e.g. after declaring an intent, end the turn). */
export function PhaseHint({ state, display }: { state: EncounterState; display: RulesetDisplay }) {
  const hint = phaseHint(display, state.clock.phase);
  if (!hint || !state.clock.phase) return null;
  return (
    <p className="phase-hint" data-testid="phase-hint">
      <strong>{phaseName(display, state.clock.phase)}:</strong> {hint}
    </p>
  );
}
