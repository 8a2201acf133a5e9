import { expect } from 'vitest';
import { apply, createEncounter, legalActions, type EngineEvent, type EngineError } from '@fray/engine';
import { actionRound, invariants } from '../../src/action-round/index.js';
import type { State } from '../../src/action-round/state/index.js';

export const gm = { role: 'gm' } as const;
export const ruleset = actionRound;

export interface Spec {
  id: string;
  side: string;
  at?: [number, number] | null;
  stats?: Record<string, unknown>;
  items?: unknown[];
  controller?: string | null;
}

/** Initiative bonuses 40, 20, 0, -20 ... make the order the listing order whatever the d20 says. */
export function setup(specs: Spec[], options: Record<string, unknown> = {}, seed = 1): { s: State; log: unknown[] } {
  let s = createEncounter(actionRound, { id: 'enc', seed, options }) as unknown as State;
  const log: unknown[] = [];
  specs.forEach((sp, i) => {
    const cmd = {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: sp.id,
        name: sp.id[0]!.toUpperCase() + sp.id.slice(1),
        side: sp.side,
        controller: sp.controller ?? null,
        stats: { initiative: 40 - 20 * i, ...(sp.stats ?? {}) },
        position: sp.at === null || sp.at === undefined ? (sp.at === null ? null : { x: i * 10, y: 0 }) : { x: sp.at[0], y: sp.at[1] },
        items: sp.items ?? [],
      },
    };
    s = run(s, cmd).state;
    log.push(cmd);
  });
  const start = { type: 'combat.start', by: gm };
  s = run(s, start).state;
  log.push(start);
  return { s, log };
}

export function run(s: State, cmd: unknown): { state: State; events: EngineEvent[] } {
  const r = apply(actionRound as never, s as never, cmd);
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.rule}: ${r.error.message} (${JSON.stringify(cmd)})`);
  const state = r.state as unknown as State;
  const broken = invariants(state);
  if (broken.length) throw new Error(`invariants broken: ${broken.join('; ')}`);
  return { state, events: r.events };
}

/** Apply and expect a typed refusal; the state must be unchanged. */
export function refuse(s: State, cmd: unknown): EngineError {
  const before = JSON.stringify(s);
  const r = apply(actionRound as never, s as never, cmd);
  expect(r.ok, `expected ${JSON.stringify(cmd)} to be refused`).toBe(false);
  expect(JSON.stringify(s)).toBe(before);
  return (r as { ok: false; error: EngineError }).error;
}

/** Queue die faces for the next rolls (GM dice.force), in order. */
export function force(s: State, ...faces: number[]): State {
  for (const f of faces) s = run(s, { type: 'dice.force', by: gm, faces: [f] }).state;
  return s;
}

export const act = (s: State, type: string, combatantId: string, fields: Record<string, unknown> = {}) =>
  run(s, { type, by: gm, combatantId, ...fields });
export const endTurn = (s: State, combatantId: string) => run(s, { type: 'turn.end', by: gm, combatantId }).state;

export function legal(s: State, id: string) {
  return legalActions(actionRound as never, s as never, id);
}

export function events(r: { events: EngineEvent[] }, type: string): EngineEvent[] {
  return r.events.filter((e) => e.type === type);
}

export const data = (s: State, id: string) => s.combatants[id]!.data;
export const pos = (s: State, id: string) => s.combatants[id]!.position as { x: number; y: number };
export const conds = (s: State, id: string) =>
  s.effects
    .filter((e) => e.targetId === id)
    .map((e) => e.condition)
    .filter(Boolean);

/** Every pending combatant of the open reaction window passes. */
export function passAll(s: State): State {
  const w = s.reaction;
  if (!w) return s;
  for (const id of w.eligible)
    if (s.reaction && s.reaction.responses[id] === 'pending') s = run(s, { type: 'reaction.pass', by: gm, combatantId: id }).state;
  return s;
}
