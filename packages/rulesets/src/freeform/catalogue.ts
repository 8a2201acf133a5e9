import type { CatalogueEntry } from '@fray/engine';

/** The rule ids, each the most specific rule a refusal names (docs/rulesets/freeform.md). */
export const RULE = {
  ownTurn: 'freeform.own-turn',
  turns: 'freeform.turns',
  delay: 'freeform.delay',
  hold: 'freeform.hold',
  target: 'freeform.target',
  rolls: 'freeform.rolls',
  vitals: 'freeform.vitals',
  initiative: 'freeform.initiative',
} as const;

/** Every action, with the sentence of docs/rulesets/freeform.md it implements. */
export const catalogue: CatalogueEntry[] = [
  {
    id: 'attack',
    label: 'Attack',
    kind: 'action',
    rule: '"An action is what the game says it is: a description, an optional target and an optional roll."',
  },
  {
    id: 'cast',
    label: 'Cast',
    kind: 'action',
    rule: '"An action is what the game says it is: a description, an optional target and an optional roll."',
  },
  {
    id: 'other',
    label: 'Other action',
    kind: 'action',
    rule: '"There is no action economy: a combatant may take any number of actions on its turn."',
  },
  { id: 'vital', label: 'Change a vital', kind: 'free', rule: '"Vitals never go below 0 or above their maximum."' },
  { id: 'delay', label: 'Delay (hold your turn)', kind: 'turn', rule: '"On its turn a combatant may delay: its turn ends and it holds."' },
  {
    id: 'act-now',
    label: 'Act now',
    kind: 'turn',
    rule: '"A holding combatant may act now: it moves to just after the current combatant and takes its turn when that turn ends."',
  },
  { id: 'end-turn', label: 'End turn', kind: 'turn', rule: '"A turn ends when its combatant (or the GM) ends it."' },
];
