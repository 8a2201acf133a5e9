import type { LData, LRS } from './types.js';
import { DEFAULT_ZONE, newTurn } from './select.js';

export * from './stats.js';
export * from './types.js';
export * from './select.js';

/** The ruleset state of a new encounter: one zone, "The battlefield", and nothing else. */
export function initialState(): LRS {
  return {
    zones: { [DEFAULT_ZONE]: { id: DEFAULT_ZONE, name: 'The battlefield', traits: {}, features: [], neighbors: [] } },
    turnRolls: {},
    queue: [],
    lastOrder: [],
    pending: [],
    reactions: [],
    groupMoves: [],
    defense: {},
    overflow: [],
    forfeits: [],
    touches: [],
    touchLog: [],
    offers: [],
    customActions: {},
    movers: [],
    attacks: [],
  };
}

/** A new combatant's data (the keys in the order copyData expects). */
export function initCombatant(): LData {
  return {
    surprised: false,
    fatigue: 0,
    wounds: 0,
    stealth: null,
    moveRollRound: 0,
    turn: newTurn(),
    busyHands: 0,
    noMeleeUntilRound: 0,
    carriedBy: null,
    forfeitRound: 0,
    turnRound: 0,
    bypassedRound: 0,
  };
}
