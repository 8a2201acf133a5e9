import type { LCtx } from './model.js';

/** The GM's fatigue change (`combatant.adjust` on `fatigue`): harm adds fatigue, healing removes it, never below 0. */
export function adjustVital(ctx: LCtx, id: string, _vital: string, amount: number): void {
  const c = ctx.state.combatants[id]!;
  ctx.emit({ type: 'legends.fatigueChanged', combatantId: id, fatigue: Math.max(0, c.data.fatigue + amount) });
}
