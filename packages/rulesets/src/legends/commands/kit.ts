import { commandKit, refuse } from '@fray/engine';
import { unknownCombatant } from '../checks/index.js';
import type { LegendsOptions } from '../options.js';
import type { LCombatant, LCtx, LRS } from '../state/index.js';

/** The command builder of the legends ruleset: a handler typed by its schema, on the legends state. */
export const command = commandKit<LRS, LegendsOptions>();

/** A GM tool: usable in setup and while a reaction window is open. */
export const gmTool = { actor: 'gm' as const, inSetup: true, duringReaction: true };

/** The combatant a command names; refused when there is none. */
export function combatant(ctx: LCtx, id: string): LCombatant {
  const c = ctx.state.combatants[id];
  if (!c) refuse(unknownCombatant(id));
  return c;
}
