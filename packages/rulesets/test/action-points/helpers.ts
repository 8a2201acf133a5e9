import { apply, createEncounter, legalActions, type EncounterState, type EngineEvent } from '@fray/engine';
import { actionPoints } from '../../src/action-points/index.js';
import type { ApActionOption, Data, RS, Stats } from '../../src/action-points/index.js';

export const gm = { role: 'gm' } as const;
export type St = EncounterState<RS, Stats, Data>;

export interface Fighter {
  id: string;
  name?: string;
  side: string;
  stats?: Record<string, unknown>;
  at?: { x: number; y: number } | null;
  controller?: string;
}

export function encounter(
  fighters: Fighter[],
  options: Record<string, unknown> = {},
  seed = 1,
  aware: Record<string, boolean> = {},
  start = true,
): St {
  let s = createEncounter(actionPoints, { id: 'enc', seed, options }) as unknown as St;
  for (const f of fighters) {
    s = ok(s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: f.id,
        name: f.name ?? f.id,
        side: f.side,
        controller: f.controller ?? null,
        stats: f.stats ?? {},
        position: f.at === undefined ? null : f.at,
      },
    }).state;
  }
  for (const [id, a] of Object.entries(aware)) s = ok(s, { type: 'setAware', by: gm, combatantId: id, aware: a }).state;
  if (start) s = ok(s, { type: 'combat.start', by: gm }).state;
  return s;
}

export function run(s: St, cmd: Record<string, unknown>) {
  return apply(actionPoints as never, s as never, { by: gm, ...cmd });
}

export function ok(s: St, cmd: Record<string, unknown>): { state: St; events: EngineEvent[] } {
  const r = run(s, cmd);
  if (!r.ok) throw new Error(`${String(cmd.type)} ${String(cmd.action ?? '')} failed: ${r.error.code} ${r.error.rule} ${r.error.message}`);
  return { state: r.state as unknown as St, events: r.events };
}

export function err(s: St, cmd: Record<string, unknown>) {
  const r = run(s, cmd);
  if (r.ok) throw new Error(`${String(cmd.type)} ${String(cmd.action ?? '')} should have failed`);
  return r.error;
}

export const act = (s: St, combatantId: string, action: string, extra: Record<string, unknown> = {}) =>
  ok(s, { type: 'act', combatantId, action, ...extra });
export const end = (s: St, combatantId: string) => ok(s, { type: 'turn.end', combatantId });
export const legal = (s: St, id: string) => legalActions(actionPoints as never, s as never, id) as ApActionOption[];

/** End turns until `id` has the initiative in `phase` (throws if the round passes). */
export function until(s: St, id: string, phase: string, maxSteps = 200): St {
  for (let i = 0; i < maxSteps; i++) {
    if (s.clock.current === id && s.clock.phase === phase) return s;
    if (!s.clock.current) throw new Error('no current combatant');
    s = end(s, s.clock.current).state;
  }
  throw new Error(`never reached ${id} in ${phase}`);
}

export const types = (events: EngineEvent[]) => events.map((e) => e.type);
export const find = (events: EngineEvent[], type: string) => events.find((e) => e.type === type);
