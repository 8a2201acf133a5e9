import type { ArCtx } from '../events.js';
import { emit, patchData, plain } from '../events.js';
import { setFatigue, takeDamage } from './resolve/effects.js';
import { combatant } from '../state/index.js';
import { command } from './kit.js';
import { S } from './schemas.js';

/** The GM's table rulings (free-action limit, variable action types) and the `adjustVital` hook. */

const setFreeActionLimit = command({
  schema: S.setFreeActionLimit,
  actor: 'gm',
  duringReaction: true,
  inSetup: true,
  handle(ctx: ArCtx, cmd) {
    // "as many free actions in a round as the GM considers reasonable"
    const limit = cmd.limit;
    // free actions already taken beyond a lowered limit simply leave none for the rest of the round
    const data = Object.fromEntries(
      Object.values(ctx.state.combatants)
        .filter((c) => c.data.free > limit)
        .map((c) => [c.id, { free: limit }]),
    );
    emit(ctx, 'free-action-limit-set', { limit }, { rs: { freeActionLimit: limit }, data });
  },
});

const setRuling = command({
  schema: S.setRuling,
  actor: 'gm',
  duringReaction: true,
  inSetup: true,
  handle(ctx: ArCtx, cmd) {
    const rulings = { ...plain(ctx.state.rs.rulings), [cmd.key]: { type: cmd.actionType, provokes: cmd.provokes } };
    emit(ctx, 'ruling-set', { key: cmd.key, actionType: cmd.actionType, provokes: cmd.provokes }, { rs: { rulings } });
  },
});

export const gmCommands = { 'set-free-action-limit': setFreeActionLimit, 'set-ruling': setRuling };

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
  const patch: Partial<(typeof c)['data']> = {};
  patch[track] = value;
  patchData(ctx, 'healed', id, patch, { levels: c.data[track] - value, track });
}
