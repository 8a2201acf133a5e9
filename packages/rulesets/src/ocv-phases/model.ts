import { z } from 'zod';
import { hexDistance, hexLine, type EncounterState, type EngineError, type Hex } from '@fray/engine';
import { ROW, type Row } from './table.js';

export const ID = 'ocv-phases';
export const hexSchema = z.object({ q: z.number().int().min(-10_000).max(10_000), r: z.number().int().min(-10_000).max(10_000) });
export const positionSchema = hexSchema.nullable();

const modSchema = z.object({
  ocv: z.number().int().min(-20).max(20).default(0),
  dcv: z.number().int().min(-20).max(20).default(0),
  halveDcv: z.boolean().default(false),
  zeroDcv: z.boolean().default(false),
});
export type Mod = z.infer<typeof modSchema>;

export const optionsSchema = z.object({
  postTurnRecovery: z.enum(['recovery', 'off']).default('recovery'),
  surpriseDcvPenalty: z.number().int().min(0).max(20).default(3),
  tieBreakDie: z.string().min(2).max(16).default('1d6'),
  halfMoveRounding: z.enum(['up', 'down']).default('up'),
  freeActionLimit: z.number().int().min(0).max(100).nullable().default(3),
  skillCheckNegates: z.enum(['roll', 'gm', 'never']).default('roll'),
  usuallyVaries: z.enum(['provokes', 'does-not-provoke']).default('provokes'),
  offerAbort: z.boolean().default(true),
  pauseAfterInterruptHit: z.boolean().default(true),
  combatReflexesLimit: z.number().int().min(0).max(50).default(0),
  incapableConditions: z.array(z.string().min(1).max(64)).max(32).default(['unconscious', 'paralysed', 'dead']),
  noRecoveryConditions: z.array(z.string().min(1).max(64)).max(32).default(['dead']),
  conditionModifiers: z
    .record(z.string().min(1).max(64), modSchema)
    .default({
      stunned: { ocv: 0, dcv: 0, halveDcv: true, zeroDcv: false },
      prone: { ocv: 0, dcv: 0, halveDcv: true, zeroDcv: false },
      underwater: { ocv: 0, dcv: -2, halveDcv: false, zeroDcv: false },
      unconscious: { ocv: 0, dcv: 0, halveDcv: false, zeroDcv: true },
      paralysed: { ocv: 0, dcv: 0, halveDcv: false, zeroDcv: true },
    }),
  manoeuvreModifiers: z.record(z.string().min(1).max(64), modSchema).default({}),
  multipleTargetPenalty: z.number().int().min(0).max(10).default(2),
  braceOcv: z.number().int().min(0).max(10).default(2),
  difficultTerrainCost: z.number().int().min(1).max(10).default(2),
  combatantsBlockSight: z.boolean().default(false),
  passThroughAllies: z.boolean().default(true),
  withdrawDistance: z.enum(['half', 'full']).default('full'),
  reactionDeadlineSeconds: z.number().int().min(5).max(3600).nullable().default(60),
});
export type Options = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof Options, string> = {
  postTurnRecovery:
    'What the Post-Turn period does: `recovery` (default) gives every character not excluded by `noRecoveryConditions` (and with stat `recovers`) a Recovery: current STUN and END rise by REC up to their maximum; `off` only marks the period.',
  surpriseDcvPenalty: 'The DCV penalty of characters unaware at the start of battle during the Surprise Phase (text: -3). Default 3.',
  tieBreakDie: 'The die each tied character rolls to break an Initiative tie (re-rolled while still tied). Default `1d6`.',
  halfMoveRounding: 'How half of combat movement rounds for a move action: `up` (default; a 1-hex character moves 1 hex with a move action) or `down`.',
  freeActionLimit: 'Free actions allowed per character per Phase ("there may be limits"); null = no limit. Default 3.',
  skillCheckNegates:
    'Rows marked "Yes (skill check negates)": `roll` (default) — the command may name a skill from the stat `skills`; 3d6 roll-under that value negates the attack of opportunity; `gm` — only a GM-sent `negated: true` negates; `never`.',
  usuallyVaries:
    'Rows marked "Usually (varies)": the default ruling (`provokes` by default). The GM may rule per action by sending the command with `provokes: true|false`.',
  offerAbort:
    'When a character is attacked, offer it the chance to abort to a defensive action first (a reaction window). Default true.',
  pauseAfterInterruptHit:
    'After an attack of opportunity or readied attack hits a character whose action was interrupted, hold the action until the GM or its owner continues (so the GM can apply the results). Default true.',
  combatReflexesLimit: 'With Combat Reflexes: the most attacks of opportunity per Phase (0 = no limit beyond one per opportunity). Default 0.',
  incapableConditions: 'Conditions that make a character unable to act (it keeps its Initiative score; its actions are skipped). Default unconscious, paralysed, dead.',
  noRecoveryConditions: 'Conditions that exclude a character from the Post-Turn Recovery ("most characters"). Default dead.',
  conditionModifiers:
    'OCV/DCV modifiers of conditions (effects with a `condition`): `ocv`, `dcv` (added), `halveDcv`, `zeroDcv`. Defaults: stunned and prone halve DCV, underwater -2 DCV, unconscious and paralysed DCV 0.',
  manoeuvreModifiers: 'Overrides of the OCV/DCV modifiers of the manoeuvres (by row id, e.g. `haymaker`). Default none (the table values).',
  multipleTargetPenalty: 'OCV penalty per target after the first for Rapid Fire and Sweep. Default 2.',
  braceOcv: 'OCV bonus of Brace for Accuracy to ranged attacks that Phase (DCV halved until the next action). Default 2.',
  difficultTerrainCost: 'Movement cost of entering a difficult-terrain hex. Default 2.',
  combatantsBlockSight: 'Whether other combatants block line of sight (besides GM-marked blocking hexes). Default false.',
  passThroughAllies: 'Whether a character may move through hexes of its own side (never through opponents, never ending in an occupied hex). Default true.',
  withdrawDistance: 'How far Withdraw from combat moves: `full` combat movement (default) or `half`.',
  reactionDeadlineSeconds:
    'How long the runtime waits for answers in a reaction window (attack of opportunity, readied action / abort, continue) before passing for those who did not answer; null = wait for the GM. Default 60.',
};

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

export type Trigger = { on: 'attacks' | 'moves' | 'acts' | 'enters-reach' | 'manual'; by: string | null; description: string };

export type Hold =
  | { kind: 'delay'; key: string; before: string | null }
  | { kind: 'ready'; key: string; actionType: 'attack' | 'move' | 'free'; action: string | null; trigger: Trigger };

export interface Data {
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
}

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

export interface RS {
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
}

export type S = EncounterState<RS, Stats, Data>;

export const initialRs = (): RS => ({
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

export const initData = (stats: Stats): Data => ({
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

export const opts = (s: S): Options => s.options as unknown as Options;
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

export const err = (code: EngineError['code'], rule: string, message: string): EngineError => ({ code, rule: `${ID}.${rule}`, message });

export const pos = (s: S, id: string): Hex | null => (s.combatants[id]?.position as Hex | null | undefined) ?? null;
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

export function modOf(s: S, row: Row): Mod {
  const o = opts(s).manoeuvreModifiers[row.id];
  return o ?? { ocv: row.ocv ?? 0, dcv: row.dcv ?? 0, halveDcv: row.halveDcv ?? false, zeroDcv: false };
}

export function useOf(s: S, rowId: string): ManoeuvreUse {
  const row = ROW[rowId]!;
  const m = modOf(s, row);
  const u: ManoeuvreUse = { id: row.id, ocv: m.ocv, dcv: m.dcv };
  if (m.halveDcv) u.halveDcv = true;
  return u;
}

/** "use the worst OCV and DCV bonus, while all OCV and DCV penalties stack" */
export function combine(values: number[]): number {
  if (values.length === 0) return 0;
  let bonus = Infinity;
  let penalty = 0;
  for (const v of values) {
    bonus = Math.min(bonus, Math.max(0, v));
    if (v < 0) penalty += v;
  }
  return bonus + penalty;
}

export function baseOcv(s: S, id: string): number {
  const st = s.combatants[id]!.stats;
  return (st.ocv ?? st.combatValue) + st.combatLevels;
}

export function effectiveDcv(s: S, id: string): { dcv: number; parts: string[] } {
  const c = s.combatants[id]!;
  const o = opts(s);
  const parts: string[] = [];
  let dcv = c.stats.dcv ?? c.stats.combatValue;
  const uses = c.data.manoeuvres;
  const m = combine(uses.map((u) => u.dcv));
  if (m) parts.push(`manoeuvres ${m >= 0 ? '+' : ''}${m}`);
  dcv += m;
  let halve = uses.some((u) => u.halveDcv) || c.data.braced;
  let zero = false;
  for (const cond of conditions(s, id)) {
    const cm = o.conditionModifiers[cond];
    if (!cm) continue;
    if (cm.dcv) {
      dcv += cm.dcv;
      parts.push(`${cond} ${cm.dcv}`);
    }
    if (cm.halveDcv) {
      halve = true;
      parts.push(`${cond} halves`);
    }
    if (cm.zeroDcv) zero = true;
  }
  if (unawareNow(s, id)) {
    dcv -= o.surpriseDcvPenalty;
    parts.push(`unaware in the Surprise Phase -${o.surpriseDcvPenalty}`);
  }
  if (halve) dcv = Math.ceil(dcv / 2);
  if (zero) {
    dcv = 0;
    parts.push('DCV 0');
  }
  return { dcv: Math.max(0, dcv), parts };
}

export function conditionOcv(s: S, id: string): number {
  let v = 0;
  for (const cond of conditions(s, id)) v += opts(s).conditionModifiers[cond]?.ocv ?? 0;
  return v;
}

export function lineOfSight(s: S, from: Hex, to: Hex): boolean {
  const line = hexLine(from, to);
  const blocking = s.rs.map.blocking;
  const occupied = opts(s).combatantsBlockSight ? new Set(Object.values(s.combatants).map((c) => (c.position ? hexKey(c.position as Hex) : ''))) : null;
  for (let i = 1; i < line.length - 1; i++) {
    const k = hexKey(line[i]!);
    if (blocking.includes(k) || occupied?.has(k)) return false;
  }
  return true;
}

export function halfMove(s: S, id: string): number {
  const m = s.combatants[id]!.stats.move;
  return opts(s).halfMoveRounding === 'up' ? Math.ceil(m / 2) : Math.floor(m / 2);
}

/** the character has started its action (anything spent this Phase) */
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
