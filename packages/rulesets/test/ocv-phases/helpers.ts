import { expect } from 'vitest';
import { apply, createEncounter, legalActions, type EncounterState, type EngineError, type EngineEvent } from '@fray/engine';
import { ocvPhases } from '../../src/ocv-phases/index.js';
import type { RS, S } from '../../src/ocv-phases/state/index.js';

export const gm = { role: 'gm' } as const;
export const R = ocvPhases;

export interface Fighter {
  id: string;
  side: string;
  cv: number;
  at?: { q: number; r: number } | null;
  stats?: Record<string, unknown>;
  controller?: string;
}

export function encounter(
  fighters: Fighter[],
  o: { seed?: number; options?: Record<string, unknown>; unaware?: string[]; map?: Record<string, unknown>; start?: boolean } = {},
) {
  let s = createEncounter(R, { id: 'enc', seed: o.seed ?? 1, options: o.options ?? {} }) as unknown as S;
  const log: unknown[] = [];
  const run = (cmd: unknown) => {
    log.push(cmd);
    s = ok(s, cmd).state;
  };
  for (const f of fighters) {
    run({
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: f.id,
        name: f.id,
        side: f.side,
        controller: f.controller ?? null,
        stats: { combatValue: f.cv, ...(f.stats ?? {}) },
        position: f.at === undefined ? null : f.at,
      },
    });
  }
  if (o.map) run({ type: 'setMap', by: gm, ...o.map });
  for (const u of o.unaware ?? []) run({ type: 'setAwareness', by: gm, combatantId: u, aware: false });
  if (o.start !== false) run({ type: 'combat.start', by: gm });
  return { s, log };
}

export function ok(s: S, cmd: unknown): { state: S; events: EngineEvent[] } {
  const r = apply(R as never, s as unknown as EncounterState<RS>, cmd);
  if (!r.ok) throw new Error(`${JSON.stringify(cmd)} → ${r.error.code} ${r.error.rule}: ${r.error.message}`);
  return { state: r.state as unknown as S, events: r.events };
}

/** Expect a refusal naming the rule, with the state unchanged. */
export function refused(s: S, cmd: unknown, rule: string): EngineError {
  const before = JSON.stringify(s);
  const r = apply(R as never, s as never, cmd);
  expect(r.ok, `expected ${JSON.stringify(cmd)} to be refused`).toBe(false);
  if (r.ok) throw new Error('unreachable');
  expect(r.error.rule).toBe(rule);
  expect(r.error.message.length).toBeGreaterThan(10);
  expect(JSON.stringify(s)).toBe(before);
  return r.error;
}

export const cmd = (type: string, combatantId: string, rest: Record<string, unknown> = {}) => ({ type, by: gm, combatantId, ...rest });
export const end = (s: S, id = s.clock.current!) => ok(s, cmd('turn.end', id)).state;
export const types = (events: EngineEvent[]) => events.map((e) => e.type);
export const legal = (s: S, id: string) => legalActions(R as never, s as never, id);
export const hex = (q: number, r: number) => ({ q, r });
/** force the next 3d6 faces */
export const force = (s: S, faces: number[]) => ok(s, { type: 'dice.force', by: gm, faces }).state;
