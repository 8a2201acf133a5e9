import { formatDuration, formatFaces, nameOf, rollOf, type RollView } from './describe.js';
import { sentence, type Names, type RulesetDisplay } from './display.js';
import { effectOf, eventsOf } from './events.js';
import { at, stringsOf, textAt } from './guards.js';
import type { EngineEvent, LogEntry } from './types.js';

/**
 * The log as the table tells it: per command, one line per event that means something at the
 * table (in the ruleset's words, see display.ts), and the rolls. Bookkeeping events stay in the
 * GM's engine log.
 */

export type StoryLine = { kind: 'text'; text: string; secret: boolean } | { kind: 'roll'; roll: RollView; full: boolean };

export interface StoryEntry {
  seq: number;
  lines: StoryLine[];
  /** a line the log adds between entries (a GM's rewind: rewinds.ts), with its own key */
  key?: string;
  rewind?: boolean;
}

/** Who reads: the GM (every roll in full), a player (their own combatants' rolls in full), a spectator. */
export interface Reader {
  role: 'gm' | 'player' | 'spectator';
  mine: (combatantId: string) => boolean;
}

/** Effects by id, from every `effect.applied` in the log: the ended ones are gone from the state. */
export function effectNames(log: LogEntry[]): Map<string, { name: string; targetId: string | null }> {
  const m = new Map<string, { name: string; targetId: string | null }>();
  for (const entry of log) {
    for (const e of eventsOf(entry)) {
      if (e.type === 'effect.applied') {
        const eff = effectOf(e.effect);
        m.set(eff.id, { name: eff.condition ?? eff.name, targetId: eff.targetId });
      }
    }
  }
  return m;
}

/** The engine's own events in the table's words; null for bookkeeping. */
export function coreSentence(names: Names, e: EngineEvent): string | null {
  const state = names.state;
  switch (e.type) {
    case 'combat.started':
      return 'The fight begins.';
    case 'encounter.gmRollsChanged':
      return e.secret ? 'GM rolls are now secret by default.' : 'GM rolls are now public by default.';
    case 'combat.ended':
      return `The fight is over${e.reason ? ` (${String(e.reason)})` : ''}.`;
    case 'combatant.added': {
      return `${textAt(e, 'combatant.name') ?? nameOf(state, e.combatantId)} joins the fight.`;
    }
    case 'combatant.removed':
      return `${nameOf(state, e.combatantId)} leaves the fight.`;
    case 'combatant.updated': {
      const renamed = textAt(e, 'changes.name');
      if (at(e, 'changes.hidden') === false) return `${nameOf(state, e.combatantId)} appears.`;
      if (renamed) return `${renamed} is now known by that name.`;
      return null;
    }
    case 'effect.applied': {
      const eff = effectOf(e.effect);
      const who = eff.targetId ? nameOf(state, eff.targetId) : 'The field';
      return eff.condition
        ? `${who} is ${eff.condition} (${formatDuration(eff.duration)}).`
        : `${eff.name} on ${who} (${formatDuration(eff.duration)}).`;
    }
    case 'effect.removed':
    case 'effect.expired': {
      const eff = names.effects?.get(String(e.effectId));
      if (!eff) return null;
      return `${eff.targetId ? nameOf(state, eff.targetId) : 'The field'} is no longer ${eff.name}${e.type === 'effect.expired' ? ' (it wore off)' : ''}.`;
    }
    case 'dice.overridden':
      return `The GM changes a roll from ${String(e.previousTotal)} to ${String(e.total)}${e.reason ? ` (${String(e.reason)})` : ''}.`;
    case 'reaction.opened': {
      return `${textAt(e, 'window.trigger.description') ?? 'Something happens'}: ${
        stringsOf(at(e, 'window.eligible'))
          .map((id) => nameOf(state, id))
          .join(', ') || 'no one'
      } may react.`;
    }
    case 'reaction.responded':
      return `${nameOf(state, e.combatantId)} ${e.response === 'passed' ? 'does not react' : 'reacts'}.`;
    default:
      return null;
  }
}

/**
 * The event with `$numbers`: whether this reader sees its subject's numbers (the GM, or the controller of the
 * target, else of the combatant), so that a ruleset's sentence can keep a vital's total to those who see it
 * in the bars (engine display.ts, `EventSentence`).
 */
function withNumbers(e: EngineEvent, reader: Reader): EngineEvent {
  const subject = typeof e.targetId === 'string' ? e.targetId : e.combatantId;
  return { ...e, $numbers: reader.role === 'gm' || (typeof subject === 'string' && reader.mine(subject)) };
}

/** One entry per command, newest last; entries with nothing to tell are left out. */
export function story(display: RulesetDisplay, names: Names, log: LogEntry[], reader: Reader): StoryEntry[] {
  const quiet = new Set(display.quiet ?? []);
  const out: StoryEntry[] = [];
  for (const entry of log) {
    const lines: StoryLine[] = [];
    for (const e of eventsOf(entry)) {
      if (e.type === 'dice.rolled') {
        const roll = rollOf(names.state, e)!;
        const own = typeof e.combatantId === 'string' && reader.mine(e.combatantId);
        lines.push({ kind: 'roll', roll, full: reader.role === 'gm' || own });
        continue;
      }
      if (quiet.has(e.type)) continue;
      const text = sentence(display, names, withNumbers(e, reader)) ?? coreSentence(names, e);
      if (text) lines.push({ kind: 'text', text, secret: e.gmOnly === true });
    }
    if (lines.length) out.push({ seq: entry.seq, lines });
  }
  return out;
}

/** A roll in words: formula, dice and total in full; else who rolled for what and the total. */
export function rollText(r: RollView, full: boolean): string {
  return full ? `${r.who}: ${r.purpose} — ${r.formula} [${formatFaces(r.faces)}] = ${r.total}` : `${r.who}: ${r.purpose} — ${r.total}`;
}
