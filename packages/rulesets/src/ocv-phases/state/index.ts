import { hexDistance, type Hex } from '@fray/engine';
import type { OcvPhasesOptions } from '../options.js';
import type { C, Data, PhaseName, RS, S } from './types.js';

/**
 * The ruleset's state: its types (types.ts), the stats (stats.ts), the state at the start
 * (initial.ts), the copy-on-write copies (copy.ts), and here the small read-only selectors.
 */
export type { C, Data, Hold, Intent, Job, ManoeuvreUse, PhaseName, RS, S } from './types.js';
export type { Stats } from './stats.js';
export { hexSchema, positionSchema, statDocs, statsSchema } from './stats.js';
export { initCombatant, initialState } from './initial.js';
export { copyData, copyRs, sameData, sameRs } from './copy.js';

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
