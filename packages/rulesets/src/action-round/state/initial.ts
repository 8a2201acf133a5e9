import type { Options } from '../options.js';
import type { Data, RS } from './types.js';
import type { Stats } from './stats.js';

/** The ruleset state at the start of an encounter. */
export function initialState(o: Options): RS {
  return {
    freeActionLimit: o.freeActionLimit,
    roundSeconds: secondsPerRound(o),
    turnSeq: 0,
    areaPowerUsed: [],
    rulings: {},
    attitudes: {},
    lastCheck: {},
    interrupted: null,
  };
}

/** "Combat uses six-second rounds, while Conflicts typically use six-minute rounds." */
export function secondsPerRound(o: Options): number {
  if (o.roundLength === 'six-seconds') return 6;
  if (o.roundLength === 'six-minutes') return 360;
  return o.encounterType === 'conflict' ? 360 : 6;
}

/** A combatant's data at the start (initCombatant). */
export function initialData(stats: Pick<Stats, 'destiny' | 'fate' | 'corruption'>): Data {
  return {
    slots: { standard: 1, move: 1, quick: 1 },
    free: 0,
    acted: false,
    attackedThisTurn: false,
    standardTaken: false,
    move: null,
    moved: 0,
    movedRound: 0,
    reactedSeq: -1,
    reactedCycle: -1,
    quickUsedThisTurn: false,
    quickInReaction: false,
    readied: null,
    delaying: false,
    delayedSeq: -1,
    aim: null,
    activeDefense: null,
    stance: null,
    surgePending: false,
    surgeDeferred: false,
    extraStandard: 0,
    fatigue: 0,
    damage: 0,
    socialDamage: 0,
    stress: 0,
    destiny: stats.destiny,
    fate: stats.fate,
    corruption: stats.corruption,
    runStreak: 0,
    lastRunRound: -10,
    speedBonusRound: -10,
    analyze: {},
    assistDegrees: 0,
    hunchAdvantage: 0,
    edges: 0,
    alternates: {},
    turnsTaken: 0,
    ammo: false,
    deathSaveFailures: 0,
    retry: false,
  };
}
