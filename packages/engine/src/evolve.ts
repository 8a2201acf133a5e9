import { current, isDraft } from 'mutative';
import { draftWriter, type Writer } from './writer.js';
import type { Combatant, EncounterState, EngineEvent, ReactionWindow, RollRecord, Ruleset } from './types.js';
import { countDraws, evolveDice } from './commit-commands.js';

const RECENT_ROLLS = 16;

/** The event types `evolve` handles itself; none but `dice.forced` and `dice.rolled` touch `forcedRolls`. */
export const CORE_EVENTS = new Set([
  'combatant.added', 'combatant.removed', 'combatant.updated', 'combatant.placed', 'effect.applied', 'effect.removed',
  'effect.expired', 'combat.started', 'combat.ended', 'clock.changed', 'dice.rolled', 'dice.forced', 'dice.overridden',
  'reaction.opened', 'reaction.responded', 'reaction.closed',
]);

/**
 * Apply one event to a draft (or to a copy-on-write working state, with its writer). Core events
 * are handled here; the rest go to the ruleset.
 */
export function evolve<RS>(ruleset: Ruleset<RS>, s: EncounterState<RS>, e: EngineEvent, w: Writer = draftWriter): void {
  switch (e.type) {
    case 'combatant.added': {
      const c = w.adopt(e.combatant as Combatant);
      s.combatants[c.id] = c as never;
      if (!s.sides[c.side]) w.own<EncounterState['sides']>(s, 'sides')[c.side] = { id: c.side, name: c.side };
      return;
    }
    case 'combatant.removed':
      removeCombatant(s, e, w);
      return;
    case 'combatant.updated': {
      const c = s.combatants[e.combatantId as string]!;
      w.changed(c);
      // the event's values go into the state as they are (the draft path did the same)
      for (const v of Object.values(e.changes as object)) w.adopt(v);
      Object.assign(c, e.changes as object);
      if (!s.sides[c.side]) w.own<EncounterState['sides']>(s, 'sides')[c.side] = { id: c.side, name: c.side };
      return;
    }
    case 'combatant.placed':
      w.changed(s.combatants[e.combatantId as string]!);
      s.combatants[e.combatantId as string]!.position = w.adopt(e.position);
      return;
    case 'effect.applied':
      w.own<EncounterState['effects']>(s, 'effects').push(w.adopt(e.effect) as never);
      return;
    case 'effect.removed':
    case 'effect.expired':
      s.effects = s.effects.filter((x) => x.id !== e.effectId);
      return;
    case 'combat.started':
      s.status = 'active';
      return;
    case 'map.changed':
      s.options = w.adopt({ ...s.options, map: e.map });
      return;
    case 'encounter.gmRollsChanged':
      s.options = w.adopt({ ...s.options, gmRollsSecret: e.secret === true });
      return;
    case 'combat.ended':
      s.status = 'ended';
      s.clock.current = null;
      s.reaction = null;
      return;
    case 'clock.changed': {
      const { type: _t, gmOnly: _g, ...changes } = e;
      for (const v of Object.values(changes)) w.adopt(v);
      Object.assign(s.clock, changes);
      return;
    }
    case 'dice.rolled':
      recordRoll(s, e, w);
      return;
    case 'dice.forced':
      w.own<EncounterState['forcedRolls']>(s, 'forcedRolls').push(w.adopt(e.forced) as never);
      return;
    case 'dice.overridden':
      overrideRoll(s, e, w);
      return;
    case 'reaction.opened':
      s.reaction = w.adopt(e.window as ReactionWindow);
      return;
    case 'reaction.responded':
      if (s.reaction) w.own<ReactionWindow['responses']>(w.own<ReactionWindow>(s, 'reaction'), 'responses')[e.combatantId as string] = e.response as 'passed' | 'reacted';
      return;
    case 'reaction.closed':
      s.reaction = null;
      return;
    default:
      if (!evolveDice(s, e, w) && !ruleset.evolve(s as never, e, w)) throw new Error(`Unknown event type "${e.type}"`);
  }
}

/** `combatant.removed`: the combatant, its effects, its place in the order and in an open window go. */
function removeCombatant<RS>(s: EncounterState<RS>, e: EngineEvent, w: Writer): void {
  const id = e.combatantId as string;
  delete s.combatants[id];
  s.effects = s.effects.filter((x) => x.targetId !== id);
  if (s.clock.order.includes(id)) s.clock.order = s.clock.order.filter((x) => x !== id);
  if (s.clock.current === id) s.clock.current = null;
  if (s.reaction?.eligible.includes(id)) {
    const r = w.own<ReactionWindow>(s, 'reaction');
    r.eligible = r.eligible.filter((x) => x !== id);
    delete w.own<ReactionWindow['responses']>(r, 'responses')[id];
  }
}

/** `dice.rolled`: the generator moves on, a forced roll is used up, the record joins the last few. */
function recordRoll<RS>(s: EncounterState<RS>, e: EngineEvent, w: Writer): void {
  s.rng = e.rngAfter as number[];
  if (typeof e.draw === 'number') countDraws(s, e, w);
  if (typeof e.forcedIndex === 'number') w.own<EncounterState['forcedRolls']>(s, 'forcedRolls').splice(e.forcedIndex, 1);
  const rec: RollRecord = {
    id: e.rollId as string,
    formula: e.formula as string,
    total: e.total as number,
    purpose: e.purpose as string,
    combatantId: (e.combatantId as string | null) ?? null,
  };
  if (e.gmOnly) rec.gmOnly = true;
  // A plain view of the list: spreading the draft would make a draft of every record.
  const drafted = s.rolls;
  const rolls = isDraft(drafted) ? current(drafted) : drafted;
  // the last RECENT_ROLLS - 1 records and the new one, in one array (no slice and spread)
  const next: RollRecord[] = [];
  for (let i = rolls.length >= RECENT_ROLLS ? rolls.length - RECENT_ROLLS + 1 : 0; i < rolls.length; i++) next.push(rolls[i]!);
  next.push(rec);
  // Frozen, so that mutative takes the new list as it is when the command ends instead of
  // searching its 16 records for drafts (they hold none: plain records of the list before, and
  // the new one). A later change still goes through a draft, which copies it.
  s.rolls = (w === draftWriter ? Object.freeze(next) : next) as RollRecord[];
}

/** `dice.overridden`: the GM changed a roll's total. */
function overrideRoll<RS>(s: EncounterState<RS>, e: EngineEvent, w: Writer): void {
  const rolls = w.own<RollRecord[]>(s, 'rolls');
  const i = rolls.findIndex((x) => x.id === e.rollId);
  if (i >= 0) {
    const r = w.own<RollRecord>(rolls, i);
    r.total = e.total as number;
    r.overridden = true;
  }
}
