import { chebyshev, hasCondition, type Effect, type Item } from '@fray/engine';
import type { Options } from '../options.js';
import type { C, Data, Slot, Square, State } from './types.js';

/**
 * The ruleset's state: its types (types.ts), the stats (stats.ts), the state at the start
 * (initial.ts), the copy-on-write copies (copy.ts), and here the small read-only selectors.
 */
export type { ActionType, AttackKind, Benefit, C, Data, LastCheck, Readied, RS, Slot, Square, State, TriggerKind } from './types.js';
export type { Power, Stats } from './stats.js';
export { positionSchema, statDocs, statsSchema } from './stats.js';
export { initialData, initialState, secondsPerRound } from './initial.js';
export { copyData, copyRs, sameData, sameRs } from './copy.js';

/** The encounter's options (the engine parsed them with optionsSchema when the encounter was made). */
export const optionsOf = (s: State): Options => s.options as Options;

/** A combatant the caller knows is there (the engine checked `combatantId`, or a check found it). */
export function combatant(s: State, id: string): C {
  return s.combatants[id]!;
}

export function posOf(c: C): Square | null {
  const p = c.position;
  return isSquare(p) ? p : null;
}
function isSquare(p: unknown): p is Square {
  return typeof p === 'object' && p !== null && 'x' in p && 'y' in p;
}

export const cond = (s: State, id: string, name: string): boolean => hasCondition(s, id, name);

export function isIncapacitated(s: State, c: C): boolean {
  return hasCondition(s, c.id, 'incapacitated') || c.data.fatigue >= 3;
}

/** Armed: a weapon in hand, or natural weapons. "If you're unarmed, you don't normally threaten any squares." */
export function isArmed(c: C): boolean {
  if (c.stats.naturalWeapons) return true;
  return c.items.some((i) => i.location !== 'carried' && i.location !== 'ground' && (i.tags ?? []).includes('weapon'));
}

export const hasWits = (c: C): boolean => (c.stats.skills['wits'] ?? 0) > 0;

export function skillOf(c: C, skill: string): number {
  return c.stats.skills[skill.toLowerCase()] ?? 0;
}

export function enemiesOf(s: State, c: C): C[] {
  return Object.values(s.combatants).filter((x) => x.id !== c.id && x.side !== c.side);
}

export function occupant(s: State, sq: Square, except?: string): C | undefined {
  return Object.values(s.combatants).find((c) => {
    const p = c.id !== except ? posOf(c) : null;
    return p !== null && p.x === sq.x && p.y === sq.y;
  });
}

/** The nearest enemy (ties: the first by id), for advance and withdraw. */
export function nearestEnemy(s: State, c: C): C | null {
  const pc = posOf(c);
  let best: C | null = null;
  let bd = Infinity;
  for (const e of enemiesOf(s, c).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const pe = posOf(e);
    const d = pc && pe ? chebyshev(pc, pe) : null;
    if (d !== null && d < bd && !isIncapacitated(s, e)) {
      bd = d;
      best = e;
    }
  }
  return best;
}

/** Speed rank → squares: rank 0 = 30 feet = 6 squares; each rank doubles / halves; at least one square. */
export function squaresForRank(rank: number): number {
  return Math.max(1, Math.floor(6 * Math.pow(2, rank)));
}

export function speedRank(s: State, c: C): number {
  let r = c.stats.speedRank + boost(s, c.id, 'speed');
  if (c.data.speedBonusRound === s.clock.round) r += 1;
  if (cond(s, c.id, 'hindered')) r -= 1;
  return r;
}

// ---------------------------------------------------------------- effects

/** The kind of one of the ruleset's effects (`data.kind`: aim-vulnerable, grab, boost, ...). */
export const kindOf = (e: Effect): unknown => e.data?.['kind'];

export function effectsOn(s: State, id: string, kind: string): Effect[] {
  return s.effects.filter((e) => e.targetId === id && kindOf(e) === kind);
}

/** The sum of `data.n` over effects (advantage, aid, distract...). */
export function sumN(list: Effect[]): number {
  return list.reduce((n, e) => n + Number(e.data?.['n'] ?? 0), 0);
}

/** Boosted trait (Surge: BOOST "+1 rank until the end of the character’s next turn"). */
export function boost(s: State, id: string, trait: string): number {
  return effectsOn(s, id, 'boost').filter((e) => e.data?.['trait'] === trait).length;
}
/** A Surge BURST on `id` that negates `what` ("Negate Disadvantages or opponents Advantages until the end of the character's next turn"). */
const hasBurst = (s: State, id: string, what: 'disadvantages' | 'advantages'): boolean =>
  effectsOn(s, id, 'burst').some((e) => (e.data?.['negate'] ?? 'disadvantages') === what);
/** What of a modifier `v` on a check of `selfId` against `opponentId` a BURST leaves: its own Disadvantages, or the opponent's Advantages, are negated. */
export const afterBurst = (s: State, selfId: string, opponentId: string, v: number): number =>
  (v < 0 && hasBurst(s, selfId, 'disadvantages')) || (v > 0 && hasBurst(s, opponentId, 'advantages')) ? 0 : v;

// ---------------------------------------------------------------- hands and items

const handsUsed = (c: C): number =>
  c.items.reduce((n, i) => n + (i.location === 'both-hands' ? 2 : i.location === 'left-hand' || i.location === 'right-hand' ? 1 : 0), 0);
export const freeHands = (c: C): number => Math.max(0, 2 - handsUsed(c));
export const heldItems = (c: C): Item[] =>
  c.items.filter((i) => i.location === 'left-hand' || i.location === 'right-hand' || i.location === 'both-hands');
export function freeHand(c: C, twoHanded: boolean): Item['location'] | null {
  if (twoHanded) return freeHands(c) >= 2 ? 'both-hands' : null;
  const used = new Set(c.items.map((i) => i.location));
  if (used.has('both-hands')) return null;
  if (!used.has('right-hand')) return 'right-hand';
  if (!used.has('left-hand')) return 'left-hand';
  return null;
}
export const isStored = (i: Item): boolean => i.location === 'carried' && (i.props ?? {})['stored'] === true;
export const isTwoHanded = (i: Item): boolean => (i.tags ?? []).includes('two-handed');

/** An item on the ground within a step of the combatant, and whose list it is in. */
export function groundItemNear(s: State, c: C, itemId: string): { owner: C; item: Item } | null {
  const p = posOf(c);
  for (const o of Object.values(s.combatants)) {
    const it = o.items.find((i) => i.id === itemId && i.location === 'ground');
    const at = it?.props?.['square'];
    if (it && p && isSquare(at) && chebyshev(p, at) <= 1) return { owner: o, item: it };
  }
  return null;
}

// ---------------------------------------------------------------- the budget

/**
 * Which slot pays for an action of a type: its own, else a bigger one ("substitute an additional
 * move action for your standard action ... an additional quick action for your move action").
 * Slots are nested, so taking the smallest that fits never blocks a later action that could fit.
 */
export function slotFor(d: Data, type: Slot): Slot | null {
  if (type === 'quick' && d.slots.quick > 0) return 'quick';
  if (type !== 'standard' && d.slots.move > 0) return 'move';
  if (d.slots.standard > 0) return 'standard';
  return null;
}

export function hasReacted(s: State, o: Options, c: C): boolean {
  return o.reactionScope === 'any-turn' ? c.data.reactedSeq === s.rs.turnSeq : c.data.reactedCycle === c.data.turnsTaken;
}

/** Whether `c` moved this round (Slam: "When you move before an attack"). */
export const movedThisRound = (s: State, c: C): boolean => c.data.movedRound === s.clock.round && c.data.moved > 0;
