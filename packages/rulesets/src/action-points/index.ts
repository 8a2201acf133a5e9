import type { Ruleset } from '@fray/engine';
import { catalogue } from './catalogue/index.js';
import { checkNotEligible } from './checks/commands.js';
import { commands } from './commands/index.js';
import { adjustVital } from './commands/gm.js';
import { copyRs, sameRs } from './events/copy.js';
import { evolve } from './events/index.js';
import { endTurn, onCombatantRemoved, onReactionClosed, startCombat } from './flow/index.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal.js';
import { expiryOf } from './mechanics/durations.js';
import { optionDocs, optionsSchema, type Options } from './options.js';
import { display, projectState } from './presentation.js';
import { RULESET_ID, initCombatant, initialState, positionSchema, statDocs, statsSchema, type Data, type RS, type Stats } from './state.js';

export { PHASES, DEFAULT_BASE_SPEED_BY_SIZE, baseActionSpeed } from './mechanics/phases.js';
export { ACTIONS, REACTIONS } from './catalogue/index.js';
export { DATA_KEYS, copyData } from './events/copy.js';
export type { ApActionOption } from './legal.js';
export type { RS, Data, Stats, Options };

/** Action Points and Dynamic Combat: the parts put together (each file's header says what it holds). */
export const actionPoints: Ruleset<RS, Options, Stats, Data> = {
  id: RULESET_ID,
  name: 'Action Points and Dynamic Combat',
  summary:
    '3 AP a round (2 in a surprise round) spent across seven action phases ordered by speed: declaration, ready-missile, thrown, fast, average, slow, very slow. Simple, advanced (consecutive or not), full-round, free actions and reactions; attack, complex, move and safe subtypes; attacks of opportunity before the provoking action.',
  optionsSchema,
  optionDocs,
  statsSchema,
  statDocs,
  positionSchema,
  space: { kind: 'squares' },
  display,
  initialState,
  initCombatant,
  catalogue,
  commands,
  evolve,
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through its writer
  cow: true,
  // the top of rs, copied and compared field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,
  startCombat,
  endTurn,
  legalActions,
  onCombatantRemoved,
  onReactionClosed,
  refuseReaction: (state, command) => checkNotEligible(state, command),
  effectExpiry: expiryOf,
  projectState,
  invariants,
  adjustVital,
};
