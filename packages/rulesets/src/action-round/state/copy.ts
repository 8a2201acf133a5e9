import { hasExactKeys, sameShallow } from '@fray/engine';
import { initialData } from './initial.js';
import type { Data, RS } from './types.js';

/** The keys of a combatant's data, in the order `initialData` gives them. */
const DATA_KEYS = Object.keys(initialData({ destiny: 0, fate: 0, corruption: 0 }));
const copyDataLiteral = (d: Data): Data => ({
  slots: d.slots,
  free: d.free,
  acted: d.acted,
  attackedThisTurn: d.attackedThisTurn,
  standardTaken: d.standardTaken,
  move: d.move,
  moved: d.moved,
  movedRound: d.movedRound,
  reactedSeq: d.reactedSeq,
  reactedCycle: d.reactedCycle,
  quickUsedThisTurn: d.quickUsedThisTurn,
  quickInReaction: d.quickInReaction,
  readied: d.readied,
  delaying: d.delaying,
  delayedSeq: d.delayedSeq,
  aim: d.aim,
  activeDefense: d.activeDefense,
  stance: d.stance,
  surgePending: d.surgePending,
  surgeDeferred: d.surgeDeferred,
  extraStandard: d.extraStandard,
  fatigue: d.fatigue,
  damage: d.damage,
  socialDamage: d.socialDamage,
  stress: d.stress,
  destiny: d.destiny,
  fate: d.fate,
  corruption: d.corruption,
  runStreak: d.runStreak,
  lastRunRound: d.lastRunRound,
  speedBonusRound: d.speedBonusRound,
  analyze: d.analyze,
  assistDegrees: d.assistDegrees,
  hunchAdvantage: d.hunchAdvantage,
  edges: d.edges,
  alternates: d.alternates,
  turnsTaken: d.turnsTaken,
  ammo: d.ammo,
  deathSaveFailures: d.deathSaveFailures,
  retry: d.retry,
});
const copyDataSpread = (d: Data): Data => ({ ...d });
/**
 * A shallow copy of a combatant's data for the copy-on-write path (`Writer.own`): field by field when
 * it has exactly the keys of `initialData` (a site of the ruleset's own; the engine's shared spread
 * site sees every shape the data had and is ~10x slower for these 40 fields), else a spread.
 */
export function copyData(d: Data): Data {
  return hasExactKeys(d, DATA_KEYS) ? copyDataLiteral(d) : copyDataSpread(d);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.slots === o.slots &&
  c.free === o.free &&
  c.acted === o.acted &&
  c.attackedThisTurn === o.attackedThisTurn &&
  c.standardTaken === o.standardTaken &&
  c.move === o.move &&
  c.moved === o.moved &&
  c.movedRound === o.movedRound &&
  c.reactedSeq === o.reactedSeq &&
  c.reactedCycle === o.reactedCycle &&
  c.quickUsedThisTurn === o.quickUsedThisTurn &&
  c.quickInReaction === o.quickInReaction &&
  c.readied === o.readied &&
  c.delaying === o.delaying &&
  c.delayedSeq === o.delayedSeq &&
  c.aim === o.aim &&
  c.activeDefense === o.activeDefense &&
  c.stance === o.stance &&
  c.surgePending === o.surgePending &&
  c.surgeDeferred === o.surgeDeferred &&
  c.extraStandard === o.extraStandard &&
  c.fatigue === o.fatigue &&
  c.damage === o.damage &&
  c.socialDamage === o.socialDamage &&
  c.stress === o.stress &&
  c.destiny === o.destiny &&
  c.fate === o.fate &&
  c.corruption === o.corruption &&
  c.runStreak === o.runStreak &&
  c.lastRunRound === o.lastRunRound &&
  c.speedBonusRound === o.speedBonusRound &&
  c.analyze === o.analyze &&
  c.assistDegrees === o.assistDegrees &&
  c.hunchAdvantage === o.hunchAdvantage &&
  c.edges === o.edges &&
  c.alternates === o.alternates &&
  c.turnsTaken === o.turnsTaken &&
  c.ammo === o.ammo &&
  c.deathSaveFailures === o.deathSaveFailures &&
  c.retry === o.retry;
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
  'freeActionLimit',
  'roundSeconds',
  'turnSeq',
  'areaPowerUsed',
  'rulings',
  'attitudes',
  'lastCheck',
  'interrupted',
];
const copyRsLiteral = (v: RS): RS => ({
  freeActionLimit: v.freeActionLimit,
  roundSeconds: v.roundSeconds,
  turnSeq: v.turnSeq,
  areaPowerUsed: v.areaPowerUsed,
  rulings: v.rulings,
  attitudes: v.attitudes,
  lastCheck: v.lastCheck,
  interrupted: v.interrupted,
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
  c.freeActionLimit === o.freeActionLimit &&
  c.roundSeconds === o.roundSeconds &&
  c.turnSeq === o.turnSeq &&
  c.areaPowerUsed === o.areaPowerUsed &&
  c.rulings === o.rulings &&
  c.attitudes === o.attitudes &&
  c.lastCheck === o.lastCheck &&
  c.interrupted === o.interrupted;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c, o);
}
