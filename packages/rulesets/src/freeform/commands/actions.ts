import { commandSchema, ensure, idSchema } from '@fray/engine';
import { z } from 'zod';
import { checkFormula, checkMayAct, checkTarget, checkVital } from '../checks.js';
import { emit } from '../events.js';
import { dataOf, maxOf } from '../state.js';
import { byGm, command, type FCtx } from './kit.js';

/** "An action is what the game says it is: a description, an optional target and an optional roll." */
export const act = command({
  schema: commandSchema('act', {
    combatantId: idSchema,
    kind: z.enum(['attack', 'cast', 'other']),
    description: z.string().trim().min(1).max(200),
    targetId: idSchema.optional(),
    roll: z.string().trim().min(1).max(64).optional(),
  }),
  actor: 'combatant',
  handle(ctx, cmd) {
    ensure(checkMayAct(ctx.state, cmd.combatantId, byGm(ctx)));
    ensure(checkTarget(ctx.state, cmd.targetId));
    ensure(checkFormula(cmd.roll));
    const total = cmd.roll ? ctx.roll(cmd.roll, cmd.description, { combatantId: cmd.combatantId }).total : null;
    emit(ctx, {
      type: 'freeform.acted',
      combatantId: cmd.combatantId,
      kind: cmd.kind,
      description: cmd.description,
      targetId: cmd.targetId ?? null,
      rolled: total !== null,
      total,
      formula: cmd.roll ?? null,
    });
  },
});

/** "Vitals never go below 0 or above their maximum." A change by `amount` (up or down), clamped. */
export function changeVital(ctx: FCtx, combatantId: string, vital: string, amount: number): void {
  ensure(checkVital(ctx.state, combatantId, vital));
  const c = ctx.state.combatants[combatantId]!;
  const now = dataOf(c)[vital];
  const max = maxOf(c, vital);
  const wanted = (typeof now === 'number' ? now : 0) + amount;
  const value = Math.max(0, max === null ? wanted : Math.min(max, wanted));
  const change = amount > 0 ? `+${amount}` : `−${-amount}`;
  emit(ctx, { type: 'freeform.vital-changed', combatantId, vital, label: vital === 'hp' ? 'HP' : vital, amount, change, value });
}

/** A player changes their own combatant's vitals on its turn (spending Mana, taking Stress); the GM any time. */
export const vital = command({
  schema: commandSchema('vital', {
    combatantId: idSchema,
    vital: z.string().min(1).max(24),
    amount: z
      .number()
      .int()
      .min(-100_000)
      .max(100_000)
      .refine((n) => n !== 0, 'amount must not be 0'),
  }),
  actor: 'combatant',
  handle(ctx, cmd) {
    ensure(checkMayAct(ctx.state, cmd.combatantId, byGm(ctx)));
    changeVital(ctx, cmd.combatantId, cmd.vital, cmd.amount);
  },
});

export const actionCommands = { act, vital };
