/**
 * How the web client issues each kind of command without JSON (checked for every command of every
 * ruleset by test/unit/every-command.test.ts, and listed in docs/web.md):
 * - a control of its own (below, with where it is);
 * - an action button from the server's `legalActions` (ActionPanel: the parameters of the kinds in
 *   `PARAM_KINDS`, destinations and targets on the map);
 * - the GM's command form built from the command's schema (CommandForm), when every required field
 *   has a real input (`dice.force` too: its faces are a list of numbers).
 * No command needs JSON; the console's raw command box is only a GM's escape hatch.
 */
import type { ParamSpec } from './types.js';

/** Parameter kinds the action forms and the map can fill. */
export const PARAM_KINDS: ReadonlyArray<ParamSpec['kind']> = [
  'combatant',
  'position',
  'path',
  'choice',
  'number',
  'text',
  'boolean',
  'item',
  'list',
];

/** Commands with a control of their own: the control, in the words of the screen. */
export const DEDICATED: Readonly<Record<string, string>> = {
  'combat.start': 'Start combat (GM console, turn order)',
  'combat.end': 'End combat (GM console, turn order)',
  'turn.end': "End X's turn (GM) / End my turn (player)",
  'reaction.resolve': 'Resolve / skip the reaction window (GM console)',
  'effect.apply': 'Conditions and effects form (GM console)',
  'effect.remove': 'Remove buttons on each combatant card (GM console)',
  'dice.roll': 'Dice: roll (GM console)',
  'dice.override': 'Dice: override a recent roll (GM console)',
  'encounter.gmRolls': 'Dice: the "Secret roll" toggle, the encounter\'s default for GM rolls (GM console)',
  'combatant.add': 'Add a combatant form (stats from the schema; sent as POST /encounters/:id/combatants)',
  'combatant.update': 'Edit on a combatant card, Reveal (PATCH /encounters/:id/combatants/:cid)',
  'combatant.remove': 'Remove on a combatant card (GM console; DELETE /encounters/:id/combatants/:cid)',
  'combatant.setStat': 'Edit on a combatant card (the whole stats form; PATCH)',
  'combatant.place': 'The battle map: drag a token, or Place + tap a cell (GM)',
  'map.set': 'The battle map: Map size and walls (GM)',
};
