import { describeEvent, formatFaces, rollOf } from '../lib/describe.js';
import { eventsOf } from '../lib/events.js';
import type { EncounterState, EngineEvent, LogEntry } from '../lib/types.js';

function RollLine({ state, e }: { state: EncounterState | null; e: EngineEvent }) {
  const r = rollOf(state, e)!;
  const overridden = state?.rolls.find((x) => x.id === r.rollId && x.overridden);
  return (
    <li className="roll" data-testid="roll">
      <span aria-hidden="true">⚄ </span>
      <span className="muted">{r.rollId}</span> <strong>{r.who}</strong>: {r.purpose} — <code>{r.formula}</code> rolled [
      {formatFaces(r.faces)}] = <strong>{r.total}</strong>
      {r.forced ? <span className="tag tag-secret">forced by GM</span> : null}
      {r.secret ? <span className="tag tag-secret">secret roll</span> : null}
      {overridden ? <span className="tag">overridden → {overridden.total}</span> : null}
    </li>
  );
}

export function EventLog({ state, log, limit }: { state: EncounterState | null; log: LogEntry[]; limit?: number }) {
  const visible = log.filter((e) => e.events.length > 0);
  const shown = limit ? visible.slice(-limit) : visible;
  return (
    <div
      className="log"
      data-testid="event-log"
      aria-live="polite"
      aria-relevant="additions"
      tabIndex={0}
      role="log"
      aria-label="Event log, newest first"
    >
      {shown.length === 0 ? <p className="muted">Nothing yet.</p> : null}
      <ol reversed>
        {[...shown].reverse().map((entry) => (
          <li key={entry.seq} className="entry">
            <span className="seq" aria-label={`version ${entry.seq}`}>
              #{entry.seq}
            </span>
            <ul>
              {eventsOf(entry).map((e, i) =>
                e.type === 'dice.rolled' ? (
                  <RollLine key={i} state={state} e={e} />
                ) : (
                  <li key={i} className={e.gmOnly ? 'gm-only' : undefined}>
                    {describeEvent(state, e)}
                    {e.gmOnly ? <span className="tag tag-secret">GM only</span> : null}
                  </li>
                ),
              )}
            </ul>
          </li>
        ))}
      </ol>
    </div>
  );
}
