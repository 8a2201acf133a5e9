import { chebyshev } from '@fray/engine';
import type { Options } from '../options.js';
import {
  afterBurst,
  boost,
  cond,
  effectsOn,
  heldItems,
  posOf,
  sumN,
  type AttackKind,
  type Benefit,
  type C,
  type Power,
  type State,
} from '../state/index.js';

/** Attacks, defenses, damage and powers as numbers: what the resolution steps compute before they roll. */

export const isConflictKind = (k: AttackKind): boolean => k === 'court' || k === 'rumor';

/** Reach / range / conversation conditions of the four attack kinds: why `t` is not a legal target, or null. */
export function rangeWhy(o: Options, a: C, t: C, kind: AttackKind): string | null {
  const pa = posOf(a);
  const pt = posOf(t);
  if (!pa || !pt) return 'both characters must be on the grid';
  const d = chebyshev(pa, pt);
  switch (kind) {
    case 'close':
      return d <= a.stats.reach ? null : `"against any opponent within the attack’s reach" (reach ${a.stats.reach}, distance ${d})`;
    case 'ranged':
      if (a.stats.range <= 0) return 'no ranged attack';
      if (d <= 1) return '"against any non-adjacent opponent"';
      return d <= a.stats.range ? null : `"within the attack’s range" (range ${a.stats.range}, distance ${d})`;
    case 'court':
      return d <= o.conversationRange ? null : `"against any opponent within conversation range" (${o.conversationRange} squares)`;
    case 'rumor':
      if (d <= o.conversationRange) return '"outside conversation range"';
      return o.communicationRange === null || d <= o.communicationRange ? null : '"but within communication range"';
  }
}

export function defenseAgainst(s: State, o: Options, t: C, a: C, kind: AttackKind): { value: number; advantage: number } {
  const bonus = (isConflictKind(kind) ? t.stats.socialDefense : t.stats.defense) + boost(s, t.id, 'defense');
  let value = t.data.activeDefense ?? 10 + bonus;
  // Vulnerable: the defense bonus counts half.
  if (cond(s, t.id, 'vulnerable')) value -= Math.floor(Math.max(0, bonus) / 2);
  let adv = Math.min(o.maxAdvantage, t.data.analyze[a.id] ?? 0);
  adv += sumN(effectsOn(s, t.id, 'distract').filter((e) => e.data?.['against'] === a.id));
  adv += sumN(effectsOn(s, t.id, 'advantage'));
  if (t.data.stance) {
    if (t.data.stance.bonus.on === 'defense') adv += t.data.stance.bonus.n;
    if (t.data.stance.penalty.on === 'defense') adv -= t.data.stance.penalty.n;
  }
  return { value, advantage: afterBurst(s, t.id, a.id, adv) };
}

export function damageRank(s: State, a: C, kind: AttackKind, powerRank?: number): number {
  let rank = (powerRank ?? a.stats.damage[kind]) + boost(s, a.id, 'damage');
  rank += sumN(effectsOn(s, a.id, 'effect-bonus'));
  if (a.data.stance) {
    if (a.data.stance.bonus.on === 'effect') rank += a.data.stance.bonus.n;
    if (a.data.stance.penalty.on === 'effect') rank -= a.data.stance.penalty.n;
  }
  return rank;
}

/** The defender's better save against a stunt. */
export function stuntSave(t: C, kind: AttackKind): 'fortitude' | 'will' | 'reflex' {
  // "against the defender’s Fortitude or Reflex resistance for Combat Attacks, or Will or Reflex resistance for Conflict Attacks"
  const first = isConflictKind(kind) ? 'will' : 'fortitude';
  return t.stats[first] >= t.stats.reflex ? first : 'reflex';
}

export function stuntPenalty(t: C, benefit: Benefit, itemId?: string): number {
  // "If the defender is holding the object in two hands, the attack check penalty is -2" (disarm); "If the object is held, ... -2" (break).
  const it = itemId ? t.items.find((i) => i.id === itemId) : heldItems(t)[0];
  if (benefit === 'disarm' && it?.location === 'both-hands') return 2;
  if (benefit === 'break' && it && heldItems(t).some((h) => h.id === it.id)) return 2;
  return 1;
}

// ---------------------------------------------------------------- powers

export const POWER_KIND: Record<Power['range'], AttackKind> = {
  personal: 'close',
  close: 'close',
  ranged: 'ranged',
  court: 'court',
  gossip: 'rumor',
};

/** Why power `p` of `c` cannot reach `t`, or null. */
export function powerReachWhy(o: Options, c: C, p: Power, t: C): string | null {
  const pa = posOf(c);
  const pt = posOf(t);
  if (p.range === 'personal') return t.id === c.id ? null : 'a personal power works on yourself only';
  if (!pa || !pt) return 'both characters must be on the grid';
  const d = chebyshev(pa, pt);
  switch (p.range) {
    case 'close':
      return d <= p.reach ? null : '"within the power’s reach"';
    case 'ranged':
      return d <= 1 ? '"non-adjacent"' : d <= p.rangeSquares ? null : '"within the power’s range"';
    case 'court':
      return d <= o.conversationRange ? null : 'court powers work within conversation range';
    case 'gossip':
      return d <= o.conversationRange
        ? '"against any non-court opponent"'
        : o.communicationRange === null || d <= o.communicationRange
          ? null
          : 'beyond communication range';
  }
}

export function powerDefense(o: Options, t: C, a: C, kind: AttackKind): number {
  const bonus = isConflictKind(kind) ? t.stats.socialDefense : t.stats.defense;
  return (t.data.activeDefense ?? 10 + bonus) + Math.min(o.maxAdvantage, t.data.analyze[a.id] ?? 0);
}

/**
 * COMBINE: "grant an ally a bonus to the effect rank of a power, as long as you have a power with the same effect."
 * The ally's powers that `helper` can combine with: the same `effect` (and, for afflictions, the same condition)
 * as one of the helper's own powers; `powerId` narrows it to one of them.
 */
export function combinablePowers(helper: C, ally: C, powerId?: string): Power[] {
  const same = (a: Power, b: Power): boolean =>
    a.effect === b.effect && (a.effect !== 'affliction' || (a.condition ?? 'dazed') === (b.condition ?? 'dazed'));
  return ally.stats.powers.filter((p) => (!powerId || p.id === powerId) && helper.stats.powers.some((h) => same(h, p)));
}

/** The combine bonuses on `c` that reach power `p`. */
export function combineBonus(s: State, c: C, p: Power): number {
  return effectsOn(s, c.id, 'power-bonus').reduce((n, e) => {
    const ids = e.data?.['powerIds'];
    return n + (Array.isArray(ids) && ids.includes(p.id) ? Number(e.data?.['n'] ?? 0) : 0);
  }, 0);
}
