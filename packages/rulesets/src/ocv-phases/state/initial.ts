import type { Stats } from './stats.js';
import type { Data, RS } from './types.js';

/** The ruleset state at the start of an encounter. */
export const initialState = (): RS => ({
  map: { blocking: [], difficult: [], dark: [] },
  order: [],
  scores: {},
  unaware: [],
  turn: 0,
  phase: null,
  phaseCount: 0,
  passed: [],
  spent: [],
  offered: [],
  jobs: [],
  intents: [],
  pauseFor: null,
  attacks: [],
  stalled: false,
});

/** A combatant's data when it joins: full STUN and END, nothing spent. */
export const initCombatant = (stats: Stats): Data => ({
  stun: stats.stun,
  endurance: stats.endurance,
  slots: 0,
  attacks: 0,
  full: false,
  moved: false,
  stepped: false,
  free: 0,
  aoos: 0,
  opportunities: [],
  restricted: false,
  braced: false,
  manoeuvres: [],
  dodging: false,
  hold: null,
  skipNext: false,
  abortLock: null,
  fullStarted: null,
});
