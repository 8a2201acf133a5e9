import type { Ruleset } from '@fray/engine';
import { catalogue } from './catalogue.js';
import { commands } from './commands/index.js';
import { adjustVital } from './commands/gm.js';
import { evolve } from './events.js';
import { effectExpiry, endTurn, onCombatantAdded, onCombatantRemoved, startCombat } from './flow.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal.js';
import { optionDocs, optionsSchema, type FreeformOptions } from './options.js';
import { display, projectState } from './presentation.js';
import { initCombatant, initialState, positionSchema, statDocs, statsSchema, type Data, type RS, type Stats } from './state.js';

/** freeform: a system-agnostic tracker (docs/rulesets/freeform.md). */
export const freeform: Ruleset<RS, FreeformOptions, Stats, Data> = {
  id: 'freeform',
  name: 'Freeform',
  summary:
    'Any game: initiative, turns and rounds, HP and the vitals you name, conditions that run out, actions in your own words. No action economy.',
  optionsSchema,
  optionDocs,
  statsSchema,
  statDocs,
  positionSchema,
  initialState,
  initCombatant,
  commands,
  evolve,
  startCombat,
  endTurn,
  legalActions,
  catalogue,
  onCombatantAdded,
  onCombatantRemoved,
  effectExpiry,
  projectState,
  invariants,
  display,
  adjustVital,
};
