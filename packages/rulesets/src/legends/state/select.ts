import { jsonCopy, type Item } from '@fray/engine';
import type { LegendsOptions } from '../options.js';
import type { DroppedInfo, LCombatant, LState, Position, TurnBudget } from './types.js';

/** Small read-only selectors over the legends state. */

export const DEFAULT_ZONE = 'main';

export function newTurn(n = 0): TurnBudget {
  return {
    n,
    seq: [],
    free: [],
    minors: [],
    major: null,
    verbal: false,
    touched: null,
    bypassed: false,
    pickupFailed: null,
    ended: false,
    forfeited: false,
  };
}

export function posOf(c: LCombatant): Position {
  const p = c.position;
  return isPosition(p) ? p : { zone: DEFAULT_ZONE, area: null, group: null, engagement: null };
}

export function opts(state: LState): LegendsOptions {
  // the engine parsed the options with optionsSchema when the encounter was created
  return state.options as LegendsOptions;
}

export function hasCond(state: LState, id: string, names: readonly string[]): string | null {
  for (const e of state.effects) if (e.targetId === id && e.condition && names.includes(e.condition)) return e.condition;
  return null;
}

export function isDown(state: LState, id: string): boolean {
  return hasCond(state, id, opts(state).unconsciousConditions) !== null;
}

export function handsOf(c: LCombatant): number {
  if (c.stats.hands !== undefined) return c.stats.hands;
  return c.stats.kind === 'animal' ? 0 : 2;
}

function handsHolding(c: LCombatant): number {
  let n = 0;
  for (const it of c.items) {
    if (it.location === 'both-hands') n += 2;
    else if (it.location === 'left-hand' || it.location === 'right-hand') n += 1;
  }
  return n;
}

export function freeHands(c: LCombatant): number {
  return Math.max(0, handsOf(c) - handsHolding(c) - c.data.busyHands);
}

/** The hand an item can go into, if any ("you must have a free hand in order to grab an item"). */
export function freeHandSlot(c: LCombatant): 'left-hand' | 'right-hand' | null {
  if (freeHands(c) < 1) return null;
  const used = new Set(c.items.map((i) => i.location));
  if (used.has('both-hands')) return null;
  if (!used.has('right-hand')) return 'right-hand';
  if (!used.has('left-hand')) return 'left-hand';
  return null;
}

export function inHand(it: Item): boolean {
  return it.location === 'left-hand' || it.location === 'right-hand' || it.location === 'both-hands';
}

export function membersOfGroup(state: LState, group: string): LCombatant[] {
  const out: LCombatant[] = [];
  for (const c of Object.values(state.combatants)) if (posOf(c).group === group) out.push(c);
  return out;
}

export function membersOfEngagement(state: LState, eng: string): LCombatant[] {
  const out: LCombatant[] = [];
  for (const c of Object.values(state.combatants)) if (posOf(c).engagement === eng) out.push(c);
  return out;
}

export function groupIds(state: LState): string[] {
  const ids = new Set<string>();
  for (const c of Object.values(state.combatants)) {
    const g = posOf(c).group;
    if (g) ids.add(g);
  }
  return [...ids].sort();
}

export function isEnemy(a: LCombatant, b: LCombatant): boolean {
  return a.side !== b.side;
}

export function isProtected(state: LState, id: string): string | null {
  const c = state.combatants[id];
  if (!c) return null;
  const g = posOf(c).group;
  if (!g) return null;
  const d = state.rs.defense[g];
  return d && d.protected.includes(id) ? g : null;
}

export function findItem(state: LState, itemId: string): { owner: LCombatant; item: Item } | null {
  for (const owner of Object.values(state.combatants)) {
    const item = owner.items.find((i) => i.id === itemId);
    if (item) return { owner, item };
  }
  return null;
}

export function droppedOf(item: Item): DroppedInfo | null {
  const d = droppedInfo(item);
  return item.location === 'ground' && d ? d : null;
}

export function groupedUp(a: LCombatant, b: LCombatant): boolean {
  const pa = posOf(a);
  const pb = posOf(b);
  return pa.group !== null && pa.group === pb.group;
}

/** A plain-data copy, for events: the same as a JSON round trip, without the text (and without reading drafts through their proxies). */
export function clone<T>(x: T): T {
  return jsonCopy(x);
}

/** A position the ruleset put there (positionSchema parsed every position a command gave). */
export function isPosition(p: unknown): p is Position {
  return typeof p === 'object' && p !== null && 'zone' in p;
}

/** Where and when an item on the ground was dropped (`props.dropped`), if it says. */
export function droppedInfo(item: Item): DroppedInfo | undefined {
  const d = item.props?.dropped;
  return isDroppedInfo(d) ? d : undefined;
}

function isDroppedInfo(d: unknown): d is DroppedInfo {
  return typeof d === 'object' && d !== null && 'by' in d && 'turnN' in d;
}
