import { draftWriter, hasExactKeys, sameShallow, jsonCopy, type EncounterState, type EngineEvent, type Item, type Writer } from '@fray/engine';
import type { Stats } from './options.js';

export type Slot = 'standard' | 'move' | 'quick';
export type ActionType = Slot | 'free' | 'reaction' | 'none';
export interface Square {
  x: number;
  y: number;
}

/** A readied action: what, as which type, and the trigger. */
export interface Readied {
  action: string;
  params: Record<string, unknown>;
  as: Slot;
  trigger: { event: 'acts' | 'moves' | 'attacks' | 'enters-reach'; by: string | null; description: string };
  round: number;
}

export interface Data {
  /** remaining actions of the current turn */
  slots: { standard: number; move: number; quick: number };
  /** free actions used since the start of the last own turn */
  free: number;
  /** took an action (not free) this turn: no delay any more */
  acted: boolean;
  attackedThisTurn: boolean;
  standardTaken: boolean;
  /** the open move action: squares left, and whether a standard action came after it started */
  move: { mode: string; remaining: number; afterStandard: boolean; split: boolean } | null;
  /** squares moved this round (slam) */
  moved: number;
  movedRound: number;
  reactedSeq: number;
  reactedCycle: number;
  quickUsedThisTurn: boolean;
  quickInReaction: boolean;
  readied: Readied | null;
  delaying: boolean;
  delayedSeq: number;
  aim: { targetId: string; bonus: number; maintainedTurn: number } | null;
  activeDefense: number | null;
  stance: { penalty: { on: 'attack' | 'defense' | 'effect'; n: number }; bonus: { on: 'attack' | 'defense' | 'effect'; n: number } } | null;
  surgePending: boolean;
  surgeDeferred: boolean;
  extraStandard: number;
  fatigue: number;
  damage: number;
  socialDamage: number;
  stress: number;
  destiny: number;
  fate: number;
  corruption: number;
  runStreak: number;
  lastRunRound: number;
  speedBonusRound: number;
  analyze: Record<string, number>;
  assistDegrees: number;
  hunchAdvantage: number;
  edges: number;
  alternates: Record<string, string>;
  turnsTaken: number;
  ammo: boolean;
  deathSaveFailures: number;
  retry: boolean;
}

export interface LastCheck {
  id: string;
  combatantId: string;
  purpose: string;
  kind: string;
  total: number;
  dc: number;
  success: boolean;
  degrees: number;
  natural: number;
  targetId: string | null;
  attack?: { kind: string; damage: number; targetId: string } | null;
  seq: number;
}

export interface RS {
  /** free actions a character may take between its turns (option `freeActionLimit`, GM-adjustable) */
  freeActionLimit: number;
  roundSeconds: number;
  /** increments every time the turn changes hands (one reaction per turn) */
  turnSeq: number;
  areaPowerUsed: string[];
  rulings: Record<string, { type: ActionType; provokes: boolean }>;
  attitudes: Record<string, Record<string, number>>;
  lastCheck: Record<string, LastCheck>;
  /** a combatant whose turn was interrupted by a delayed character acting first */
  interrupted: string | null;
}

export type State = EncounterState<RS, Stats, Data>;

export function initialData(stats: Stats): Data {
  return {
    slots: { standard: 1, move: 1, quick: 1 },
    free: 0,
    acted: false,
    attackedThisTurn: false,
    standardTaken: false,
    move: null,
    moved: 0,
    movedRound: 0,
    reactedSeq: -1,
    reactedCycle: -1,
    quickUsedThisTurn: false,
    quickInReaction: false,
    readied: null,
    delaying: false,
    delayedSeq: -1,
    aim: null,
    activeDefense: null,
    stance: null,
    surgePending: false,
    surgeDeferred: false,
    extraStandard: 0,
    fatigue: 0,
    damage: 0,
    socialDamage: 0,
    stress: 0,
    destiny: stats.destiny,
    fate: stats.fate,
    corruption: stats.corruption,
    runStreak: 0,
    lastRunRound: -10,
    speedBonusRound: -10,
    analyze: {},
    assistDegrees: 0,
    hunchAdvantage: 0,
    edges: 0,
    alternates: {},
    turnsTaken: 0,
    ammo: false,
    deathSaveFailures: 0,
    retry: false,
  };
}

/** The keys of a combatant's data, in the order `initialData` gives them. */
const DATA_KEYS = Object.keys(initialData({ destiny: 0, fate: 0, corruption: 0 } as Stats));
const copyDataLiteral = (d: Data): Data => ({
  slots: d.slots,
  free: d.free,
  acted: d.acted,
  attackedThisTurn: d.attackedThisTurn,
  standardTaken: d.standardTaken,
  move: d.move,
  moved: d.moved,
  movedRound: d.movedRound,
  reactedSeq: d.reactedSeq,
  reactedCycle: d.reactedCycle,
  quickUsedThisTurn: d.quickUsedThisTurn,
  quickInReaction: d.quickInReaction,
  readied: d.readied,
  delaying: d.delaying,
  delayedSeq: d.delayedSeq,
  aim: d.aim,
  activeDefense: d.activeDefense,
  stance: d.stance,
  surgePending: d.surgePending,
  surgeDeferred: d.surgeDeferred,
  extraStandard: d.extraStandard,
  fatigue: d.fatigue,
  damage: d.damage,
  socialDamage: d.socialDamage,
  stress: d.stress,
  destiny: d.destiny,
  fate: d.fate,
  corruption: d.corruption,
  runStreak: d.runStreak,
  lastRunRound: d.lastRunRound,
  speedBonusRound: d.speedBonusRound,
  analyze: d.analyze,
  assistDegrees: d.assistDegrees,
  hunchAdvantage: d.hunchAdvantage,
  edges: d.edges,
  alternates: d.alternates,
  turnsTaken: d.turnsTaken,
  ammo: d.ammo,
  deathSaveFailures: d.deathSaveFailures,
  retry: d.retry,
});
const copyDataSpread = (d: Data): Data => ({ ...d });
/**
 * A shallow copy of a combatant's data for the copy-on-write path (`Writer.own`): field by field when
 * it has exactly the keys of `initialData` (a site of the ruleset's own; the engine's shared spread
 * site sees every shape the data had and is ~10x slower for these 40 fields), else a spread.
 */
export function copyData(d: Data): Data {
  return hasExactKeys(d, DATA_KEYS) ? copyDataLiteral(d) : copyDataSpread(d);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.slots === o.slots &&
  c.free === o.free &&
  c.acted === o.acted &&
  c.attackedThisTurn === o.attackedThisTurn &&
  c.standardTaken === o.standardTaken &&
  c.move === o.move &&
  c.moved === o.moved &&
  c.movedRound === o.movedRound &&
  c.reactedSeq === o.reactedSeq &&
  c.reactedCycle === o.reactedCycle &&
  c.quickUsedThisTurn === o.quickUsedThisTurn &&
  c.quickInReaction === o.quickInReaction &&
  c.readied === o.readied &&
  c.delaying === o.delaying &&
  c.delayedSeq === o.delayedSeq &&
  c.aim === o.aim &&
  c.activeDefense === o.activeDefense &&
  c.stance === o.stance &&
  c.surgePending === o.surgePending &&
  c.surgeDeferred === o.surgeDeferred &&
  c.extraStandard === o.extraStandard &&
  c.fatigue === o.fatigue &&
  c.damage === o.damage &&
  c.socialDamage === o.socialDamage &&
  c.stress === o.stress &&
  c.destiny === o.destiny &&
  c.fate === o.fate &&
  c.corruption === o.corruption &&
  c.runStreak === o.runStreak &&
  c.lastRunRound === o.lastRunRound &&
  c.speedBonusRound === o.speedBonusRound &&
  c.analyze === o.analyze &&
  c.assistDegrees === o.assistDegrees &&
  c.hunchAdvantage === o.hunchAdvantage &&
  c.edges === o.edges &&
  c.alternates === o.alternates &&
  c.turnsTaken === o.turnsTaken &&
  c.ammo === o.ammo &&
  c.deathSaveFailures === o.deathSaveFailures &&
  c.retry === o.retry;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: Data, o: Data): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c as never, o as never);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = ['freeActionLimit', 'roundSeconds', 'turnSeq', 'areaPowerUsed', 'rulings', 'attitudes', 'lastCheck', 'interrupted'];
const copyRsLiteral = (v: RS): RS => ({
  freeActionLimit: v.freeActionLimit,
  roundSeconds: v.roundSeconds,
  turnSeq: v.turnSeq,
  areaPowerUsed: v.areaPowerUsed,
  rulings: v.rulings,
  attitudes: v.attitudes,
  lastCheck: v.lastCheck,
  interrupted: v.interrupted,
});
const copyRsSpread = (v: RS): RS => ({ ...v });
/**
 * A shallow copy of the ruleset state (`rs`) for the copy-on-write path: field by field when it has exactly
 * `RS_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyRs(v: RS): RS {
  return hasExactKeys(v, RS_KEYS) ? copyRsLiteral(v) : copyRsSpread(v);
}
const sameRsLiteral = (c: RS, o: RS): boolean =>
  c.freeActionLimit === o.freeActionLimit &&
  c.roundSeconds === o.roundSeconds &&
  c.turnSeq === o.turnSeq &&
  c.areaPowerUsed === o.areaPowerUsed &&
  c.rulings === o.rulings &&
  c.attitudes === o.attitudes &&
  c.lastCheck === o.lastCheck &&
  c.interrupted === o.interrupted;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * as the engine's `sameShallow` decides: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c as never, o as never);
}

/**
 * The ruleset's events are named facts (`action-round.<fact>`). Each carries, next to its
 * descriptive fields, the state it leaves: `data` (per-combatant patches), `rs` (a patch of the
 * ruleset state), `pos` (new squares) and `items` (new item lists). `evolve` applies exactly
 * these, so events alone rebuild the state.
 */
export interface Patch {
  data?: Record<string, Partial<Data>>;
  rs?: Partial<RS>;
  pos?: Record<string, Square>;
  items?: Record<string, Item[]>;
  /** the latest check of a combatant (merged into rs.lastCheck) */
  lastCheck?: Record<string, LastCheck>;
}

/** The event's values go into the state as they are (changed in place later in the command, as the draft did). */
function adoptAll<T extends object>(w: Writer, patch: T): T {
  for (const k in patch) w.adopt(patch[k]);
  return patch;
}

/**
 * Applies an event's patches. Writes below a combatant's top level and below `rs`'s top level go
 * through the writer (`own`): on the copy-on-write path they copy what they change (the mutative
 * path's writer is a no-op).
 */
export function evolveEvent(s: State, e: EngineEvent, w: Writer = draftWriter): boolean {
  if (!e.type.startsWith('action-round.')) return false;
  const p = e as unknown as Patch;
  if (p.data) {
    const data = p.data;
    for (const id in data) {
      const c = s.combatants[id];
      if (c) Object.assign(w.own<Data>(c, 'data', copyData, sameData), adoptAll(w, data[id]!));
    }
  }
  if (p.rs) Object.assign(s.rs, adoptAll(w, p.rs));
  if (p.lastCheck) for (const [id, l] of Object.entries(p.lastCheck)) w.own<RS['lastCheck']>(s.rs, 'lastCheck')[id] = w.adopt(l);
  if (p.pos) {
    for (const [id, sq] of Object.entries(p.pos)) {
      const c = s.combatants[id];
      if (c) {
        w.changed(c);
        c.position = { x: sq.x, y: sq.y };
      }
    }
  }
  if (p.items) {
    for (const [id, items] of Object.entries(p.items)) {
      const c = s.combatants[id];
      if (c) {
        w.changed(c);
        c.items = w.adopt(items);
      }
    }
  }
  return true;
}

/** A plain copy of a value read from a draft (events must never hold draft proxies); the same as a JSON round trip. */
export function plain<T>(v: T): T {
  return v === undefined ? v : jsonCopy(v);
}
