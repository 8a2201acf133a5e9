import { useMemo, useState } from 'react';
import type { RulesetDisplay } from '../lib/display.js';
import { rewindLine, withRewinds, type RewindNote } from '../lib/rewinds.js';
import { effectNames, rollText, story, type Reader, type StoryLine } from '../lib/story.js';
import type { EncounterState, LogEntry } from '../lib/types.js';
import { EventLog } from './EventLog.js';

function overridden(state: EncounterState | null, rollId: string) {
  const r = state?.rolls.find((x) => x.id === rollId && x.overridden);
  return r ? <span className="tag">overridden → {r.total}</span> : null;
}

/** One entry's lines: its sentences and its rolls. */
function EntryLines({ lines, state }: { lines: readonly StoryLine[]; state: EncounterState | null }) {
  return (
    <>
      {lines.map((l, i) =>
        l.kind === 'roll' ? (
          <p key={i} className="roll" data-testid="story-roll">
            <span aria-hidden="true">⚄ </span>
            {rollText(l.roll, l.full)}
            {l.roll.secret ? <span className="tag tag-secret">secret roll</span> : null}
            {l.roll.forced ? <span className="tag tag-secret">forced by GM</span> : null}
            {overridden(state, l.roll.rollId)}
          </p>
        ) : (
          <p key={i} className={l.secret ? 'gm-only' : undefined}>
            {l.text}
            {l.secret ? <span className="tag tag-secret">GM only</span> : null}
          </p>
        ),
      )}
    </>
  );
}

/**
 * The log in the game's words, for one reader (docs/web.md, "The log"). The GM has the engine's
 * log (every event, as the engine records it) one click away.
 */
export function StoryLog({
  state,
  log,
  rewinds = [],
  display,
  reader,
  limit = 200,
  current,
  onPick,
}: {
  state: EncounterState | null;
  log: LogEntry[];
  rewinds?: readonly RewindNote[];
  display: RulesetDisplay;
  reader: Reader;
  limit?: number;
  /** the replay's current version (its entry marked) */
  current?: number;
  /** the replay: each entry's version is a button that goes there */
  onPick?: (seq: number) => void;
}) {
  const [engine, setEngine] = useState(false);
  const entries = useMemo(() => {
    const names = { state, effects: effectNames(log) };
    return withRewinds(story(display, names, log, reader), rewinds, (note) => rewindLine(display, names, note, log, reader));
  }, [display, state, log, rewinds, reader]);
  const shown = entries.slice(-limit).reverse();
  return (
    <div>
      {reader.role === 'gm' ? (
        <div className="row log-switch">
          <button type="button" aria-pressed={engine} onClick={() => setEngine(!engine)} data-testid="engine-log-toggle">
            {engine ? 'Show the story' : 'Show the engine log'}
          </button>
        </div>
      ) : null}
      {engine ? (
        <EventLog state={state} log={log} />
      ) : (
        <div
          className="log story"
          data-testid="story-log"
          role="log"
          aria-live="polite"
          aria-relevant="additions"
          tabIndex={0}
          aria-label="What happened, newest first"
        >
          {shown.length === 0 ? <p className="muted">Nothing yet.</p> : null}
          <ol>
            {shown.map((entry) => (
              <li
                key={entry.key ?? entry.seq}
                className={entry.rewind ? 'entry rewind' : entry.seq === current ? 'entry current' : 'entry'}
                aria-current={!entry.rewind && entry.seq === current ? 'step' : undefined}
                data-testid={entry.rewind ? 'rewind-line' : undefined}
              >
                {onPick && !entry.rewind ? (
                  <button
                    type="button"
                    className="seq"
                    onClick={() => onPick(entry.seq)}
                    aria-label={`v${entry.seq}: go to version ${entry.seq}`}
                  >
                    v{entry.seq}
                  </button>
                ) : null}
                <EntryLines lines={entry.lines} state={state} />
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
