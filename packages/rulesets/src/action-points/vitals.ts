import { damage, settle } from './flow.js';
import { ev, st, type X } from './types.js';

/**
 * The GM's damage or healing (`combatant.adjust` on `hp`): damage goes through the same path as an
 * attack's ("a creature dropped to 0 hp loses its advanced actions in progress"); healing sets the
 * hit points, never above the maximum.
 */
export function adjustVital(ctx: X, id: string, _vital: string, amount: number): void {
  const c = st(ctx).combatants[id]!;
  if (amount > 0) damage(ctx, c, amount, null);
  else ctx.emit({ type: ev('hp-set'), combatantId: id, hp: Math.min(c.stats.hp, c.data.hp - amount) });
  settle(ctx);
}
