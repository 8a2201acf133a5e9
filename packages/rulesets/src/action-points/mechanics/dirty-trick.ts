import { chebyshev, type Effect } from '@fray/engine';
import { posOf, type C, type S } from '../state.js';

/**
 * Dirty Trick (Combat; 2 AP): "The target or an ally adjacent to the target can remove the condition by spending 1 AP.
 * Removing a condition applied by a dirty trick does not provoke attacks of opportunity."
 * The removal is the simple action `remove-dirty-trick` (1 AP, safe: no subtype, so it provokes nothing).
 */

export const RULE_TEXT = 'The target or an ally adjacent to the target can remove the condition by spending 1 AP.';

/** A condition applied by a dirty trick (marked when applied; the name covers conditions applied before the mark existed). */
const isDirtyTrick = (e: Effect): boolean => e.data?.['dirtyTrick'] === 1 || e.name.startsWith('Dirty trick: ');

export const dirtyTricksOn = (s: S, id: string): Effect[] => s.effects.filter((e) => e.targetId === id && isDirtyTrick(e));

/** Whether `c` may remove a dirty trick's condition from `t`: its own, or an adjacent ally's. */
export function reaches(c: C, t: C): boolean {
  if (t.id === c.id) return true;
  const a = posOf(c);
  const b = posOf(t);
  return t.side === c.side && a !== null && b !== null && chebyshev(a, b) <= 1;
}

/** Who `c` could free now (itself and adjacent allies carrying such a condition). */
export const removableFor = (s: S, c: C): C[] =>
  Object.values(s.combatants).filter((t) => reaches(c, t) && dirtyTricksOn(s, t.id).length > 0);
