import type { Ruleset } from '@fray/engine';
import { catalogue, ID } from './catalogue.js';
import { refuseReaction } from './checks/index.js';
import { commands } from './commands/index.js';
import { adjustVital } from './commands/gm.js';
import { evolve } from './events.js';
import {
  effectExpiry,
  endTurn,
  onCombatantAdded,
  onCombatantRemoved,
  onReactionClosed,
  onRollOverridden,
  startCombat,
} from './flow/index.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal.js';
import { optionDocs, optionsSchema, type OcvPhasesOptions } from './options.js';
import { display, projectState } from './presentation.js';
import {
  copyRs,
  initCombatant,
  initialState,
  positionSchema,
  sameRs,
  statDocs,
  statsSchema,
  type Data,
  type RS,
  type Stats,
} from './state/index.js';

export const ocvPhases: Ruleset<RS, OcvPhasesOptions, Stats, Data> = {
  id: ID,
  name: 'OCV phases',
  summary:
    '3-second Phases, 4 a 12-second Turn, Post-Turn Recovery; Initiative from Combat Value; Surprise Phase; 3d6 + OCV vs 10 + DCV; hexes, reach, threatened hexes and attacks of opportunity; attack / move / full-phase / free actions, the 1-hex step; delay, ready and abort.',
  display,
  adjustVital,
  optionsSchema,
  optionDocs,
  statsSchema,
  statDocs,
  positionSchema,
  space: { kind: 'hexes', terrain: 'rs.map' },
  initialState,
  initCombatant,
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
  onRollOverridden,
  invariants,
  projectState,
};
