import { z } from 'zod';
import { hasExactKeys, hexDistance, sameShallow, type Ctx, type EncounterState, type Hex } from '@fray/engine';
import type { OcvPhasesOptions } from './options.js';

export const hexSchema = z.object({ q: z.number().int().min(-10_000).max(10_000), r: z.number().int().min(-10_000).max(10_000) });
export const positionSchema = hexSchema.nullable();

export const statsSchema = z.object({
  combatValue: z.number().int().min(0).max(100),
  lightningReflexes: z.number().int().min(0).max(60).default(0),
  ocv: z.number().int().min(0).max(100).optional(),
  dcv: z.number().int().min(0).max(100).optional(),
  combatLevels: z.number().int().min(0).max(60).default(0),
  move: z.number().int().min(0).max(500).default(6),
  noncombatMove: z.number().int().min(0).max(5000).optional(),
  reach: z.number().int().min(1).max(60).default(1),
  combatReflexes: z.boolean().default(false),
  recovery: z.number().int().min(0).max(200).default(0),
  stun: z.number().int().min(0).max(5000).default(0),
  endurance: z.number().int().min(0).max(5000).default(0),
  recovers: z.boolean().default(true),
  skills: z.record(z.string().min(1).max(64), z.number().int().min(0).max(40)).default({}),
});
export type Stats = z.infer<typeof statsSchema>;

export const statDocs: Record<keyof Stats, string> = {
  combatValue: 'Combat Value: the base of the Initiative score (and of OCV/DCV when those are not given).',
  lightningReflexes: 'Lightning Reflexes modifier added to the Initiative score.',
  ocv: 'Offensive Combat Value (default: combatValue).',
  dcv: 'Defensive Combat Value (default: combatValue).',
  combatLevels: 'Combat levels added to OCV on every attack roll.',
  move: 'Combat movement in hexes per Phase.',
  noncombatMove: 'Non-combat movement in hexes (default: twice combat movement).',
  reach: 'Reach in hexes (1; more with Growth or Stretching): the hexes it threatens.',
  combatReflexes: 'Has the Combat Reflexes skill (more than one attack of opportunity per Phase).',
  recovery: 'REC: STUN and END regained by a Recovery.',
  stun: 'Maximum STUN.',
  endurance: 'Maximum END.',
  recovers: 'Takes the automatic Post-Turn Recovery.',
  skills: 'Skill rolls (3d6 roll-under targets), e.g. { "acrobatics": 12 }.',
};

export interface ManoeuvreUse {
  id: string;
  ocv: number;
  dcv: number;
  halveDcv?: boolean;
}

type Trigger = { on: 'attacks' | 'moves' | 'acts' | 'enters-reach' | 'manual'; by: string | null; description: string };

export type Hold =
  | { kind: 'delay'; key: string; before: string | null }
  | { kind: 'ready'; key: string; actionType: 'attack' | 'move' | 'free'; action: string | null; trigger: Trigger };

export type Data = {
  stun: number;
  endurance: number;
  /** per Phase */
  slots: number;
  attacks: number;
  full: boolean;
  moved: boolean;
  stepped: boolean;
  free: number;
  aoos: number;
  opportunities: string[];
  restricted: boolean;
  braced: boolean;
  /** since the start of the character's last regular action */
  manoeuvres: ManoeuvreUse[];
  dodging: boolean;
  hold: Hold | null;
  skipNext: boolean;
  /** cannot abort until its Initiative slot in the Phase with this ordinal (see phaseOrdinal) has passed */
  abortLock: number | null;
  fullStarted: string | null;
};

export type PhaseName = 'surprise' | 'phase-1' | 'phase-2' | 'phase-3' | 'phase-4' | 'post-turn';

/** What to do with an action; interrupted actions wait on `rs.jobs` (a stack). */
export interface Job {
  actor: string;
  row: string;
  via: 'regular' | 'readied' | 'abort';
  stage: 'trigger' | 'provoke' | 'resolve';
  targetIds: string[];
  path: Hex[];
  itemId: string | null;
  ranged: number | null;
  ocvModifier: number;
  /** the provocation was negated (skill check) or ruled away */
  noProvoke: boolean;
  /** the first hex of `path` is entered after leaving the current hex: that leaving was already checked */
  leaveChecked: boolean;
  /**
   * the last hex of this move the mover stood in alone, while it passes through an ally's hex (a
   * move stopped there steps back to it: never ending in an occupied hex); absent otherwise
   */
  back?: Hex;
  fullAction: string | null;
  step: Hex | null;
}

export interface Intent {
  windowId: string;
  combatantId: string;
  job: Job;
  /** ready: who triggered it (the readied character acts just before them) */
  before: string | null;
  kind: 'readied' | 'abort';
}

export type RS = {
  map: { blocking: string[]; difficult: string[]; dark: string[] };
  order: string[];
  scores: Record<string, number>;
  unaware: string[];
  turn: number;
  phase: PhaseName | null;
  phaseCount: number;
  passed: string[];
  spent: string[];
  offered: string[];
  jobs: Job[];
  intents: Intent[];
  pauseFor: string | null;
  attacks: { rollId: string; attackerId: string; targetId: string; ocv: number; need: number; hit: boolean }[];
  stalled: boolean;
};

export type S = EncounterState<RS, Stats, Data>;

export const initialState = (): RS => ({
  map: { blocking: [], difficult: [], dark: [] },
  order: [],
  scores: {},
  unaware: [],
  turn: 0,
  phase: null,
  phaseCount: 0,
  passed: [],
  spent: [],
  offered: [],
  jobs: [],
  intents: [],
  pauseFor: null,
  attacks: [],
  stalled: false,
});

export const initCombatant = (stats: Stats): Data => ({
  stun: stats.stun,
  endurance: stats.endurance,
  slots: 0,
  attacks: 0,
  full: false,
  moved: false,
  stepped: false,
  free: 0,
  aoos: 0,
  opportunities: [],
  restricted: false,
  braced: false,
  manoeuvres: [],
  dodging: false,
  hold: null,
  skipNext: false,
  abortLock: null,
  fullStarted: null,
});

/** A command's context, and the encounter state it reads (the engine's `ctx.state`, with this ruleset's stats and data). */
export type C = Ctx<RS, OcvPhasesOptions>;
export const st = (ctx: C): S => ctx.state as S;
/** The encounter's options (parsed by `optionsSchema` when the encounter was created). */
export const opts = (s: S): OcvPhasesOptions => s.options as OcvPhasesOptions;
export const phaseKey = (rs: Pick<RS, 'turn' | 'phase'>): string => `${rs.turn}:${rs.phase ?? '-'}`;
export const REGULAR: PhaseName[] = ['phase-1', 'phase-2', 'phase-3', 'phase-4'];

const PHASE_INDEX: Record<PhaseName, number> = { surprise: 0, 'phase-1': 1, 'phase-2': 2, 'phase-3': 3, 'phase-4': 4, 'post-turn': 5 };
/** A number that grows with every Phase: turn * 10 + the Phase's place in the Turn. */
export function phaseOrdinal(rs: Pick<RS, 'turn' | 'phase'>): number {
  return rs.turn * 10 + (rs.phase ? PHASE_INDEX[rs.phase] : 0);
}
/** The ordinal of the next Phase in which characters act (the "following Phase"). */
export function nextPhaseOrdinal(rs: Pick<RS, 'turn' | 'phase'>): number {
  const i = rs.phase ? PHASE_INDEX[rs.phase] : 0;
  return i < 4 ? rs.turn * 10 + i + 1 : (rs.turn + 1) * 10 + 1;
}

/** The order in which characters act this Phase (the Surprise Phase: only the aware). */
export function phaseOrder(s: S): string[] {
  const rs = s.rs;
  if (rs.phase === 'surprise') return rs.order.filter((id) => !rs.unaware.includes(id));
  return rs.order;
}

/** Where a combatant stands (its position, validated by `positionSchema`), or null off the map. */
export const hexOf = (c: { position: unknown }): Hex | null => (c.position as Hex | null | undefined) ?? null;
export const pos = (s: S, id: string): Hex | null => {
  const c = s.combatants[id];
  return c ? hexOf(c) : null;
};
export const hexKey = (h: Hex): string => `${h.q},${h.r}`;

export function conditions(s: S, id: string): string[] {
  const out: string[] = [];
  for (const e of s.effects) if (e.targetId === id && e.condition) out.push(e.condition);
  return out;
}

export function incapable(s: S, id: string): boolean {
  const bad = opts(s).incapableConditions;
  return conditions(s, id).some((c) => bad.includes(c));
}

export const stunned = (s: S, id: string): boolean => conditions(s, id).includes('stunned');

export function isRestricted(s: S, id: string): boolean {
  return s.rs.phase === 'surprise' || s.combatants[id]!.data.restricted;
}

/** who stands in hex `h` (besides `except`) */
export function occupant(s: S, h: Hex, except: string): string | null {
  for (const c of Object.values(s.combatants)) {
    if (c.id === except) continue;
    const p = hexOf(c);
    if (p && p.q === h.q && p.r === h.r) return c.id;
  }
  return null;
}

export function unawareNow(s: S, id: string): boolean {
  return s.rs.phase === 'surprise' && s.rs.unaware.includes(id);
}

export function isEnemy(s: S, a: string, b: string): boolean {
  const ca = s.combatants[a];
  const cb = s.combatants[b];
  return !!ca && !!cb && a !== b && ca.side !== cb.side;
}

export function threatens(s: S, attacker: string, hex: Hex): boolean {
  const p = pos(s, attacker);
  const c = s.combatants[attacker];
  return !!p && !!c && hexDistance(p, hex) <= c.stats.reach && hexDistance(p, hex) > 0;
}

export function touched(d: Data): boolean {
  return d.slots > 0 || d.full || d.free > 0 || d.stepped || d.moved;
}

/**
 * A deep copy with exactly JSON's result (`JSON.parse(JSON.stringify(v))`: undefined members
 * dropped, undefined array items and non-finite numbers become null) without the text round trip.
 */
export const clone = <T>(v: T): T => jsonCopy(v) as T;

function jsonCopy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : jsonCopy(x);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x: unknown = (v as Record<string, unknown>)[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out[k] = jsonCopy(x);
  }
  return out;
}

// Copy-on-write: the engine copies `rs` and each changed combatant's data field by field (see Ruleset.copyRs).

/** The keys of a combatant's data, in the order it is built with. */
const DATA_KEYS: readonly string[] = ['stun', 'endurance', 'slots', 'attacks', 'full', 'moved', 'stepped', 'free', 'aoos', 'opportunities', 'restricted', 'braced', 'manoeuvres', 'dodging', 'hold', 'skipNext', 'abortLock', 'fullStarted'];
const copyDataLiteral = (v: Data): Data => ({
  stun: v.stun,
  endurance: v.endurance,
  slots: v.slots,
  attacks: v.attacks,
  full: v.full,
  moved: v.moved,
  stepped: v.stepped,
  free: v.free,
  aoos: v.aoos,
  opportunities: v.opportunities,
  restricted: v.restricted,
  braced: v.braced,
  manoeuvres: v.manoeuvres,
  dodging: v.dodging,
  hold: v.hold,
  skipNext: v.skipNext,
  abortLock: v.abortLock,
  fullStarted: v.fullStarted,
});
const copyDataSpread = (v: Data): Data => ({ ...v });
/**
 * A shallow copy of a combatant's data for the copy-on-write path: field by field when it has exactly
 * `DATA_KEYS` (named reads; a spread site the engine shares goes megamorphic and copies generically,
 * several times slower), else a spread.
 */
export function copyData(v: Data): Data {
  return hasExactKeys(v, DATA_KEYS) ? copyDataLiteral(v) : copyDataSpread(v);
}
const sameDataLiteral = (c: Data, o: Data): boolean =>
  c.stun === o.stun &&
  c.endurance === o.endurance &&
  c.slots === o.slots &&
  c.attacks === o.attacks &&
  c.full === o.full &&
  c.moved === o.moved &&
  c.stepped === o.stepped &&
  c.free === o.free &&
  c.aoos === o.aoos &&
  c.opportunities === o.opportunities &&
  c.restricted === o.restricted &&
  c.braced === o.braced &&
  c.manoeuvres === o.manoeuvres &&
  c.dodging === o.dodging &&
  c.hold === o.hold &&
  c.skipNext === o.skipNext &&
  c.abortLock === o.abortLock &&
  c.fullStarted === o.fullStarted;
/**
 * Whether a copy of a combatant's data (made by `copyData`, then changed in place) still equals the original,
 * in the sense of the engine's `sameShallow`: field by field when both have exactly `DATA_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameData(c: Data, o: Data): boolean {
  return hasExactKeys(c, DATA_KEYS) && hasExactKeys(o, DATA_KEYS) ? sameDataLiteral(c, o) : sameShallow(c, o);
}

/** The keys of the ruleset state (`rs`), in the order it is built with. */
const RS_KEYS: readonly string[] = ['map', 'order', 'scores', 'unaware', 'turn', 'phase', 'phaseCount', 'passed', 'spent', 'offered', 'jobs', 'intents', 'pauseFor', 'attacks', 'stalled'];
const copyRsLiteral = (v: RS): RS => ({
  map: v.map,
  order: v.order,
  scores: v.scores,
  unaware: v.unaware,
  turn: v.turn,
  phase: v.phase,
  phaseCount: v.phaseCount,
  passed: v.passed,
  spent: v.spent,
  offered: v.offered,
  jobs: v.jobs,
  intents: v.intents,
  pauseFor: v.pauseFor,
  attacks: v.attacks,
  stalled: v.stalled,
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
  c.map === o.map &&
  c.order === o.order &&
  c.scores === o.scores &&
  c.unaware === o.unaware &&
  c.turn === o.turn &&
  c.phase === o.phase &&
  c.phaseCount === o.phaseCount &&
  c.passed === o.passed &&
  c.spent === o.spent &&
  c.offered === o.offered &&
  c.jobs === o.jobs &&
  c.intents === o.intents &&
  c.pauseFor === o.pauseFor &&
  c.attacks === o.attacks &&
  c.stalled === o.stalled;
/**
 * Whether a copy of the ruleset state (`rs`) (made by `copyRs`, then changed in place) still equals the original,
 * in the sense of the engine's `sameShallow`: field by field when both have exactly `RS_KEYS` (named
 * reads at a site of the ruleset's own; the engine's keyed reads are megamorphic), else `sameShallow`.
 */
export function sameRs(c: RS, o: RS): boolean {
  return hasExactKeys(c, RS_KEYS) && hasExactKeys(o, RS_KEYS) ? sameRsLiteral(c, o) : sameShallow(c, o);
}
