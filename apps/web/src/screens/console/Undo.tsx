import { useState } from 'react';
import { OutcomeLine, type Outcome } from '../../components/Outcome.js';
import type { RulesetDisplay } from '../../lib/display.js';
import { commandLabel, type Live, type LiveSnapshot } from '../../lib/live.js';
import { isRecord } from '../../lib/guards.js';
import { navigate } from '../../lib/router.js';
import { effectNames, rollText, story } from '../../lib/story.js';
import type { EncounterState } from '../../lib/types.js';

const gmReader = { role: 'gm', mine: () => true } as const;

/** The command that made a version, in the game's words (the log's sentences), or its type when it said nothing at the table. */
export function wordsAt(snap: LiveSnapshot, state: EncounterState, display: RulesetDisplay, version: number): string[] {
  const last = snap.log.find((e) => e.seq === version);
  if (!last) return [];
  const told = story(display, { state, effects: effectNames(snap.log) }, [last], gmReader)[0];
  if (told) return told.lines.map((l) => (l.kind === 'roll' ? rollText(l.roll, true) : l.text));
  return isRecord(last.command) ? [commandLabel(last.command)] : [];
}

/**
 * "Undo the last command" (docs/timeline.md): one click, then a confirm that says what goes in the
 * game's words; a `timeline.rewind` to the version before it. Nothing is deleted: the undone
 * command stays on the branch the rewind leaves.
 */
export function UndoLast({
  live,
  snap,
  state,
  display,
}: {
  live: Live;
  snap: LiveSnapshot;
  state: EncounterState;
  display: RulesetDisplay;
}) {
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const words = wordsAt(snap, state, display, snap.version);
  // offered only when this version came from a command in this encounter's log: a fork's first
  // moment (its first snapshot, no command yet) or the very start has nothing to go back to, and
  // the server would refuse the rewind (UNKNOWN_VERSION, docs/timeline.md)
  const undoable = snap.version >= 1 && snap.log.some((e) => e.seq === snap.version);
  const undo = async () => {
    setAsking(false);
    const r = await live.send({ type: 'timeline.rewind', toVersion: snap.version - 1, label: 'Undo' });
    setOutcome(r.ok ? { ok: true, text: `Undone: ${words.join(' ') || 'the last command'}` } : { ok: false, error: r.error });
  };
  return (
    <div className="undo">
      {undoable ? (
        <button type="button" onClick={() => setAsking(true)} disabled={asking} data-testid="undo">
          ↶ Undo
        </button>
      ) : null}
      <a
        className="button"
        href={`/gm/e/${encodeURIComponent(state.id)}/replay`}
        onClick={(e) => (e.preventDefault(), navigate(`/gm/e/${encodeURIComponent(state.id)}/replay`))}
        data-testid="watch-replay"
      >
        ▶ Watch replay
      </a>
      {asking && undoable ? (
        <div role="alertdialog" aria-labelledby="undo-title" className="card undo-confirm" data-testid="undo-confirm">
          <p id="undo-title">
            <strong>Undo the last command?</strong>
          </p>
          {words.length > 0 ? (
            <ul data-testid="undo-what">
              {words.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          ) : (
            <p>The last change (version {snap.version}).</p>
          )}
          <p className="muted">Everyone goes back to how it was before. The log keeps what was undone.</p>
          <div className="row">
            <button type="button" className="primary" onClick={() => void undo()} data-testid="undo-yes">
              Undo it
            </button>
            <button type="button" onClick={() => setAsking(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : null}
      <OutcomeLine outcome={outcome} clear={() => setOutcome(null)} />
    </div>
  );
}
