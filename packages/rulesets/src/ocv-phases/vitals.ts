import { st, type C } from './clock.js';

/**
 * The GM's damage or healing (`combatant.adjust` on `stun` or `endurance`): the current pool falls
 * by the damage or rises by the healing, never above the maximum (as a Recovery).
 */
export function adjustVital(ctx: C, id: string, vital: string, amount: number): void {
  const c = st(ctx).combatants[id]!;
  const key = vital === 'endurance' ? 'endurance' : 'stun';
  const next = amount > 0 ? c.data[key] - amount : Math.min(c.stats[key], c.data[key] - amount);
  ctx.emit({ type: 'ocv-phases.pools', combatantId: id, [key]: next });
}
