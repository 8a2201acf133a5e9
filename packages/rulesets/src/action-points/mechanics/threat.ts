import { chebyshev } from '@fray/engine';
import { alive, canAct, has, noAttacks, optsOf, posOf, type ActParams, type C, type S, type Sq } from '../state.js';
import { isRanged, reachOf, weaponOf, type Shape } from './shape.js';

/** Threatened squares, attacks of opportunity, and what provokes them. */

const foesOf = (s: S, c: C): C[] => Object.values(s.combatants).filter((o) => o.side !== c.side && o.id !== c.id);

export function threatens(s: S, f: C, sq: Sq | null): boolean {
  const pos = posOf(f);
  if (!sq || !pos || !f.stats.threatens || !alive(f)) return false;
  const reach = reachOf(f);
  return reach > 0 && chebyshev(pos, sq) <= reach;
}

/** Why `f` may make no attack of opportunity now (ignoring position), or null when it may. */
export type AooBar = 'cannot-act' | 'reactions-per-phase' | 'per-round' | 'no-attacks';

export function aooBar(s: S, f: C): AooBar | null {
  if (!canAct(s, f)) return 'cannot-act';
  if (f.data.reactionsThisPhase >= optsOf(s).reactionsPerPhase) return 'reactions-per-phase';
  if (f.data.aooThisRound >= 1 + f.stats.extraAttacksOfOpportunity) return 'per-round';
  if (noAttacks(s, f.id)) return 'no-attacks';
  return null;
}

/** May `f` make an attack of opportunity now (ignoring position)? */
export const canMakeAoO = (s: S, f: C): boolean => aooBar(s, f) === null;

export function threateningFoes(s: S, c: C, sq: Sq | null = posOf(c)): C[] {
  return foesOf(s, c).filter((f) => threatens(s, f, sq));
}

/** Why and from whom an action provokes (before it is taken), or null. Move actions are checked square by square. */
export function provocation(
  s: S,
  c: C,
  sh: Shape,
  p: ActParams,
  atRoll: boolean,
  includeMove = true,
  threat: C[] = threateningFoes(s, c),
): { from: string[]; reason: string } | null {
  const all = threat.map((f) => f.id);
  const subs = sh.subtypes;
  if (subs.includes('complex'))
    return all.length ? { from: all, reason: 'complex: "A complex action always provokes attacks of opportunity"' } : null;
  if (sh.def.id === 'draw-sheathe' && c.stats.baseAttackBonus === 0) {
    return all.length ? { from: all, reason: 'draw or sheathe at base attack bonus +0' } : null;
  }
  if (subs.includes('attack') && atRoll) {
    const w = sh.tags.includes('weapon') ? weaponOf(c, p.weaponId) : undefined;
    if (w && isRanged(w)) return all.length ? { from: all, reason: 'ranged attack' } : null;
    const needsFeat = sh.def.feat ?? (w?.category === 'unarmed' ? 'improved-unarmed-strike' : undefined);
    if (needsFeat && !has(c, needsFeat)) {
      const from = p.targetId ? all.filter((id) => id === p.targetId) : all;
      return from.length ? { from, reason: `attack without ${needsFeat}: provokes only from the target` } : null;
    }
    if (!w && sh.tags.includes('weapon') && !has(c, 'improved-unarmed-strike')) {
      const from = p.targetId ? all.filter((id) => id === p.targetId) : all;
      return from.length ? { from, reason: 'unarmed strike without improved-unarmed-strike: provokes only from the target' } : null;
    }
  }
  if (subs.includes('move') && sh.def.id === 'stand-up')
    return all.length ? { from: all, reason: 'standing up in a threatened square' } : null;
  if (includeMove && subs.includes('move') && all.length) return { from: all, reason: 'move: provokes when you leave a threatened square' };
  return null;
}

export function occupied(s: S, sq: Sq, except: string): C | undefined {
  return Object.values(s.combatants).find((o) => o.id !== except && alive(o) && posOf(o)?.x === sq.x && posOf(o)?.y === sq.y);
}
