import type { Ruleset } from '@fray/engine';
import { catalogue } from './catalogue/index.js';
import { refuseReaction } from './checks/index.js';
import { adjustVital, commands } from './commands/index.js';
import { evolve } from './events.js';
import { effectExpiry, endTurn, onCombatantAdded, onCombatantRemoved, onReactionClosed, startCombat } from './flow.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal/index.js';
import { optionDocs, optionsSchema, type Options } from './options.js';
import { display, projectState } from './presentation.js';
import {
  copyRs,
  initialData,
  initialState,
  positionSchema,
  sameRs,
  statDocs,
  statsSchema,
  type Data,
  type RS,
  type Stats,
} from './state/index.js';

export type { RS, Data, Stats } from './state/index.js';
export type { Options } from './options.js';
export { invariants } from './invariants.js';

/** The action-round ruleset, assembled from its parts (see docs/rulesets/action-round.md). */
export const actionRound: Ruleset<RS, Options, Stats, Data> = {
  id: 'action-round',
  name: 'The Action Round',
  summary:
    'Six-second (or six-minute) rounds: one standard, one move and one quick action a turn with substitutions, free actions, one reaction a turn; the full action list with opportunity attacks on a 5-foot grid.',
  optionsSchema,
  optionDocs,
  statsSchema,
  statDocs,
  positionSchema,
  space: { kind: 'squares' },
  display,
  initialState,
  initCombatant: initialData,
  commands,
  catalogue,
  evolve,
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through `w`
  cow: true,
  // the top of rs, copied field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,
  startCombat,
  endTurn,
  legalActions,
  onReactionClosed,
  refuseReaction,
  onCombatantAdded,
  onCombatantRemoved,
  effectExpiry,
  invariants,
  projectState,
  adjustVital,
};
