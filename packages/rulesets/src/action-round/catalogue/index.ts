import type { CatalogueEntry } from '@fray/engine';
import type { ActionDef } from './define.js';
import { FREE } from './free.js';
import { MOVE } from './move.js';
import { NO_ACTION } from './no-action.js';
import { QUICK } from './quick.js';
import { REACTIONS } from './reactions.js';
import { STANDARD } from './standard.js';
import { VARIABLE } from './variable.js';

export type { ActionDef } from './define.js';
export { RULE } from './rules.js';

/** Every action of the text, by category in the text's order: one per heading (and per benefit or mode where the text lists them). */
export const ACTIONS: ActionDef[] = [...STANDARD, ...MOVE, ...QUICK, ...FREE, ...REACTIONS, ...NO_ACTION, ...VARIABLE];

/** The catalogue GET /rulesets shows: every action with its type, its OA tag and its rule. */
export const catalogue: CatalogueEntry[] = ACTIONS.map((a) => ({
  id: a.id,
  label: a.label,
  kind: a.type,
  cost: a.type === 'standard' || a.type === 'move' || a.type === 'quick' ? { [a.type]: 1 } : a.type,
  provokes: a.oa,
  rule: a.rule,
  ...(a.notes ? { notes: a.notes } : {}),
}));
