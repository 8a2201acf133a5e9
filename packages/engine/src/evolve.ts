import { current, isDraft } from 'mutative';
import { draftWriter, type Writer } from './writer.js';
import type { Clock, Combatant, EncounterState, Effect, EngineEvent, ForcedRoll, ReactionWindow, RollRecord, Ruleset } from './types.js';
import { countDraws, evolveDice } from './commit-commands.js';

const RECENT_ROLLS = 16;

/** The event types `evolve` handles itself; none but `dice.forced` and `dice.rolled` touch `forcedRolls`. */
export const CORE_EVENTS = new Set([
  'combatant.added',
  'combatant.removed',
  'combatant.updated',
  'combatant.placed',
  'effect.applied',
  'effect.removed',
  'effect.expired',
  'combat.started',
  'combat.ended',
  'clock.changed',
  'dice.rolled',
  'dice.forced',
  'dice.overridden',
  'reaction.opened',
  'reaction.responded',
  'reaction.closed',
]);

type DiceRolled = {
  type: 'dice.rolled';
  rngAfter: number[];
  rollId: string;
  formula: string;
  total: number;
  purpose: string;
  combatantId: string | null;
  forcedIndex?: number;
  draw?: number;
  drawn?: number;
};
/** The core's events as `evolve` reads them: what core.ts, ctx.ts and map.ts emit (and a log holds). */
type CoreEvent = { gmOnly?: boolean } & (
  | { type: 'combatant.added'; combatant: Combatant }
  | { type: 'combatant.removed'; combatantId: string }
  | { type: 'combatant.updated'; combatantId: string; changes: Partial<Combatant> }
  | { type: 'combatant.placed'; combatantId: string; position: unknown }
  | { type: 'effect.applied'; effect: Effect }
  | { type: 'effect.removed' | 'effect.expired'; effectId: string }
  | { type: 'combat.started' | 'combat.ended' | 'reaction.closed' }
  | { type: 'map.changed'; map: unknown }
  | { type: 'encounter.gmRollsChanged'; secret: boolean }
  | ({ type: 'clock.changed' } & Partial<Clock>)
  | DiceRolled
  | { type: 'dice.forced'; forced: ForcedRoll }
  | { type: 'dice.overridden'; rollId: string; total: number }
  | { type: 'reaction.opened'; window: ReactionWindow }
  | { type: 'reaction.responded'; combatantId: string; response: 'passed' | 'reacted' }
);

/**
 * Apply one event to a draft (or to a copy-on-write working state, with its writer). Core events
 * are handled here; the rest go to the ruleset.
 */
export function evolve<RS>(ruleset: Ruleset<RS>, s: EncounterState<RS>, e: EngineEvent, w: Writer = draftWriter): void {
  // the one boundary: an event of a core type has the core's shape (its emitters above; a log holds what they emitted)
  const ce = e as CoreEvent;
  switch (ce.type) {
    case 'combatant.added': {
      const c = w.adopt(ce.combatant);
      s.combatants[c.id] = c;
      if (!s.sides[c.side]) w.own<EncounterState['sides']>(s, 'sides')[c.side] = { id: c.side, name: c.side };
      return;
    }
    case 'combatant.removed':
      removeCombatant(s, ce.combatantId, w);
      return;
    case 'combatant.updated': {
      const c = s.combatants[ce.combatantId]!;
      w.changed(c);
      // the event's values go into the state as they are (the draft path did the same)
      for (const v of Object.values(ce.changes)) w.adopt(v);
      Object.assign(c, ce.changes);
      if (!s.sides[c.side]) w.own<EncounterState['sides']>(s, 'sides')[c.side] = { id: c.side, name: c.side };
      return;
    }
    case 'combatant.placed':
      w.changed(s.combatants[ce.combatantId]!);
      s.combatants[ce.combatantId]!.position = w.adopt(ce.position);
      return;
    case 'effect.applied':
      w.own<EncounterState['effects']>(s, 'effects').push(w.adopt(ce.effect));
      return;
    case 'effect.removed':
    case 'effect.expired':
      s.effects = s.effects.filter((x) => x.id !== ce.effectId);
      return;
    case 'combat.started':
      s.status = 'active';
      return;
    case 'map.changed':
      s.options = w.adopt({ ...s.options, map: ce.map });
      return;
    case 'encounter.gmRollsChanged':
      s.options = w.adopt({ ...s.options, gmRollsSecret: ce.secret === true });
      return;
    case 'combat.ended':
      s.status = 'ended';
      s.clock.current = null;
      s.reaction = null;
      return;
    case 'clock.changed': {
      const { type: _t, gmOnly: _g, ...changes } = ce;
      for (const v of Object.values(changes)) w.adopt(v);
      Object.assign(s.clock, changes);
      return;
    }
    case 'dice.rolled':
      recordRoll(s, ce, w);
      return;
    case 'dice.forced':
      w.own<EncounterState['forcedRolls']>(s, 'forcedRolls').push(w.adopt(ce.forced));
      return;
    case 'dice.overridden':
      overrideRoll(s, ce, w);
      return;
    case 'reaction.opened':
      s.reaction = w.adopt(ce.window);
      return;
    case 'reaction.responded':
      if (s.reaction) w.own<ReactionWindow['responses']>(w.own<ReactionWindow>(s, 'reaction'), 'responses')[ce.combatantId] = ce.response;
      return;
    case 'reaction.closed':
      s.reaction = null;
      return;
    default:
      if (!evolveDice(s, e, w) && !ruleset.evolve(s, e, w)) throw new Error(`Unknown event type "${e.type}"`);
  }
}

/** `combatant.removed`: the combatant, its effects, its place in the order and in an open window go. */
function removeCombatant<RS>(s: EncounterState<RS>, id: string, w: Writer): void {
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
function recordRoll<RS>(s: EncounterState<RS>, e: DiceRolled & { gmOnly?: boolean }, w: Writer): void {
  s.rng = e.rngAfter;
  if (typeof e.draw === 'number') countDraws(s, e, w);
  if (typeof e.forcedIndex === 'number') w.own<EncounterState['forcedRolls']>(s, 'forcedRolls').splice(e.forcedIndex, 1);
  const rec: RollRecord = {
    id: e.rollId,
    formula: e.formula,
    total: e.total,
    purpose: e.purpose,
    combatantId: e.combatantId ?? null,
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
  if (w === draftWriter) Object.freeze(next);
  s.rolls = next;
}

/** `dice.overridden`: the GM changed a roll's total. */
function overrideRoll<RS>(s: EncounterState<RS>, e: { rollId: string; total: number }, w: Writer): void {
  const rolls = w.own<RollRecord[]>(s, 'rolls');
  const i = rolls.findIndex((x) => x.id === e.rollId);
  if (i >= 0) {
    const r = w.own<RollRecord>(rolls, i);
    r.total = e.total;
    r.overridden = true;
  }
}
