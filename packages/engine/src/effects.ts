import type { Ctx, EncounterState } from './types.js';

/** Effects on a combatant whose `condition` is the given name. */
export function hasCondition(state: EncounterState<unknown>, combatantId: string, condition: string): boolean {
  return state.effects.some((e) => e.targetId === combatantId && e.condition === condition);
}

/** Emit `effect.expired` for every effect the predicate selects (rulesets call this when durations tick). */
export function expireEffects<RS>(
  ctx: Ctx<RS>,
  predicate: (e: EncounterState<RS>['effects'][number]) => boolean,
  reason = 'duration',
): void {
  const ids = ctx.state.effects.filter(predicate).map((e) => ({ id: e.id, gmOnly: e.gmOnly }));
  for (const { id, gmOnly } of ids) ctx.emit({ type: 'effect.expired', effectId: id, reason, gmOnly: gmOnly || undefined });
}
