import { chebyshev, squareLine, squaresWithin } from '@fray/engine';
import type { Options } from '../options.js';
import { hasWits, isArmed, isIncapacitated, posOf, type C, type Square, type State } from '../state/index.js';

/** The squares (as a predicate) a combatant threatens, and how it would attack into them. */
export function threatens(s: State, o: Options, by: C, sq: Square): 'close' | 'court' | null {
  const p = posOf(by);
  if (!p || isIncapacitated(s, by)) return null;
  const d = chebyshev(p, sq);
  if (d === 0) return null;
  const melee = o.encounterType !== 'conflict';
  const court = o.encounterType !== 'combat';
  if (melee && isArmed(by) && d <= by.stats.reach) return 'close';
  if (court && hasWits(by) && d <= o.conversationRange) return 'court';
  return null;
}

/** Every square a combatant threatens (for clients drawing the grid), diagonals included. */
export function threatenedSquares(s: State, o: Options, by: C): Square[] {
  const p = posOf(by);
  if (!p) return [];
  const r = Math.max(o.encounterType !== 'combat' && hasWits(by) ? o.conversationRange : 0, by.stats.reach);
  return squaresWithin(p, r).filter((sq) => threatens(s, o, by, sq) !== null);
}

/** A straight path toward a target, stopping once within `reach` (for charge): the engine's squareLine. */
export function lineToward(from: Square, to: Square, reach: number, maxSquares: number): Square[] {
  const line = squareLine(from, to).slice(1);
  const out: Square[] = [];
  for (const sq of line) {
    if (chebyshev(from, to) <= reach) break;
    if (out.length >= maxSquares) break;
    if (chebyshev(sq, to) === 0) break;
    out.push(sq);
    if (chebyshev(sq, to) <= reach) break;
  }
  return out;
}
