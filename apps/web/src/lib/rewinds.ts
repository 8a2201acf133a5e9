import type { RewindNote } from '@fray/protocol';
import type { Names, RulesetDisplay } from './display.js';
import { eventsOf } from './events.js';
import { rollText, story, type Reader, type StoryEntry } from './story.js';
import type { LogEntry } from './types.js';

/**
 * The GM's rewinds in the game-words log (docs/timeline.md, docs/web.md "The log"): one line where
 * the fight went back to, for every viewer, with what was undone as that viewer saw it (the server
 * reads it for the viewer: a hidden combatant's doings never reach a player's note).
 */

export type { RewindNote };

/** The turn the fight was at after `version` (from the turn order's changes this viewer saw), in words. */
function whereAt(log: LogEntry[], version: number, names: Names): string {
  let round = 0;
  let current: unknown = null;
  let started = false;
  for (const entry of log) {
    if (entry.seq > version) break;
    for (const e of eventsOf(entry)) {
      if (e.type === 'combat.started') started = true;
      if (e.type !== 'clock.changed') continue;
      if (typeof e.round === 'number') round = e.round;
      if ('current' in e) current = e.current;
    }
  }
  if (!started) return 'to before the fight began';
  const who = typeof current === 'string' ? names.state?.combatants[current]?.name : undefined;
  if (round < 1) return who ? `to ${who}’s turn` : 'to an earlier moment';
  return who ? `to round ${round}, ${who}’s turn` : `to round ${round}`;
}

/** What a rewind undid, in the game's words for this reader ('' when the reader saw none of it). */
function undoneWords(display: RulesetDisplay, names: Names, note: RewindNote, reader: Reader): string {
  const told = story(display, names, note.undone, reader).flatMap((e) =>
    e.lines.map((l) => (l.kind === 'roll' ? rollText(l.roll, l.full) : l.text)),
  );
  if (told.length === 0) return '';
  const sentences = told.map((t) => (/[.!?…)]$/.test(t) ? t : `${t}.`));
  return sentences.join(' ') + (note.undoneCount > note.undone.length ? ' …' : '');
}

/** The line for one rewind. */
export function rewindLine(display: RulesetDisplay, names: Names, note: RewindNote, log: LogEntry[], reader: Reader): string {
  const what = undoneWords(display, names, note, reader);
  if (note.undoneCount === 1) return what ? `The GM undid the last action: ${what}` : 'The GM undid the last action.';
  const where = whereAt(log, note.toVersion, names);
  return `The GM rewound the fight ${where}, undoing ${note.undoneCount} actions${what ? `: ${what}` : '.'}`;
}

/** The story's entries with a line for each rewind, placed where the fight went back to. */
export function withRewinds(entries: StoryEntry[], notes: readonly RewindNote[], line: (note: RewindNote) => string): StoryEntry[] {
  if (notes.length === 0) return entries;
  const out = [...entries];
  for (const note of [...notes].sort((a, b) => a.toVersion - b.toVersion)) {
    const after = out.findLastIndex((e) => e.seq <= note.toVersion);
    out.splice(after + 1, 0, {
      seq: note.toVersion,
      key: `rewind-${note.branch}`,
      rewind: true,
      lines: [{ kind: 'text', text: line(note), secret: false }],
    });
  }
  return out;
}
