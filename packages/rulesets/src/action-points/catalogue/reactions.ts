import type { ActionDef } from './define.js';

/** Reactions (0 AP, only when triggered): separate commands, listed here for the catalogue. */
export const REACTIONS: ActionDef[] = [
  {
    id: 'complete-ready',
    label: 'Complete a readied action',
    type: 'reaction',
    ap: 0,
    subtypes: [],
    consecutive: false,
    tags: [],
    rule: 'Complete a Readied Action (Varies) ... your place in the initiative order does not change.',
  },
  {
    id: 'attack-of-opportunity',
    label: 'Attack of opportunity',
    type: 'reaction',
    ap: 0,
    subtypes: ['attack'],
    consecutive: false,
    tags: ['target', 'weapon'],
    rule: 'Make an Attack of Opportunity: ... a single melee attack against that foe.',
  },
  {
    id: 'spend-aoo',
    label: 'Spend a use of an attack of opportunity',
    type: 'reaction',
    ap: 0,
    subtypes: [],
    consecutive: false,
    tags: [],
    rule: 'Spend a Use of an Attack of Opportunity ... it is considered a reaction.',
  },
  {
    id: 'immediate-action',
    label: 'Use an immediate-action ability',
    type: 'reaction',
    ap: 0,
    subtypes: [],
    consecutive: false,
    tags: [],
    rule: 'Use an Immediate-Action Ability',
  },
];
