import { chebyshev, squareLine, type EngineError, type Effect, type ErrorCode } from '@fray/engine';
import { actionDef, type ActionDef, type ActionType, type Subtype, type Tag } from './catalogue.js';
import { DEFAULT_BASE_SPEED_BY_SIZE, PHASES, baseActionSpeed, laterSpeed, phaseIndex, type Phase, type Speed, type SpeedTable } from './phases.js';
import { missilePhase } from './missiles.js';
import { RULESET_ID, optsOf, type ActParams, type C, type InProgress, type Options, type S, type Sq, type Weapon } from './types.js';

export const rule = (name: string): string => `${RULESET_ID}.${name}`;

export class Blocked {
  constructor(
    readonly code: ErrorCode,
    readonly rule: string,
    readonly message: string,
  ) {}
  toError(): EngineError {
    return { code: this.code, rule: this.rule, message: this.message };
  }
}
const block = (code: ErrorCode, name: string, message: string): Blocked => new Blocked(code, rule(name), message);

export const has = (c: C, feat: string): boolean => c.stats.feats.includes(feat);
export const hasCond = (s: S, id: string, condition: string): boolean => s.effects.some((e) => e.targetId === id && e.condition === condition);
export const alive = (c: C): boolean => c.data.hp > 0;
export const initKey = (c: C): [number, number] => [c.data.initiative, c.data.tiebreak];
export const dexBonus = (c: C): number => Math.max(0, Math.floor((c.stats.dexterity - 10) / 2));

/** In the surprise round only aware creatures act (or react). */
export function canAct(s: S, c: C): boolean {
  return alive(c) && (!s.rs.surprise || c.data.aware);
}

/** Still spending AP this round: has AP, has not stopped, has not readied (which forfeits the rest). */
export function stillActing(s: S, c: C): boolean {
  return canAct(s, c) && c.data.ap > 0 && !c.data.stopped && !readiedThisRound(s, c);
}

export function readiedThisRound(s: S, c: C): boolean {
  return c.data.forfeitedRound === s.rs.round && s.rs.round > 0;
}

/** Gets a place in the initiative order of this phase. */
export function hasSlot(s: S, c: C, phase: number): boolean {
  return stillActing(s, c) && c.data.delayUntil <= phase;
}

export function keyBefore(a: [number, number], b: [number, number]): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

/** The whole initiative order, highest first ("Combatants act in initiative order (highest to lowest)"). */
export function orderOf(s: S): string[] {
  return sortedOrder(s).slice();
}

interface OrderRow {
  id: string;
  name: string;
  initiative: number;
  tiebreak: number;
}
/** The last order computed, with what it was computed from (it changes only when initiatives do). */
let lastRows: OrderRow[] = [];
let lastOrder: string[] = [];

/** Whether the combatants are those of `lastRows`, with the same names, initiatives and tiebreaks. */
function sameRows(cs: S['combatants']): boolean {
  let n = 0;
  for (const _id in cs) n++;
  if (n !== lastRows.length) return false;
  for (const r of lastRows) {
    const c = cs[r.id];
    if (c === undefined || c.id !== r.id || c.name !== r.name || c.data.initiative !== r.initiative || c.data.tiebreak !== r.tiebreak) return false;
  }
  return true;
}

/** The order as `orderOf` gives it, shared: not to be changed or handed out. */
export function sortedOrder(s: S): readonly string[] {
  const cs = s.combatants;
  if (sameRows(cs)) return lastOrder;
  // Each combatant is read once (on a draft every read is a proxy trap), then the keys are sorted.
  const rows = Object.values(cs).map((c) => ({ id: c.id, name: c.name, initiative: c.data.initiative, tiebreak: c.data.tiebreak }));
  rows.sort((a, b) => b.initiative - a.initiative || b.tiebreak - a.tiebreak || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  lastRows = rows;
  lastOrder = rows.map((c) => c.id);
  return lastOrder;
}

/** The speed table of the options (built once per options object: options do not change). */
const speedTables = new WeakMap<Options, SpeedTable>();
function speedTableOf(o: Options): SpeedTable {
  let t = speedTables.get(o);
  if (!t) {
    t = { baseSpeedBySize: { ...DEFAULT_BASE_SPEED_BY_SIZE, ...o.baseSpeedBySize }, fastMovement: o.fastMovement, slowMovement: o.slowMovement };
    speedTables.set(o, t);
  }
  return t;
}

export function baseSpeedOf(s: S, c: C): Speed {
  if (c.stats.baseActionSpeed) return c.stats.baseActionSpeed;
  return baseActionSpeed(c.stats.size, c.stats.speed, speedTableOf(optsOf(s)));
}

export function weaponSpeedOf(s: S, w: Weapon): Speed {
  if (w.speed) return w.speed;
  const table = optsOf(s).weaponSpeedByCategory;
  return table[w.category] ?? 'fast';
}

export function weaponOf(c: C, weaponId: string | undefined, natural = false): Weapon | undefined {
  if (weaponId) return c.stats.weapons.find((w) => w.id === weaponId);
  return c.stats.weapons.find((w) => (natural ? w.category === 'natural' : w.kind === 'melee')) ?? c.stats.weapons[0];
}

export const isRanged = (w: Weapon | undefined): boolean => w !== undefined && w.kind !== 'melee';

/** Reach by stats object: stats are never changed in place (a GM edit assigns new stats), so the object identifies the value. */
const reachByStats = new WeakMap<object, number>();

export function reachOf(c: C): number {
  const stats = c.stats;
  let r = reachByStats.get(stats);
  if (r === undefined) {
    r = stats.reach;
    for (const w of stats.weapons) if (w.kind === 'melee' && w.reach !== undefined) r = Math.max(r, w.reach);
    reachByStats.set(stats, r);
  }
  return r;
}

/** What an action is once its parameters and the actor's feats are taken into account. */
export interface Shape {
  def: ActionDef;
  type: ActionType;
  cost: number;
  subtypes: Subtype[];
  consecutive: boolean;
  tags: Tag[];
}

export function shapeOf(s: S, c: C, def: ActionDef, p: ActParams): Shape {
  let type = def.type;
  let cost = def.ap;
  let subtypes = [...def.subtypes];
  let consecutive = def.consecutive && !optsOf(s).nonConsecutiveActions.includes(def.id);
  switch (def.id) {
    case 'aid-another': {
      const aided = p.aids ? actionDef(p.aids) : undefined;
      if (aided) subtypes = [...aided.subtypes];
      break;
    }
    case 'appraise-item':
      if (p.holding) subtypes = ['complex'];
      break;
    case 'search':
      if (p.area) subtypes = ['complex'];
      break;
    case 'feint':
      if (has(c, 'improved-feint')) subtypes = [];
      break;
    case 'load-light-crossbow':
      if (has(c, 'rapid-reload')) {
        type = 'free';
        cost = 0;
        subtypes = [];
      }
      break;
    case 'load-firearm-one-handed':
      if (has(c, 'rapid-reload')) {
        type = 'simple';
        cost = 1;
      }
      break;
    case 'load-firearm-two-handed':
      if (has(c, 'rapid-reload')) {
        type = 'advanced';
        cost = 2;
      }
      break;
    case 'sleight-of-hand':
      if (p.hasty) {
        type = 'simple';
        cost = 1;
      }
      break;
    case 'push-animal':
      if (p.companion) {
        type = 'simple';
        cost = 1;
      }
      break;
    case 'mount-dismount':
      if (p.free) {
        type = 'free';
        cost = 0;
      }
      break;
    case 'ready-drop-shield':
      if (p.free) {
        type = 'free';
        cost = 0;
      }
      break;
    case 'manipulate-item':
      if (p.ap !== undefined && p.ap > 1) {
        type = 'advanced';
        cost = p.ap;
        consecutive = p.consecutive ?? true;
      }
      break;
    case 'disable-device':
    case 'find-tracks':
      cost = Math.max(def.minAp ?? def.ap, p.ap ?? def.ap);
      if (def.id === 'disable-device' && p.consecutive !== undefined) consecutive = p.consecutive;
      break;
  }
  if (type === 'free' || type === 'simple') consecutive = false;
  return { def, type, cost, subtypes, consecutive, tags: def.tags };
}

/** The subtypes of an advanced action in progress (a defensive casting lost its complex subtype). */
export function progressSubtypes(s: S, c: C, rec: InProgress): Subtype[] {
  const def = actionDef(rec.action)!;
  const sh = shapeOf(s, c, def, rec.params);
  return rec.defensive ? sh.subtypes.filter((x) => x !== 'complex') : sh.subtypes;
}

/**
 * The earliest phase an action may be taken: the reconstructed table of action phases.
 * - declaration: free actions at the speed of thought (speak, recall knowledge, ...)
 * - ready-missile: other free and swift actions, readied missiles, triggered weapons (crossbows,
 *   firearms), simple and advanced actions without the move or attack subtypes
 * - thrown: thrown weapons and ranged weapons not fired earlier, actions with the move subtype
 * - fast / average / slow / very-slow: attack actions, from the later of base action speed and
 *   weapon speed ("whichever is later"); missiles and spells are not gated by weapon speed.
 */
export function earliestPhase(s: S, c: C, sh: Shape, p: ActParams): Phase {
  const override = optsOf(s).earliestPhaseOverrides[sh.def.id];
  if (override) return override;
  if (sh.type === 'free') return sh.tags.includes('thought') ? 'declaration' : 'ready-missile';
  if (sh.subtypes.includes('attack')) {
    const natural = sh.tags.includes('natural');
    const w = sh.tags.includes('weapon') || natural ? weaponOf(c, p.weaponId, natural) : weaponOf(c, p.weaponId);
    if (w && isRanged(w) && sh.tags.includes('weapon')) return missilePhase(s, c, w);
    const base = baseSpeedOf(s, c);
    const speed = w && !isRanged(w) ? laterSpeed(base, weaponSpeedOf(s, w)) : base;
    return speed;
  }
  if (sh.subtypes.includes('move')) return 'thrown';
  return 'ready-missile';
}

// ---------------------------------------------------------------- threat and provocation

export const foesOf = (s: S, c: C): C[] => Object.values(s.combatants).filter((o) => o.side !== c.side && o.id !== c.id);

export function threatens(s: S, f: C, sq: Sq | null): boolean {
  const pos = f.position as Sq | null;
  if (!sq || !pos || !f.stats.threatens || !alive(f)) return false;
  const reach = reachOf(f);
  return reach > 0 && chebyshev(pos, sq) <= reach;
}

/** May `f` make an attack of opportunity now (ignoring position)? */
export function canMakeAoO(s: S, f: C): boolean {
  const o = optsOf(s);
  if (!canAct(s, f)) return false;
  if (f.data.reactionsThisPhase >= o.reactionsPerPhase) return false;
  if (f.data.aooThisRound >= 1 + f.stats.extraAttacksOfOpportunity) return false;
  if (s.effects.some((e) => e.targetId === f.id && e.data?.['noAttacks'])) return false;
  return true;
}

export function threateningFoes(s: S, c: C, sq: Sq | null = c.position as Sq | null): C[] {
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
  if (subs.includes('complex')) return all.length ? { from: all, reason: 'complex: "A complex action always provokes attacks of opportunity"' } : null;
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
  if (subs.includes('move') && sh.def.id === 'stand-up') return all.length ? { from: all, reason: 'standing up in a threatened square' } : null;
  if (includeMove && subs.includes('move') && all.length) return { from: all, reason: 'move: provokes when you leave a threatened square' };
  return null;
}

// ---------------------------------------------------------------- durations

/** A point in the round: phase and initiative. `init` null = the start of the phase. */
export interface Marker {
  round: number;
  phase: number;
  init: [number, number] | null;
}

export function nowMarker(s: S): Marker {
  const cur = s.clock.current ? s.combatants[s.clock.current] : undefined;
  return { round: s.rs.round, phase: s.rs.phaseIdx, init: cur && s.rs.cursor ? s.rs.cursor : null };
}

/** Has the clock reached the marker? ("end just before the same action phase and initiative that they began on") */
export function reached(now: Marker, m: Marker): boolean {
  if (now.round !== m.round) return now.round > m.round;
  if (now.phase !== m.phase) return now.phase > m.phase;
  if (m.init === null) return true;
  if (now.init === null) return false;
  return !keyBefore(now.init, m.init);
}

export function isMarker(x: unknown): x is Marker {
  return typeof x === 'object' && x !== null && 'round' in x && 'phase' in x && 'init' in x;
}

const ROUND_UNITS: Record<string, number> = {
  round: 1,
  rounds: 1,
  minute: 10,
  minutes: 10,
  'combat-turn': 10,
  'combat-turns': 10,
};

/** The expiry marker of an effect (durations in rounds, minutes or combat turns, and two special units). */
export function expiryOf(s: S, effect: Effect): Marker | null {
  if (!effect.duration) return null;
  const started = effect.startedAt;
  const phase = started.phase && (PHASES as readonly string[]).includes(started.phase) ? phaseIndex(started.phase as Phase) : 0;
  const starter = started.current ? s.combatants[started.current] : undefined;
  const unit = effect.duration.unit;
  const n = effect.duration.count;
  if (unit === 'end-of-round') return { round: started.round + n, phase: 0, init: null };
  if (unit === 'own-round-start') {
    const who = (effect.targetId && s.combatants[effect.targetId]) || starter;
    return { round: started.round + n, phase: 0, init: who ? initKey(who) : null };
  }
  const per = ROUND_UNITS[unit];
  if (per === undefined) return null;
  const rounds = unit.startsWith('combat-turn') ? n * optsOf(s).roundsPerCombatTurn : per * n;
  const init = starter ? (s.clock.current === starter.id && s.rs.cursor ? s.rs.cursor : initKey(starter)) : null;
  return { round: started.round + rounds, phase, init };
}

// ---------------------------------------------------------------- geometry

export function occupied(s: S, sq: Sq, except: string): C | undefined {
  return Object.values(s.combatants).find((o) => o.id !== except && alive(o) && o.position && (o.position as Sq).x === sq.x && (o.position as Sq).y === sq.y);
}

/** A path: each square adjacent to the one before, no more than `max` squares, not through foes, ending in a free square. */
export function checkPath(s: S, c: C, path: Sq[], max: number, opts: { straight?: boolean; clear?: boolean; passThrough?: string | undefined } = {}): Blocked | null {
  const start = c.position as Sq | null;
  if (!start) return block('ILLEGAL_ACTION', 'movement', `${c.name} is not on the map.`);
  if (path.length > max) return block('ILLEGAL_ACTION', 'movement', `At most ${max} squares (${max * 5} feet) with this action.`);
  let prev = start;
  for (const sq of path) {
    if (chebyshev(prev, sq) !== 1) return block('INVALID_COMMAND', 'movement', 'Each square of the path must be adjacent to the one before.');
    const o = occupied(s, sq, c.id);
    if (o && o.side !== c.side && o.id !== opts.passThrough) return block('ILLEGAL_ACTION', 'movement', `${o.name} blocks the path.`);
    if (o && opts.clear) return block('ILLEGAL_ACTION', 'movement', `"If anything hinders or blocks your movement along the path of a charge, you can't take the charge action": ${o.name} is in the way.`);
    prev = sq;
  }
  const end = path[path.length - 1]!;
  const o = occupied(s, end, c.id);
  if (o) return block('ILLEGAL_ACTION', 'movement', `${o.name} occupies the destination.`);
  if (opts.straight) {
    const line = squareLine(start, end).slice(1);
    if (line.length !== path.length || line.some((q, i) => q.x !== path[i]!.x || q.y !== path[i]!.y)) {
      return block('ILLEGAL_ACTION', 'movement', 'This movement must follow a straight line.');
    }
  }
  return null;
}

export { block };
export type { Phase };
