import { checkReaction } from '../checks/turn.js';
import type { Options } from '../options.js';
import { enemiesOf, hasWits, isArmed, posOf, type AttackKind, type C, type Square, type State } from '../state/index.js';
import { threatens } from './space.js';

const byId = (a: C, b: C): number => (a.id < b.id ? -1 : 1);

/** Enemies that threaten the combatant's square and could make an opportunity attack now. */
export function threatenersOf(s: State, o: Options, c: C): C[] {
  const p = posOf(c);
  if (!p) return [];
  return enemiesOf(s, c)
    .filter((e) => threatens(s, o, e, p) !== null && checkReaction(s, o, e) === null)
    .sort(byId);
}

/** The same, for a square `c` is leaving along a path (not yet its position). */
export function threatenersOfSquare(s: State, o: Options, c: C, sq: Square): C[] {
  const real = posOf(c);
  if (real && real.x === sq.x && real.y === sq.y) return threatenersOf(s, o, c);
  return enemiesOf(s, c)
    .filter((e) => threatens(s, o, e, sq) !== null && checkReaction(s, o, e) === null)
    .sort(byId);
}

/** Who an attack provokes: "Attacking an armed opponent while unarmed", "who has ranks in Wits while you do not", ranged and rumor always. */
export function attackProvokers(s: State, o: Options, a: C, t: C | null, kind: AttackKind): C[] {
  const pa = posOf(a);
  if (!pa) return [];
  if (kind === 'ranged' || kind === 'rumor') return threatenersOf(s, o, a);
  if (!t) return [];
  const canOa = (x: C) => threatens(s, o, x, pa) !== null && checkReaction(s, o, x) === null && x.side !== a.side;
  if (kind === 'close' && !isArmed(a) && isArmed(t) && canOa(t)) return [t];
  if (kind === 'court' && hasWits(t) && !hasWits(a) && canOa(t)) return [t];
  return [];
}
