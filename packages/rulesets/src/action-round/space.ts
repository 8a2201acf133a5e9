import { chebyshev, hasCondition, squareLine, squaresWithin } from '@fray/engine';
import type { Combatant } from '@fray/engine';
import type { Options, Stats } from './options.js';
import type { Data, Square, State } from './state.js';

export type C = Combatant<Stats, Data>;

export const posOf = (c: C): Square | null => (c.position as Square | null) ?? null;

/** Speed rank → squares: rank 0 = 30 feet = 6 squares; each rank doubles / halves; at least one square. */
export function squaresForRank(rank: number): number {
  return Math.max(1, Math.floor(6 * Math.pow(2, rank)));
}

export function isIncapacitated(s: State, c: C): boolean {
  return hasCondition(s as never, c.id, 'incapacitated') || c.data.fatigue >= 3;
}

/** Armed: a weapon in hand, or natural weapons. "If you're unarmed, you don't normally threaten any squares." */
export function isArmed(c: C): boolean {
  if (c.stats.naturalWeapons) return true;
  return c.items.some((i) => i.location !== 'carried' && i.location !== 'ground' && (i.tags ?? []).includes('weapon'));
}

export const hasWits = (c: C): boolean => (c.stats.skills['wits'] ?? 0) > 0;

export function areEnemies(a: C, b: C): boolean {
  return a.side !== b.side;
}

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

export function enemiesOf(s: State, c: C): C[] {
  return Object.values(s.combatants).filter((x) => x.id !== c.id && areEnemies(x, c));
}

export function occupant(s: State, sq: Square, except?: string): C | undefined {
  return Object.values(s.combatants).find((c) => c.id !== except && posOf(c) !== null && posOf(c)!.x === sq.x && posOf(c)!.y === sq.y);
}

export function distance(a: C, b: C): number | null {
  const pa = posOf(a);
  const pb = posOf(b);
  return pa && pb ? chebyshev(pa, pb) : null;
}

/** The nearest enemy (ties: the first by id), for advance and withdraw. */
export function nearestEnemy(s: State, c: C): C | null {
  let best: C | null = null;
  let bd = Infinity;
  for (const e of enemiesOf(s, c).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const d = distance(c, e);
    if (d !== null && d < bd && !isIncapacitated(s, e)) {
      bd = d;
      best = e;
    }
  }
  return best;
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

export function within(a: Square, b: Square, n: number): boolean {
  return chebyshev(a, b) <= n;
}
