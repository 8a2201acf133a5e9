import { z } from 'zod';
import { isDown, isEnemy, membersOfEngagement, opts, posOf, type LCombatant, type LState, type Position } from '../state/index.js';

/** Distances (short-range steps, the three ranges) and outnumbering dice in engagements. */

export type Range = 'short' | 'medium' | 'long';

/** Short-range movement steps between two positions (0: already there; Infinity: not in one round). */
export function stepsBetween(state: LState, from: Position, to: Position): number {
  if (from.zone === to.zone) {
    if (to.engagement && from.engagement === to.engagement) return 0;
    if (to.group && from.group === to.group && !to.engagement) return 0;
    if (!to.group && !to.engagement && !from.group && !from.engagement && from.area === to.area) return 0;
    if (from.area === to.area) return 1;
    const a = from.area ?? '';
    const b = to.area ?? '';
    if (isApproach(a) && approachEnds(a).includes(b)) return 1;
    if (isApproach(b) && approachEnds(b).includes(a)) return 1;
    if (isApproach(a) && isApproach(b) && approachEnds(a).some((x) => approachEnds(b).includes(x))) return 1;
    return 2;
  }
  const zone = state.rs.zones[from.zone];
  if (!zone || !zone.neighbors.includes(to.zone)) return Infinity;
  if ((from.area ?? '').endsWith(`>zone:${to.zone}`)) return 1;
  return opts(state).neighborZoneSteps;
}

function isApproach(area: string): boolean {
  return area.includes('>');
}

function approachEnds(area: string): string[] {
  const [a, b] = area.split('>');
  return [a ?? '', b ?? ''];
}

/** the place an approach area heads to (a plain area is its own) */
function baseArea(area: string | null): string {
  const a = area ?? '';
  const i = a.indexOf('>');
  return i < 0 ? a : a.slice(i + 1);
}

/** "from>to": a short step from `from` toward `to` (never nested: both ends are plain places) */
export function approachArea(from: string | null, to: string): string {
  return `${baseArea(from)}>${baseArea(to)}`;
}

/** "There are three ranges": short (engaged, grouped or in the same place), medium (same zone or close neighbour), long. */
export function rangeBetween(state: LState, a: LCombatant, b: LCombatant): Range {
  const pa = posOf(a);
  const pb = posOf(b);
  if (pa.zone !== pb.zone) {
    const z = state.rs.zones[pa.zone];
    return z && z.neighbors.includes(pb.zone) && opts(state).neighborZoneSteps === 1 ? 'medium' : 'long';
  }
  if (pa.engagement && pa.engagement === pb.engagement) return 'short';
  if (pa.group && pa.group === pb.group) return 'short';
  if (pa.area === pb.area) return 'short';
  const x = pa.area ?? '';
  const y = pb.area ?? '';
  if ((isApproach(x) && approachEnds(x).includes(y)) || (isApproach(y) && approachEnds(y).includes(x))) return 'short';
  return 'medium';
}

/** Does this combatant count as a character for outnumbering dice? */
function countsForOutnumbering(state: LState, c: LCombatant): boolean {
  if (c.stats.vehicle) return false;
  if (c.stats.mountId) return false;
  if (c.data.carriedBy) return false;
  if (isDown(state, c.id)) return false;
  return true;
}

export interface Breakout {
  ignoreLowerDex?: boolean;
  ignoreLowerStr?: boolean;
  removeHindrance?: boolean;
}

export const breakoutSchema = z
  .object({ ignoreLowerDex: z.boolean().optional(), ignoreLowerStr: z.boolean().optional(), removeHindrance: z.boolean().optional() })
  .strict();

export function breakoutDegrees(b: Breakout | undefined): number {
  if (!b) return 0;
  return (b.ignoreLowerDex ? 1 : 0) + (b.ignoreLowerStr ? 1 : 0) + (b.removeHindrance ? 1 : 0);
}

/**
 * Outnumbering dice for `c` in its engagement: 2 Easing at 2:1 or better (or if the enemy does not
 * wish to interfere), 2 Hindrance at 2:1 to 4:1 against, 4 Hindrance at 4:1 or more against.
 * Breakout tactics may ignore enemies with lower DEX / STR ("Remove 1 Hindrance" acts on the roll: defense.ts).
 */
export function outnumbering(
  state: LState,
  c: LCombatant,
  breakout?: Breakout,
  uncontested = false,
): { hindrance: number; easing: number; mine: number; theirs: number } {
  const eng = posOf(c).engagement;
  if (!eng) return { hindrance: 0, easing: 0, mine: 0, theirs: 0 };
  let mine = 0;
  let theirs = 0;
  for (const x of membersOfEngagement(state, eng)) {
    if (!countsForOutnumbering(state, x)) continue;
    if (!isEnemy(c, x)) {
      mine += 1;
      continue;
    }
    if (breakout?.ignoreLowerDex && x.stats.DEX < c.stats.DEX) continue;
    if (breakout?.ignoreLowerStr && x.stats.STR < c.stats.STR) continue;
    theirs += 1;
  }
  if (!countsForOutnumbering(state, c)) mine = Math.max(mine, 1);
  let hindrance = 0;
  let easing = 0;
  if (uncontested || (theirs === 0 ? mine > 0 : mine >= 2 * theirs)) easing = 2;
  else if (theirs >= 4 * mine) hindrance = 4;
  else if (theirs >= 2 * mine) hindrance = 2;
  return { hindrance, easing, mine, theirs };
}

/** Degrees of melee disadvantage on a combatant (effects named melee disadvantage). */
export function meleeDisadvantage(state: LState, id: string): number {
  let n = 0;
  for (const e of state.effects) {
    if (e.targetId === id && e.condition === 'melee-disadvantage') n += Number(e.data?.degrees ?? 1);
  }
  return n;
}
