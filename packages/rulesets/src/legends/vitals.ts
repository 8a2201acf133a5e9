import type { LCtx } from './model.js';
import { endIfOneSideStands, standingSides, wound } from './outcome.js';

/**
 * The GM's damage or healing (`combatant.adjust`): on `fatigue`, harm adds fatigue and healing
 * removes it, never below 0; on `wounds`, the same path as a confirmed attack (taken out at the
 * toughness, back in when healed below it).
 */
export function adjustVital(ctx: LCtx, id: string, vital: string, amount: number): void {
  const c = ctx.state.combatants[id]!;
  if (vital === 'wounds') {
    const before = standingSides(ctx.state);
    wound(ctx, id, amount, amount > 0 ? 'the GM' : 'healed by the GM');
    return endIfOneSideStands(ctx, before);
  }
  ctx.emit({ type: 'legends.fatigueChanged', combatantId: id, fatigue: Math.max(0, c.data.fatigue + amount) });
}
