import { hasExactKeys, sameShallow, type Writer } from '@fray/engine';
import type { LCombatant, LData, LRS, TurnBudget } from '../state/index.js';

/**
 * The copy-on-write plumbing of evolve: a combatant's data and the ruleset state copied and compared field by field
 * (Ruleset.copyRs / sameRs), and the writers' shortcuts.
 */

/** The keys of a combatant's data, in the order it is built with. */
const DATA_KEYS: readonly string[] = [
  'surprised',
  'fatigue',
  'wounds',
  'stealth',
  'moveRollRound',
  'turn',
  'busyHands',
  'noMeleeUntilRound',
  'carriedBy',
  'forfeitRound',
  'turnRound',
  'bypassedRound',
];

const copyDataLiteral = (v: LData): LData => ({
  surprised: v.surprised,
  fatigue: v.fatigue,
  wounds: v.wounds,
  stealth: v.stealth,
  moveRollRound: v.moveRollRound,
  turn: v.turn,
  busyHands: v.busyHands,
  noMeleeUntilRound: v.noMeleeUntilRound,
  carriedBy: v.carriedBy,
  forfeitRound: v.forfeitRound,
  turnRound: v.turnRound,
  bypassedRound: v.bypassedRound,
});

const copyDataSpread = (v: LData): LData => ({ ...v });

/**
 * A shallow copy of a combatant's data for the copy-on-write path: field by field when it has exactly
 * `DATA_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyData(v: LData): LData {
  return hasExactKeys(v, DATA_KEYS) ? copyDataLiteral(v) : copyDataSpread(v);
}

const sameDataLiteral = (c: LData, o: LData): boolean =>
  c.surprised === o.surprised &&
  c.fatigue === o.fatigue &&
  c.wounds === o.wounds &&
  c.stealth === o.stealth &&
  c.moveRollRound === o.moveRollRound &&
  c.turn === o.turn &&
  c.busyHands === o.busyHands &&
  c.noMeleeUntilRound === o.noMeleeUntilRound &&
  c.carriedBy === o.carriedBy &&
  c.forfeitRound === o.forfeitRound &&
  c.turnRound === o.turnRound &&
  c.bypassedRound === o.bypassedRound;

/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
function sameData(c: LData, o: LData): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c, o);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = [
  'zones',
  'turnRolls',
  'queue',
  'lastOrder',
  'pending',
  'reactions',
  'groupMoves',
  'defense',
  'overflow',
  'forfeits',
  'touches',
  'touchLog',
  'offers',
  'customActions',
  'movers',
  'attacks',
];

const copyRsLiteral = (v: LRS): LRS => ({
  zones: v.zones,
  turnRolls: v.turnRolls,
  queue: v.queue,
  lastOrder: v.lastOrder,
  pending: v.pending,
  reactions: v.reactions,
  groupMoves: v.groupMoves,
  defense: v.defense,
  overflow: v.overflow,
  forfeits: v.forfeits,
  touches: v.touches,
  touchLog: v.touchLog,
  offers: v.offers,
  customActions: v.customActions,
  movers: v.movers,
  attacks: v.attacks,
});

const copyRsSpread = (v: LRS): LRS => ({ ...v });

/**
 * A shallow copy of the ruleset state (`rs`) for the copy-on-write path: field by field when it has exactly
 * `RS_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyRs(v: LRS): LRS {
  return hasExactKeys(v, RS_KEYS) ? copyRsLiteral(v) : copyRsSpread(v);
}

const sameRsLiteral = (c: LRS, o: LRS): boolean =>
  c.zones === o.zones &&
  c.turnRolls === o.turnRolls &&
  c.queue === o.queue &&
  c.lastOrder === o.lastOrder &&
  c.pending === o.pending &&
  c.reactions === o.reactions &&
  c.groupMoves === o.groupMoves &&
  c.defense === o.defense &&
  c.overflow === o.overflow &&
  c.forfeits === o.forfeits &&
  c.touches === o.touches &&
  c.touchLog === o.touchLog &&
  c.offers === o.offers &&
  c.customActions === o.customActions &&
  c.movers === o.movers &&
  c.attacks === o.attacks;

/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: LRS, o: LRS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c, o);
}

// Writes below a combatant's top level and below `rs`'s top level go through the writer (`own`):
// on the copy-on-write path they copy what they change (the mutative path's writer is a no-op).
export const dataOf = (w: Writer, c: LCombatant): LData => w.own<LData>(c, 'data', copyData, sameData);

export const turnOf = (w: Writer, c: LCombatant): TurnBudget => w.own<TurnBudget>(dataOf(w, c), 'turn');

export const part = <K extends keyof LRS>(w: Writer, rs: LRS, k: K): LRS[K] => w.own<LRS[K]>(rs, k);
