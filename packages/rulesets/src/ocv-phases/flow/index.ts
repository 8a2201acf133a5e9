import type { Combatant, Effect, RollRecord } from '@fray/engine';
import { emit } from '../events.js';
import { st, type C, type Data, type S, type Stats } from '../state/index.js';
import { advance } from './clock.js';

export { endTurn, startCombat } from './clock.js';
export { onReactionClosed } from './reactions.js';

/** A character joining a running fight takes its place in the order by its Initiative score. */
export function onCombatantAdded(ctx: C, id: string): void {
  const s = st(ctx);
  if (s.status !== 'active') return;
  const c = s.combatants[id]!;
  emit(ctx, { type: 'ocv-phases.joined', combatantId: id, score: c.stats.combatValue + c.stats.lightningReflexes });
}

export function onCombatantRemoved(ctx: C, c: Combatant<Stats, Data>): void {
  const s = st(ctx);
  if (!s.rs.order.includes(c.id)) return;
  emit(ctx, { type: 'ocv-phases.left', combatantId: c.id });
  if (s.status === 'active' && s.clock.current === null && !s.reaction && s.rs.jobs.length === 0) advance(ctx);
}

/** Durations in Phases or Turns (4 Phases) end at the start of the Phase they reach. */
export function effectExpiry(state: S, effect: Effect): number | null {
  const d = effect.duration;
  if (!d) return null;
  const count = state.rs.phaseCount;
  if (d.unit === 'phase' || d.unit === 'phases') return count + d.count;
  if (d.unit === 'turn' || d.unit === 'turns') return count + 4 * d.count;
  return null;
}

/** The GM overrode an attack roll: the attack hits or misses anew. */
export function onRollOverridden(ctx: C, roll: RollRecord): void {
  const a = st(ctx).rs.attacks.find((x) => x.rollId === roll.id);
  if (!a) return;
  const hit = roll.total >= a.need;
  emit(ctx, {
    type: 'ocv-phases.attack-reresolved',
    combatantId: a.attackerId,
    targetId: a.targetId,
    rollId: roll.id,
    total: roll.total,
    need: a.need,
    hit,
  });
}
