import type { Ruleset } from '@fray/engine';
import { catalogue } from './catalogue.js';
import { refuseReaction } from './checks/index.js';
import { adjustVital, commands } from './commands/index.js';
import { copyRs, evolve, sameRs } from './events/index.js';
import {
  effectExpiry,
  endTurnCommand,
  onCombatantAdded,
  onCombatantRemoved,
  onReactionClosed,
  onRollOverridden,
  startCombat,
} from './flow/index.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal.js';
import { optionDocs, optionsSchema, type LegendsOptions } from './options.js';
import { display, projectState } from './presentation.js';
import {
  initCombatant,
  initialState,
  positionSchema,
  statDocs,
  statsSchema,
  type LData,
  type LegendsStats,
  type LRS,
} from './state/index.js';

export type { LState, Position } from './state/index.js';
export { outnumbering, rangeBetween } from './mechanics/space.js';
export { adjacentInOrder } from './flow/index.js';

/** The legends ruleset, assembled from its parts (see docs/rulesets/legends.md). */
export const legends: Ruleset<LRS, LegendsOptions, LegendsStats, LData> = {
  id: 'legends',
  name: 'Legends',
  summary:
    'Rounds of a movement phase then an action phase; turn order by a d12 roll on DEX; zones, groups and engagements; free, minor and major actions.',
  optionsSchema,
  optionDocs,
  statsSchema,
  statDocs,
  positionSchema,
  space: { kind: 'zones', zones: 'rs.zones' },
  display,
  initialState,
  initCombatant,
  commands,
  evolve,
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through `w`
  cow: true,
  // the top of rs, copied field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,
  startCombat,
  endTurn: endTurnCommand,
  legalActions,
  catalogue,
  effectExpiry,
  onCombatantAdded,
  onCombatantRemoved,
  onRollOverridden,
  onReactionClosed,
  refuseReaction,
  adjustVital,
  projectState,
  invariants,
};
