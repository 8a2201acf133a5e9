import { nameOf } from './describe.js';
import { sentence, vitalsOf, type RulesetDisplay } from './display.js';
import { at, isRecord, isString } from './guards.js';
import type { OwnCommand } from './live.js';
import { effectNames, rollText, story, type Reader } from './story.js';
import type { EncounterState, LogEntry } from './types.js';

/**
 * What a player needs to follow the fight (docs/web.md, "Player view"): what their own command did,
 * in the game's words; what they wait for; when they act; how the fight ended. Pure: from the
 * state, the log and the ruleset's display data only.
 */

/** What changes when the turn moves on: the branch (an undo), the status, the round, the phase, who acts. */
export function turnKey(state: EncounterState, branch: number): string {
  const c = state.clock;
  return `${branch}|${state.status}|${c.round}|${c.phase ?? ''}|${c.current ?? ''}`;
}

/**
 * The story of my last command and of what followed it (the GM's ruling, a reaction resolved), in
 * the game's words; empty when it came before `since` (the version the turn last moved on at) or
 * was undone. A command that tells nothing at the table says its label.
 */
export function ownResult(
  display: RulesetDisplay,
  state: EncounterState,
  log: LogEntry[],
  own: OwnCommand | null,
  branch: number,
  since: number,
  reader: Reader,
): string[] {
  if (!own || own.branch !== branch || own.entry.seq < since) return [];
  const after = log.filter((e) => e.seq >= own.entry.seq);
  const entries = after.some((e) => e.seq === own.entry.seq) ? after : [own.entry, ...after];
  const told = story(display, { state, effects: effectNames(log) }, entries, reader);
  const lines = told.flatMap((t) => t.lines.map((l) => (l.kind === 'roll' ? rollText(l.roll, l.full) : l.text)));
  return lines.length > 0 ? lines : [`${own.label}: done.`];
}

/** Whether an entry of a ruling's list names one of these combatants (any of its fields). */
const names = (entry: Record<string, unknown>, mine: (id: string) => boolean): boolean =>
  Object.values(entry).some((v) => isString(v) && mine(v));

/**
 * What my combatants wait for: others who may react in the open window (the GM's NPCs or other
 * players), and the GM's rulings about them (e.g. a pending attack). `blocks`: the turn cannot end
 * until it is settled (an open reaction window).
 */
export function waitingFor(
  display: RulesetDisplay,
  state: EncounterState,
  mine: (id: string) => boolean,
): { lines: string[]; rulings: string[]; blocks: boolean } {
  const lines: string[] = [];
  const rulings: string[] = [];
  const w = state.reaction;
  if (w) {
    const others = w.eligible.filter((id) => !mine(id) && w.responses[id] === 'pending');
    const gm = others.filter((id) => !state.combatants[id]?.controller);
    const players = others.filter((id) => state.combatants[id]?.controller);
    if (gm.length > 0) lines.push(`Waiting for the GM: ${gm.map((id) => nameOf(state, id)).join(', ')} may react.`);
    if (players.length > 0) lines.push(`Waiting for ${players.map((id) => nameOf(state, id)).join(', ')} to react.`);
    if (others.length === 0) lines.push('Waiting for the GM to resolve the reactions.');
  }
  for (const r of display.rulings ?? []) {
    const list = at(state.rs, r.list);
    for (const entry of Array.isArray(list) ? list : []) {
      if (!isRecord(entry) || !names(entry, mine)) continue;
      const text = sentence({ ...display, events: { ruling: r.text } }, { state }, { ...entry, type: 'ruling' });
      rulings.push(`Waiting for the GM to rule (${r.title.toLowerCase()})${text ? `: ${text}` : '.'}`);
    }
  }
  return { lines: [...lines, ...rulings], rulings, blocks: w !== null && w !== undefined };
}

const ordinal = (n: number): string => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};

/**
 * When my next combatant acts, from the turn order: "You're next", or who acts just before and how
 * many turns away; null when none of mine is in the order (or combat is not on).
 */
export function upNext(state: EncounterState, mine: (id: string) => boolean): string | null {
  const { order, current } = state.clock;
  if (state.status !== 'active' || order.length === 0) return null;
  const from = current ? order.indexOf(current) : -1;
  for (let step = 1; step <= order.length; step++) {
    const id = order[(from + step + order.length) % order.length]!;
    if (!mine(id) || id === current) continue;
    if (step === 1) return `You're next (${nameOf(state, id)}).`;
    const before = order[(from + step - 1 + order.length) % order.length]!;
    return `${nameOf(state, id)} acts after ${nameOf(state, before)} (${ordinal(step)} from now).`;
  }
  return null;
}

/** The end of the fight: who still stands and who is down (a vital at its threshold, in the ruleset's words). */
export function fightOver(
  display: RulesetDisplay,
  state: EncounterState,
  numbers: (id: string) => boolean,
): { standing: string[]; down: string[] } {
  const standing: string[] = [];
  const down: string[] = [];
  for (const c of Object.values(state.combatants)) {
    const hurt = vitalsOf(display, state, c, numbers(c.id)).filter((v) => v.status);
    if (hurt.length === 0) standing.push(c.name);
    else down.push(`${c.name} (${hurt.map((v) => v.status).join(', ')})`);
  }
  return { standing, down };
}
