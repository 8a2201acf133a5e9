import { hasExactKeys, sameShallow } from '@fray/engine';
import type { Data, RS } from './types.js';

// Copy-on-write: the engine copies `rs` and each changed combatant's data field by field (see Ruleset.copyRs).

/** The keys of a combatant's data, in the order it is built with. */
const DATA_KEYS: readonly string[] = [
  'stun',
  'endurance',
  'slots',
  'attacks',
  'full',
  'moved',
  'stepped',
  'free',
  'aoos',
  'opportunities',
  'restricted',
  'braced',
  'manoeuvres',
  'dodging',
  'hold',
  'skipNext',
  'abortLock',
  'fullStarted',
];
const copyDataLiteral = (v: Data): Data => ({
  stun: v.stun,
  endurance: v.endurance,
  slots: v.slots,
  attacks: v.attacks,
  full: v.full,
  moved: v.moved,
  stepped: v.stepped,
  free: v.free,
  aoos: v.aoos,
  opportunities: v.opportunities,
  restricted: v.restricted,
  braced: v.braced,
  manoeuvres: v.manoeuvres,
  dodging: v.dodging,
  hold: v.hold,
  skipNext: v.skipNext,
  abortLock: v.abortLock,
  fullStarted: v.fullStarted,
});
const copyDataSpread = (v: Data): Data => ({ ...v });
/**
 * A shallow copy of a combatant's data for the copy-on-write path: field by field when it has exactly
 * `DATA_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyData(v: Data): Data {
  return hasExactKeys(v, DATA_KEYS) ? copyDataLiteral(v) : copyDataSpread(v);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.stun === o.stun &&
  c.endurance === o.endurance &&
  c.slots === o.slots &&
  c.attacks === o.attacks &&
  c.full === o.full &&
  c.moved === o.moved &&
  c.stepped === o.stepped &&
  c.free === o.free &&
  c.aoos === o.aoos &&
  c.opportunities === o.opportunities &&
  c.restricted === o.restricted &&
  c.braced === o.braced &&
  c.manoeuvres === o.manoeuvres &&
  c.dodging === o.dodging &&
  c.hold === o.hold &&
  c.skipNext === o.skipNext &&
  c.abortLock === o.abortLock &&
  c.fullStarted === o.fullStarted;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * in the sense of the engine's `sameShallow`: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: Data, o: Data): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c, o);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = [
  'map',
  'order',
  'scores',
  'unaware',
  'turn',
  'phase',
  'phaseCount',
  'passed',
  'spent',
  'offered',
  'jobs',
  'intents',
  'pauseFor',
  'attacks',
  'stalled',
];
const copyRsLiteral = (v: RS): RS => ({
  map: v.map,
  order: v.order,
  scores: v.scores,
  unaware: v.unaware,
  turn: v.turn,
  phase: v.phase,
  phaseCount: v.phaseCount,
  passed: v.passed,
  spent: v.spent,
  offered: v.offered,
  jobs: v.jobs,
  intents: v.intents,
  pauseFor: v.pauseFor,
  attacks: v.attacks,
  stalled: v.stalled,
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
  c.map === o.map &&
  c.order === o.order &&
  c.scores === o.scores &&
  c.unaware === o.unaware &&
  c.turn === o.turn &&
  c.phase === o.phase &&
  c.phaseCount === o.phaseCount &&
  c.passed === o.passed &&
  c.spent === o.spent &&
  c.offered === o.offered &&
  c.jobs === o.jobs &&
  c.intents === o.intents &&
  c.pauseFor === o.pauseFor &&
  c.attacks === o.attacks &&
  c.stalled === o.stalled;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * in the sense of the engine's `sameShallow`: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c, o);
}
