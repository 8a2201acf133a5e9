import { hasExactKeys, sameShallow } from '@fray/engine';
import type { Data, RS } from '../state.js';

/**
 * The ruleset's own shallow copies and comparisons of a combatant's data and of `rs`, for the
 * copy-on-write path (see the engine's `Ruleset.copyRs` and `Writer.own`): named reads and writes at
 * sites of the ruleset's own stay monomorphic, where the engine's shared sites see every shape.
 */

/** The keys of a combatant's data, in the order `initCombatant` gives them. */
export const DATA_KEYS: readonly string[] = [
  'hp',
  'aware',
  'initiative',
  'tiebreak',
  'tieRoll',
  'apBudget',
  'ap',
  'apSpentThisRound',
  'apThisPhase',
  'stopped',
  'delayUntil',
  'freeThisPhase',
  'freeThisRound',
  'reactionsThisPhase',
  'aooThisRound',
  'attacksThisRound',
  'simpleThisRound',
  'escapesThisRound',
  'actedThisRound',
  'fullRoundThisRound',
  'freeStepUsed',
  'inProgress',
  'ready',
  'forfeitedRound',
  'nocked',
  'nockedAt',
  'unloaded',
];
const copyDataLiteral = (d: Data): Data => ({
  hp: d.hp,
  aware: d.aware,
  initiative: d.initiative,
  tiebreak: d.tiebreak,
  tieRoll: d.tieRoll,
  apBudget: d.apBudget,
  ap: d.ap,
  apSpentThisRound: d.apSpentThisRound,
  apThisPhase: d.apThisPhase,
  stopped: d.stopped,
  delayUntil: d.delayUntil,
  freeThisPhase: d.freeThisPhase,
  freeThisRound: d.freeThisRound,
  reactionsThisPhase: d.reactionsThisPhase,
  aooThisRound: d.aooThisRound,
  attacksThisRound: d.attacksThisRound,
  simpleThisRound: d.simpleThisRound,
  escapesThisRound: d.escapesThisRound,
  actedThisRound: d.actedThisRound,
  fullRoundThisRound: d.fullRoundThisRound,
  freeStepUsed: d.freeStepUsed,
  inProgress: d.inProgress,
  ready: d.ready,
  forfeitedRound: d.forfeitedRound,
  nocked: d.nocked,
  nockedAt: d.nockedAt,
  unloaded: d.unloaded,
});
const copyDataSpread = (d: Data): Data => ({ ...d });
/**
 * A shallow copy of a combatant's data for the copy-on-write path (`Writer.own`): field by field when
 * it has exactly `DATA_KEYS` (a site of the ruleset's own; the engine's shared spread site sees every
 * shape the data had and is several times slower), else a spread.
 */
export function copyData(d: Data): Data {
  return hasExactKeys(d, DATA_KEYS) ? copyDataLiteral(d) : copyDataSpread(d);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.hp === o.hp &&
  c.aware === o.aware &&
  c.initiative === o.initiative &&
  c.tiebreak === o.tiebreak &&
  c.tieRoll === o.tieRoll &&
  c.apBudget === o.apBudget &&
  c.ap === o.ap &&
  c.apSpentThisRound === o.apSpentThisRound &&
  c.apThisPhase === o.apThisPhase &&
  c.stopped === o.stopped &&
  c.delayUntil === o.delayUntil &&
  c.freeThisPhase === o.freeThisPhase &&
  c.freeThisRound === o.freeThisRound &&
  c.reactionsThisPhase === o.reactionsThisPhase &&
  c.aooThisRound === o.aooThisRound &&
  c.attacksThisRound === o.attacksThisRound &&
  c.simpleThisRound === o.simpleThisRound &&
  c.escapesThisRound === o.escapesThisRound &&
  c.actedThisRound === o.actedThisRound &&
  c.fullRoundThisRound === o.fullRoundThisRound &&
  c.freeStepUsed === o.freeStepUsed &&
  c.inProgress === o.inProgress &&
  c.ready === o.ready &&
  c.forfeitedRound === o.forfeitedRound &&
  c.nocked === o.nocked &&
  c.nockedAt === o.nockedAt &&
  c.unloaded === o.unloaded;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: Data, o: Data): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c, o);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = [
  'round',
  'surprise',
  'regularRound',
  'combatTurn',
  'phaseIdx',
  'cursor',
  'intents',
  'readyQueue',
  'seq',
];
const copyRsLiteral = (v: RS): RS => ({
  round: v.round,
  surprise: v.surprise,
  regularRound: v.regularRound,
  combatTurn: v.combatTurn,
  phaseIdx: v.phaseIdx,
  cursor: v.cursor,
  intents: v.intents,
  readyQueue: v.readyQueue,
  seq: v.seq,
});
const copyRsSpread = (v: RS): RS => ({ ...v });
/**
 * A shallow copy of the ruleset state (`rs`) for the copy-on-write path: field by field when it has exactly
 * `RS_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyRs(v: RS): RS {
  return hasExactKeys(v, RS_KEYS) ? copyRsLiteral(v) : copyRsSpread(v);
}
const sameRsLiteral = (c: RS, o: RS): boolean =>
  c.round === o.round &&
  c.surprise === o.surprise &&
  c.regularRound === o.regularRound &&
  c.combatTurn === o.combatTurn &&
  c.phaseIdx === o.phaseIdx &&
  c.cursor === o.cursor &&
  c.intents === o.intents &&
  c.readyQueue === o.readyQueue &&
  c.seq === o.seq;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c, o);
}
