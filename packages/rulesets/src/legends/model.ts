import { z } from 'zod';
import { jsonCopy, type Combatant, type Ctx, type EncounterState, type Item } from '@fray/engine';
import type { LegendsOptions } from './options.js';

// ---------------------------------------------------------------------------------------------
// Actions (data-driven)
// ---------------------------------------------------------------------------------------------

export const actionKinds = ['free', 'minor', 'major'] as const;
export type ActionKind = (typeof actionKinds)[number];
export const actionTags = [
  'verbal',
  'slowing',
  'purely-mental',
  'melee-attack',
  'ranged-attack',
  'grapple',
  'needs-free-hand',
  'touch',
  'inventory',
] as const;
export type ActionTag = (typeof actionTags)[number];

export const actionDefSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9][a-z0-9-]{0,47}$/),
    name: z.string().min(1).max(80),
    /** the kinds it may be taken as (the first is the default) */
    kinds: z.array(z.enum(actionKinds)).min(1).max(3),
    tags: z.array(z.enum(actionTags)).max(9).default([]),
    /** free hands it needs (a hand used for a major action stays busy until your next turn) */
    hands: z.number().int().min(0).max(2).default(0),
    target: z.enum(['none', 'self', 'combatant', 'ally', 'enemy']).default('none'),
    /** "unless otherwise indicated": may be taken more than once a turn */
    repeatable: z.boolean().default(false),
    /** the rule it comes from (shown with the option) */
    rule: z.string().max(200).default('GM-defined action'),
  })
  .strict();
export type ActionDef = z.infer<typeof actionDefSchema>;

// ---------------------------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------------------------

export const statsSchema = z
  .object({
    DEX: z.number().int().min(0).max(40),
    SPD: z.number().int().min(0).max(40),
    STR: z.number().int().min(0).max(40),
    /** degrees of encumbrance (1: rushing costs more fatigue; 2+: no rushing) */
    encumbrance: z.number().int().min(0).max(5).default(0),
    /** degrees of Mobility Injury (any: no rushing) */
    mobilityInjury: z.number().int().min(0).max(5).default(0),
    /** ranks of Sprinting Focus (Athletics) */
    sprintingFocus: z.number().int().min(0).max(5).default(0),
    /** SPD from an outside source (a device): rushing on it alone takes no fatigue */
    externalSPD: z.number().int().min(0).max(40).default(0),
    /** a vehicle does not count for outnumbering dice */
    vehicle: z.boolean().default(false),
    /** the id of the mount this character rides (riders do not count for outnumbering dice) */
    mountId: z.string().min(1).max(64).nullable().default(null),
    /** person (two hands), animal (no hands unless hands is set), tech (hands) */
    kind: z.enum(['person', 'animal', 'tech']).default('person'),
    /** number of hands, overriding the kind's default */
    hands: z.number().int().min(0).max(2).optional(),
    /** may be carried by a sufficiently large and strong ally */
    willingToBeCarried: z.boolean().default(true),
    /** weapon types this character wields competently (Close Combat / Marksmanship Abilities) */
    competences: z.array(z.string().min(1).max(64)).max(64).default([]),
    /** actions this character's Abilities grant */
    actions: z.array(actionDefSchema).max(64).default([]),
    /** wounds this character can take before being taken out (option attackOutcome) */
    toughness: z.number().int().min(1).max(1000).default(10),
  })
  .strict();
export type LegendsStats = z.infer<typeof statsSchema>;

export const statDocs: Record<string, string> = {
  DEX: 'Dexterity: turn order rolls, picking up dropped items.',
  SPD: 'Speed: movement rolls, rushing +TN, bypassing group defense.',
  STR: 'Strength: weapon requirements, breakout tactics.',
  encumbrance: 'Degrees of encumbrance.',
  mobilityInjury: 'Degrees of Mobility Injury.',
  sprintingFocus: 'Ranks of Sprinting Focus (Athletics).',
  externalSPD: 'SPD granted by an outside source such as a device.',
  vehicle: 'A vehicle (does not count for outnumbering dice).',
  mountId: 'The mount this character rides.',
  kind: 'person, animal (no hands) or tech (hands).',
  hands: 'Number of hands, overriding the kind.',
  willingToBeCarried: 'Willing to be carried by an ally.',
  competences: 'Weapon types wielded competently.',
  actions: 'Actions granted by this character’s Abilities.',
  toughness: 'Wounds this character can take; at this many wounds it is taken out (incapacitated). Default 10.',
};

/** A weapon is an item whose props.weapon is set. */
export const weaponSchema = z.object({
  weapon: z.enum(['melee', 'ranged']),
  /** weapon type, matched against stats.competences */
  type: z.string().min(1).max(64),
  /** stat requirements to wield it in one hand */
  oneHanded: z.partialRecord(z.enum(['DEX', 'SPD', 'STR']), z.number().int()).optional(),
  /** stat requirements to wield it in two hands (default: the one-handed ones, or none) */
  twoHanded: z.partialRecord(z.enum(['DEX', 'SPD', 'STR']), z.number().int()).optional(),
  /** true: it cannot be wielded in one hand at all */
  twoHandedOnly: z.boolean().optional(),
});
export type Weapon = z.infer<typeof weaponSchema>;

// ---------------------------------------------------------------------------------------------
// Space
// ---------------------------------------------------------------------------------------------

export const positionSchema = z
  .object({
    zone: z.string().min(1).max(64),
    /** a place inside the zone (a zone feature, "the north end"...); null = the zone's open ground */
    area: z.string().min(1).max(140).nullable().default(null),
    group: z.string().min(1).max(64).nullable().default(null),
    engagement: z.string().min(1).max(64).nullable().default(null),
  })
  .strict();
export type Position = z.infer<typeof positionSchema>;

export const zoneTraitsSchema = z
  .object({
    /** die size of movement rolls in this zone */
    movementDie: z.number().int().min(2).max(100).optional(),
    /** unprotected characters needed per protected one */
    groupDefenseRatio: z.number().int().min(1).max(20).optional(),
    /** other traits, free text */
    notes: z.array(z.string().max(200)).max(20).optional(),
  })
  .strict();

export interface Zone {
  id: string;
  name: string;
  traits: z.infer<typeof zoneTraitsSchema>;
  features: { id: string; name: string; description: string }[];
  neighbors: string[];
}

// ---------------------------------------------------------------------------------------------
// Runtime state
// ---------------------------------------------------------------------------------------------

export interface TurnBudget {
  /** how many of its own turns this combatant has begun */
  n: number;
  /** the kinds taken this turn, in order */
  seq: ActionKind[];
  free: string[];
  minors: string[];
  major: string | null;
  verbal: boolean;
  touched: string | null;
  bypassed: boolean;
  /** item id whose minor-action pickup roll failed this turn */
  pickupFailed: string | null;
  ended: boolean;
  forfeited: boolean;
}

export interface LData {
  surprised: boolean;
  fatigue: number;
  /** wounds taken (attack outcomes and the GM's damage); taken out at stats.toughness */
  wounds: number;
  stealth: 'low' | null;
  /** round of the last movement roll attempted (0 = none) */
  moveRollRound: number;
  turn: TurnBudget;
  /** hands used for a major action: busy until this combatant's next turn */
  busyHands: number;
  /** protected characters who leave group defense cannot melee until this round */
  noMeleeUntilRound: number;
  carriedBy: string | null;
  /** the round its turn was forfeited to change turn order (0 = none) */
  forfeitRound: number;
  /** the round its last turn began (to know who has acted this round) */
  turnRound: number;
  /** the round of its last successful bypass of group defense (a guarded area opens the next movement phase) */
  bypassedRound: number;
}

export interface PendingMove {
  combatantId: string;
  destination: Position;
  steps: number;
  die: number;
  tn: number;
  total: number;
  margin: number;
  success: boolean;
  escaping: boolean;
  reactive: boolean;
  group: string | null;
  rollId: string;
  /** the character joined (group / engage / near), to bring them into a new group or engagement */
  join: string | null;
  mode: 'group' | 'engage' | 'near' | null;
  /** set once the mover decided (group moves resolve when every member has) */
  finished?: { reach: number; keep: boolean };
}

export interface PreparedReaction {
  id: string;
  by: string[];
  watch: string;
  anticipate: string;
  /** move: a movement roll when it triggers; rush: the prepared rush of a roll already made */
  kind: 'move' | 'rush';
  /** margin of the roll already made, for a prepared rush */
  margin?: number;
}

export interface GroupMove {
  group: string;
  /** the destination as the first member stated it (the others must state the same) */
  input: unknown;
  destination: Position;
  members: string[];
  agreed: string[];
  rolled: boolean;
}

export interface GroupDefense {
  protected: string[];
  /** guarded objects; `area` set: the group prevents access to that area of its zone */
  objects: { id: string; name: string; quarters: number; area?: string }[];
}

export interface Touch {
  by: string;
  target: string;
  round: number;
  until: 'end-of-turn' | 'next-turn' | 'maintained';
}

export interface Offer {
  id: string;
  from: string;
  to: string;
  itemId: string;
  /** hand: the item is in the giver's hand; inventory: offered from inventory; into: to be added to the recipient's inventory */
  kind: 'hand' | 'inventory' | 'into';
}

/** An attack rolled by the server, waiting for the GM to confirm or change its outcome. */
export interface PendingAttack {
  id: string;
  by: string;
  target: string;
  attack: string;
  weaponId: string | null;
  total: number;
  margin: number;
  hit: boolean;
  damage: number;
  damageFormula: string;
  rollId: string;
}

export interface LRS {
  zones: Record<string, Zone>;
  turnRolls: Record<string, number>;
  /** who still has to decide (turn-order decisions, repositioning, movement, group defense) */
  queue: string[];
  /** the order as the ruleset last set it (to re-anchor durations when someone leaves) */
  lastOrder: string[];
  pending: PendingMove[];
  reactions: PreparedReaction[];
  groupMoves: GroupMove[];
  defense: Record<string, GroupDefense>;
  /** groups whose defense has too many protected after a defender fell */
  overflow: string[];
  forfeits: string[];
  touches: Touch[];
  /** who touched whom this round ("by>target"), for the two-touchers limit */
  touchLog: string[];
  offers: Offer[];
  customActions: Record<string, ActionDef>;
  /** the round's movement phase: who may move */
  movers: string[];
  /** attacks waiting for the GM's ruling (option attackOutcome) */
  attacks: PendingAttack[];
}

export type LState = EncounterState<LRS, LegendsStats, LData>;
export type LCombatant = Combatant<LegendsStats, LData>;
/** the handler context with the legends state types */
export type LCtx = Omit<Ctx<LRS, LegendsOptions>, 'state' | 'base'> & { readonly state: LState; readonly base?: LState };

export function newTurn(n = 0): TurnBudget {
  return { n, seq: [], free: [], minors: [], major: null, verbal: false, touched: null, bypassed: false, pickupFailed: null, ended: false, forfeited: false };
}

export const DEFAULT_ZONE = 'main';

export function posOf(c: LCombatant): Position {
  const p = c.position as Position | null;
  return p ?? { zone: DEFAULT_ZONE, area: null, group: null, engagement: null };
}

export function opts(state: LState): LegendsOptions {
  return state.options as unknown as LegendsOptions;
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

export function handsHolding(c: LCombatant): number {
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

export function weaponOf(it: Item): Weapon | null {
  const p = weaponSchema.safeParse(it.props ?? {});
  return p.success ? p.data : null;
}

/**
 * "A character is considered to be wielding a melee weapon if they meet the stat requirements
 * to do so in the manner they are currently holding it (two-handed or one-handed)."
 */
export function wielding(c: LCombatant, it: Item): { wielding: boolean; competent: boolean; reason: string } {
  const w = weaponOf(it);
  if (!w) return { wielding: false, competent: false, reason: `${it.name} is not a weapon.` };
  if (!inHand(it)) return { wielding: false, competent: false, reason: `${it.name} is not in hand.` };
  const two = it.location === 'both-hands';
  if (!two && w.twoHandedOnly) return { wielding: false, competent: false, reason: `${it.name} needs two hands.` };
  const req = two ? (w.twoHanded ?? w.oneHanded ?? {}) : (w.oneHanded ?? {});
  for (const [stat, min] of Object.entries(req)) {
    if (c.stats[stat as 'DEX' | 'SPD' | 'STR'] < (min as number)) {
      return {
        wielding: false,
        competent: false,
        reason: `${c.name} does not meet ${stat} ${min} to wield ${it.name} ${two ? 'two-handed' : 'one-handed'}.`,
      };
    }
  }
  return { wielding: true, competent: c.stats.competences.includes(w.type), reason: '' };
}

// ---------------------------------------------------------------------------------------------
// Dice: "a dN roll on STAT", Hindrance and Easing, reactive +TN
// ---------------------------------------------------------------------------------------------

export interface StatRollInput {
  combatantId: string;
  stat: 'DEX' | 'SPD' | 'STR';
  dice?: number;
  die?: number;
  hindrance?: number;
  easing?: number;
  /** reactive +TN (rushing) */
  plusTn?: number;
  purpose: string;
}

export interface StatRollResult {
  formula: string;
  total: number;
  tn: number;
  margin: number;
  success: boolean;
  rollId: string;
}

export function statFormula(o: LegendsOptions, dice: number, die: number, net: number): string {
  if (o.hindranceMode === 'tn' || net === 0) return `${dice}d${die}`;
  const worse = o.rollMechanic === 'roll-under' ? 'kh' : 'kl';
  const better = o.rollMechanic === 'roll-under' ? 'kl' : 'kh';
  return `${dice + Math.abs(net)}d${die}${net > 0 ? worse : better}${dice}`;
}

export function judge(o: LegendsOptions, stat: number, total: number, net: number, plusTn: number): { tn: number; margin: number; success: boolean } {
  const tnShift = o.hindranceMode === 'tn' ? -net * o.hindranceTnStep : 0;
  if (o.rollMechanic === 'roll-under') {
    const tn = stat + plusTn + tnShift;
    return { tn, margin: tn - total, success: total <= tn };
  }
  const tn = o.rollPlusTarget - tnShift;
  const score = total + stat + plusTn;
  return { tn, margin: score - tn, success: score >= tn };
}

export function statRoll(ctx: LCtx, input: StatRollInput): StatRollResult {
  const c = ctx.state.combatants[input.combatantId]!;
  const o = ctx.options;
  const dice = input.dice ?? 1;
  const die = input.die ?? 12;
  const net = (input.hindrance ?? 0) - (input.easing ?? 0);
  const formula = statFormula(o, dice, die, net);
  const r = ctx.roll(formula, input.purpose, { combatantId: c.id });
  const j = judge(o, c.stats[input.stat], r.total, net, input.plusTn ?? 0);
  return { formula, total: r.total, tn: j.tn, margin: j.margin, success: j.success, rollId: r.id };
}

// ---------------------------------------------------------------------------------------------
// Groups, engagements, ranges, outnumbering dice
// ---------------------------------------------------------------------------------------------

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

export function isApproach(area: string): boolean {
  return area.includes('>');
}
export function approachEnds(area: string): string[] {
  const [a, b] = area.split('>');
  return [a ?? '', b ?? ''];
}
/** the place an approach area heads to (a plain area is its own) */
export function baseArea(area: string | null): string {
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

export function isEnemy(a: LCombatant, b: LCombatant): boolean {
  return a.side !== b.side;
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
    if (e.targetId === id && e.condition === 'melee-disadvantage') n += Number((e.data as { degrees?: number } | undefined)?.degrees ?? 1);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Group defense
// ---------------------------------------------------------------------------------------------

export function ratioFor(state: LState, group: string): number {
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

export function isProtected(state: LState, id: string): string | null {
  const c = state.combatants[id];
  if (!c) return null;
  const g = posOf(c).group;
  if (!g) return null;
  const d = state.rs.defense[g];
  return d && d.protected.includes(id) ? g : null;
}

/** A plain-data copy, for events: the same as a JSON round trip, without the text (and without reading drafts through their proxies). */
export function clone<T>(x: T): T {
  return jsonCopy(x);
}
