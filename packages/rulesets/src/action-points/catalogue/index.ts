import type { CatalogueEntry } from '@fray/engine';
import { ADVANCED } from './advanced.js';
import type { ActionDef } from './define.js';
import { FREE } from './free.js';
import { REACTIONS } from './reactions.js';
import { SIMPLE } from './simple.js';

/**
 * Every action of the rule text as data, by category (define.ts says what an action holds), and
 * the ids of the rules a refusal names (rules.ts). The commands and checks read this table; nothing
 * about an action's cost lives anywhere else.
 */

export type { ActionDef, ActionType, Subtype, Tag } from './define.js';
export { AOO_WINDOW, READY_WINDOW, RULE } from './rules.js';
export { REACTIONS } from './reactions.js';

/** The actions taken with `act`: simple, advanced (full-round among them), free. */
export const ACTIONS: ActionDef[] = [...SIMPLE, ...ADVANCED, ...FREE];

export const ACTION_IDS = ACTIONS.map((a) => a.id);
const byId = new Map(ACTIONS.map((a) => [a.id, a]));
export function actionDef(id: string): ActionDef | undefined {
  return byId.get(id);
}

/** The catalogue GET /rulesets shows: every action and reaction with its cost, what provokes, and its rule. */
export const catalogue: CatalogueEntry[] = [
  ...[...ACTIONS, ...REACTIONS].map((a): CatalogueEntry => ({
    id: a.id,
    label: a.label,
    kind: a.type,
    cost: a.minAp ? `at least ${a.minAp} AP` : { ap: a.ap },
    provokes: a.subtypes.includes('complex')
      ? 'always, before it is taken and in each phase AP are spent on it'
      : a.subtypes.includes('move')
        ? 'when leaving a threatened square (or standing up in one)'
        : a.subtypes.includes('attack')
          ? a.feat
            ? `from the target, without ${a.feat}; ranged: from all threatening foes`
            : 'only when ranged (or unarmed without improved-unarmed-strike)'
          : 'no (safe)',
    rule: a.rule,
    notes: `subtypes: ${a.subtypes.join(', ') || 'safe'}${a.type === 'advanced' || a.type === 'full-round' ? `; ${a.consecutive ? 'consecutive' : 'non-consecutive'} AP` : ''}`,
  })),
  {
    id: 'declare',
    label: 'Declare an intent',
    kind: 'declaration',
    rule: 'Intended actions are just that; the Judge and the players can choose to adjust their plans in later phases',
  },
  { id: 'stop', label: 'Stop spending AP this round', kind: 'turn', rule: 'or have chosen to make no further expenditures of AP' },
  { id: 'delay', label: 'Delay to a later phase', kind: 'turn', rule: 'it may perform another action now or delay until the next phase' },
  {
    id: 'continue',
    label: 'Spend an AP on an advanced action in progress',
    kind: 'advanced',
    cost: { ap: 1 },
    rule: 'During the next action phase, you may spend another AP towards completing the action.',
  },
];
