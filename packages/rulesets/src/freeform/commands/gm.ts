import { commandSchema, idSchema, requireCombatant } from '@fray/engine';
import { z } from 'zod';
import { emit } from '../events.js';
import { resort } from '../flow.js';
import { optionsOf } from '../state.js';
import { changeVital } from './actions.js';
import { command, type FCtx } from './kit.js';

/** "The GM may enter a combatant's initiative instead of a roll; in a fight in progress the order is sorted again." */
export const setInitiative = command({
  schema: commandSchema('initiative.set', { combatantId: idSchema, value: z.number().int().min(-1000).max(1000) }),
  actor: 'gm',
  inSetup: true,
  duringReaction: true,
  handle(ctx, cmd) {
    requireCombatant(ctx, cmd.combatantId);
    emit(ctx, { type: 'freeform.initiative', combatantId: cmd.combatantId, value: cmd.value, rolled: false });
    if (ctx.state.status === 'active') resort(ctx);
  },
});

/**
 * The GM's `combatant.adjust` on HP or a named vital: harm (amount > 0) lowers it, healing raises
 * it; a rising vital (Stress) goes the other way: "Vitals in `risingVitals` start at 0 and rise".
 */
export function adjustVital(ctx: FCtx, combatantId: string, vital: string, amount: number): void {
  const rising = optionsOf(ctx.state).risingVitals.includes(vital);
  changeVital(ctx, combatantId, vital, rising ? amount : -amount);
}

export const gmCommands = { 'initiative.set': setInitiative };
