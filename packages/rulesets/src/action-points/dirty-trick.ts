import { chebyshev, type Effect } from '@fray/engine';
import { block, type Blocked } from './rules.js';
import type { ActParams, C, S, Sq, X } from './types.js';

/**
 * Dirty Trick (Combat; 2 AP): "The target or an ally adjacent to the target can remove the condition by spending 1 AP.
 * Removing a condition applied by a dirty trick does not provoke attacks of opportunity."
 * The removal is the simple action `remove-dirty-trick` (1 AP, safe: no subtype, so it provokes nothing).
 */

export const RULE_TEXT = 'The target or an ally adjacent to the target can remove the condition by spending 1 AP.';

/** A condition applied by a dirty trick (marked when applied; the name covers conditions applied before the mark existed). */
export const isDirtyTrick = (e: Effect): boolean => e.data?.['dirtyTrick'] === 1 || e.name.startsWith('Dirty trick: ');

export const dirtyTricksOn = (s: S, id: string): Effect[] => s.effects.filter((e) => e.targetId === id && isDirtyTrick(e));

/** Whether `c` may remove a dirty trick's condition from `t`: its own, or an adjacent ally's. */
function reaches(c: C, t: C): boolean {
  if (t.id === c.id) return true;
  const a = c.position as Sq | null;
  const b = t.position as Sq | null;
  return t.side === c.side && a !== null && b !== null && chebyshev(a, b) <= 1;
}

/** Who `c` could free now (itself and adjacent allies carrying such a condition). */
export const removableFor = (s: S, c: C): C[] => Object.values(s.combatants).filter((t) => reaches(c, t) && dirtyTricksOn(s, t.id).length > 0);

/** Why `c` may not remove a dirty trick's condition with these parameters (`full`: the parameters are checked too). */
export function removeDirtyTrickBlock(s: S, c: C, p: ActParams, full: boolean): Blocked | null {
  if (!full) return removableFor(s, c).length ? null : block('ILLEGAL_ACTION', 'remove-dirty-trick', `Neither ${c.name} nor an adjacent ally has a condition applied by a dirty trick.`);
  const t = p.targetId ? s.combatants[p.targetId] : c;
  if (!t) return block('UNKNOWN_TARGET', 'target', `No combatant "${p.targetId}".`);
  if (t.id !== c.id && t.side !== c.side) return block('ILLEGAL_ACTION', 'remove-dirty-trick', `${t.name} is not an ally: "${RULE_TEXT}"`);
  if (!reaches(c, t)) return block('ILLEGAL_ACTION', 'remove-dirty-trick', `${t.name} is not adjacent to ${c.name}: "${RULE_TEXT}"`);
  const list = dirtyTricksOn(s, t.id);
  if (p.effectId ? !list.some((e) => e.id === p.effectId) : list.length === 0) {
    return block('ILLEGAL_ACTION', 'remove-dirty-trick', `${t.name} has no ${p.effectId ? `condition "${p.effectId}"` : 'condition'} applied by a dirty trick.`);
  }
  return null;
}

/** Remove the named condition (or the oldest) applied by a dirty trick. */
export function removeDirtyTrick(ctx: X, s: S, c: C, p: ActParams): Record<string, unknown> {
  const t = p.targetId ?? c.id;
  const e = dirtyTricksOn(s, t).find((x) => !p.effectId || x.id === p.effectId)!;
  ctx.emit({ type: 'effect.removed', effectId: e.id, reason: `removed by ${c.name} (1 AP)` });
  return { removed: e.id, condition: e.condition ?? null, targetId: t };
}
