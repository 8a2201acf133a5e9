import type { ArCtx } from './checks.js';
import { combatant, patchData, setFatigue, takeDamage } from './rules.js';

/**
 * The GM's damage or healing (`combatant.adjust`): damage levels go through the same path as a
 * failed resistance check ("incapacitated" at the limit); healing removes levels, never below 0.
 * Fatigue moves along fresh, fatigued, exhausted, incapacitated.
 */
export function adjustVital(ctx: ArCtx, id: string, vital: string, amount: number): void {
  const c = combatant(ctx.state, id);
  if (vital === 'fatigue') return setFatigue(ctx, id, c.data.fatigue + amount, 'the GM');
  const track = vital === 'socialDamage' ? 'socialDamage' : 'damage';
  if (amount > 0) return takeDamage(ctx, id, amount, track, 'gm');
  const value = Math.max(0, c.data[track] + amount);
  patchData(ctx, 'healed', id, { [track]: value }, { levels: c.data[track] - value, track });
}
