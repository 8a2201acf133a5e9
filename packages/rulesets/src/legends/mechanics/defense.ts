import { isDown, isEnemy, membersOfGroup, opts, posOf, type GroupDefense, type LCombatant, type LState } from '../state/index.js';
import { outnumbering, type Breakout } from './space.js';

/**
 * Group defense (its load against its defenders), outnumbering dice with breakout tactics, what group defense covers
 * beyond its declared list (the items of a defended body), and how long a bypass stays "current".
 */

function ratioFor(state: LState, group: string): number {
  const members = membersOfGroup(state, group);
  const zone = members[0] ? state.rs.zones[posOf(members[0]).zone] : undefined;
  return zone?.traits.groupDefenseRatio ?? opts(state).groupDefenseRatio;
}

/** quarters of protected weight, and the number of valid defenders (unprotected, standing, not carried) */
export function defenseLoad(state: LState, group: string, d: GroupDefense): { load: number; defenders: number; ratio: number } {
  const o = opts(state);
  let load = 0;
  for (const id of d.protected) {
    const c = state.combatants[id];
    if (!c) continue;
    load += isDown(state, id) ? o.bodyWeightQuarters : 4;
  }
  for (const ob of d.objects) load += ob.quarters;
  let defenders = 0;
  for (const m of membersOfGroup(state, group)) {
    if (d.protected.includes(m.id) || m.data.carriedBy || isDown(state, m.id)) continue;
    defenders += 1;
  }
  return { load, defenders, ratio: ratioFor(state, group) };
}

export function defenseOverflows(state: LState, group: string, d: GroupDefense): boolean {
  const { load, defenders, ratio } = defenseLoad(state, group, d);
  return load * ratio > defenders * 4;
}

/**
 * The Hindrance and Easing of a roll affected by outnumbering dice: the roll's own Hindrance (`base`, e.g. 2 for
 * escaping an engagement) plus the outnumbering dice, less the breakout option "Remove 1 Hindrance". With
 * `breakoutRemovesHindrance: 'roll'` (default) it removes 1 Hindrance of the roll whatever its source; with
 * 'outnumbering' only one the outnumbering dice gave. `removable` is what it may remove (checkRemoveHindrance refuses
 * the option where there is nothing).
 */
export function outnumberedDice(
  state: LState,
  c: LCombatant,
  base: number,
  breakout: Breakout | undefined,
  uncontested = false,
): { hindrance: number; easing: number; removable: number; mine: number; theirs: number } {
  const od = outnumbering(state, c, breakout, uncontested);
  const hindrance = base + od.hindrance;
  const removable = opts(state).breakoutRemovesHindrance === 'roll' ? hindrance : od.hindrance;
  const removed = breakout?.removeHindrance && removable > 0 ? 1 : 0;
  return { hindrance: hindrance - removed, easing: od.easing, removable, mine: od.mine, theirs: od.theirs };
}

interface Dropped {
  by: string;
  fallen?: boolean;
}

/**
 * The enemy group defense that guards a dropped item from `c`: a guarded object of the group, or an item dropped by a
 * fallen character whose body the group defends ("if your body is defended via group defense, these items are included
 * in that defense without additional difficulty"). `body` says which.
 */
export function guardOf(s: LState, c: LCombatant, itemId: string, drop: Dropped): { group: string; body: boolean } | null {
  for (const [g, gd] of Object.entries(s.rs.defense)) {
    const m = membersOfGroup(s, g)[0];
    if (!m || !isEnemy(c, m)) continue;
    if (gd.objects.some((o) => o.id === itemId)) return { group: g, body: false };
    if (drop.fallen && gd.protected.includes(drop.by)) return { group: g, body: true };
  }
  return null;
}

/** An enemy group in `t`'s zone that keeps others from an area. */
function guardsAreaNear(s: LState, t: LCombatant): boolean {
  const zone = posOf(t).zone;
  return Object.entries(s.rs.defense).some(([g, d]) => {
    const m = membersOfGroup(s, g)[0];
    return m !== undefined && isEnemy(t, m) && posOf(m).zone === zone && d.objects.some((o) => o.area);
  });
}

/**
 * "the ally must not currently be bypassing group defense": whether `t` is bypassing now. A bypass is current until its
 * benefit is used or lapses: attacks and guarded objects "this turn" (the rest of the bypasser's turn); a guarded area
 * "during the next round's movement phase" (until that phase ends or the bypasser makes its movement roll).
 * `bypassCurrent: 'until-next-turn'`: until the bypasser's next turn begins.
 */
export function isBypassing(s: LState, t: LCombatant): boolean {
  if (opts(s).bypassCurrent === 'until-next-turn') return t.data.turn.bypassed;
  const round = s.clock.round;
  if (t.data.turn.bypassed && !t.data.turn.ended && t.data.turnRound === round) return true;
  const r = t.data.bypassedRound;
  if (!r || !guardsAreaNear(s, t)) return false;
  if (r === round) return true;
  return r === round - 1 && s.clock.phase === 'movement' && t.data.moveRollRound !== round;
}
