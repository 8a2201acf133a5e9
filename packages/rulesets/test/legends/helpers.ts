import { apply, createEncounter, legalActions, type EngineEvent } from '@fray/engine';
import { expect } from 'vitest';
import { legends, type LState } from '../../src/legends/index.js';

const gm = { role: 'gm' } as const;
export const player = (playerId: string) => ({ role: 'player', playerId }) as const;

export interface Spec {
  id: string;
  side: string;
  DEX?: number;
  SPD?: number;
  STR?: number;
  controller?: string;
  stats?: Record<string, unknown>;
  items?: unknown[];
  position?: unknown;
}

export class Table {
  state: LState;
  log: unknown[] = [];
  events: EngineEvent[][] = [];
  readonly initial: LState;
  constructor(seed = 1, options: Record<string, unknown> = {}) {
    this.state = createEncounter(legends, { id: 'enc', seed, options }) as unknown as LState;
    this.initial = this.state;
  }
  /** apply and expect success */
  do(cmd: Record<string, unknown>): EngineEvent[] {
    const r = apply(legends, this.state as never, { by: gm, ...cmd });
    if (!r.ok) throw new Error(`${String(cmd.type)} failed: ${r.error.code} ${r.error.rule} ${r.error.message}`);
    this.log.push({ by: gm, ...cmd });
    this.events.push(r.events);
    this.state = r.state as unknown as LState;
    return r.events;
  }
  /** apply and expect a refusal; the state must not change */
  refuse(cmd: Record<string, unknown>, rule?: string | RegExp, code?: string) {
    const before = JSON.stringify(this.state);
    const r = apply(legends, this.state as never, { by: gm, ...cmd });
    expect(r.ok, `expected ${String(cmd.type)} to be refused`).toBe(false);
    if (r.ok) throw new Error('unreachable');
    if (rule !== undefined) {
      if (typeof rule === 'string') expect(r.error.rule).toBe(rule);
      else expect(r.error.rule).toMatch(rule);
    }
    if (code) expect(r.error.code).toBe(code);
    expect(JSON.stringify(this.state)).toBe(before);
    return r.error;
  }
  try(cmd: Record<string, unknown>) {
    return apply(legends, this.state as never, { by: gm, ...cmd });
  }
  add(spec: Spec) {
    this.do({
      type: 'combatant.add',
      combatant: {
        id: spec.id,
        name: spec.id,
        side: spec.side,
        controller: spec.controller ?? null,
        stats: { DEX: spec.DEX ?? 6, SPD: spec.SPD ?? 6, STR: spec.STR ?? 6, ...(spec.stats ?? {}) },
        items: spec.items ?? [],
        ...(spec.position ? { position: spec.position } : {}),
      },
    });
  }
  force(...totals: number[]) {
    for (const t of totals) this.do({ type: 'dice.force', total: t });
  }
  forceFaces(formula: string, faces: number[]) {
    this.do({ type: 'dice.force', formula, faces });
  }
  get clock() {
    return this.state.clock;
  }
  c(id: string) {
    return this.state.combatants[id]!;
  }
  pos(id: string) {
    return this.state.combatants[id]!.position as { zone: string; area: string | null; group: string | null; engagement: string | null };
  }
  legal(id: string) {
    return legalActions(legends, this.state as never, id);
  }
  effectsOn(id: string) {
    return this.state.effects.filter((e) => e.targetId === id);
  }
  /** end turns until it is `id`'s turn in the action phase */
  endTurnsUntil(id: string) {
    for (let i = 0; i < 50 && !(this.clock.phase === 'action' && this.clock.current === id); i++) {
      if (this.clock.phase === 'action' && this.clock.current) this.do({ type: 'turn.end', combatantId: this.clock.current });
      else this.do({ type: 'advancePhase' });
    }
    expect(this.clock.current).toBe(id);
  }
  /** skip to the given phase */
  skipTo(phase: string, round?: number) {
    for (let i = 0; i < 200 && !(this.clock.phase === phase && (round === undefined || this.clock.round === round)); i++) {
      if (this.clock.phase === 'action' && this.clock.current) this.do({ type: 'turn.end', combatantId: this.clock.current });
      else this.do({ type: 'advancePhase' });
    }
    expect(this.clock.phase).toBe(phase);
  }
}

/** Two sides, fixed turn order a1 > a2 > ... by forcing the d12 turn order rolls. */
export function started(
  specs: Spec[],
  opts: {
    seed?: number;
    options?: Record<string, unknown>;
    rolls?: number[];
    surprised?: string[];
    setup?: (t: Table) => void;
    decide?: boolean;
  } = {},
): Table {
  const t = new Table(opts.seed ?? 1, { initialTurnOrderDecisions: opts.decide ?? false, ...(opts.options ?? {}) });
  for (const s of specs) t.add(s);
  for (const id of opts.surprised ?? []) t.do({ type: 'setSurprised', combatantId: id, surprised: true });
  opts.setup?.(t);
  // turn order rolls happen in id order; force them so that lower rolls (better, roll-under) come in the given order
  const ids = specs.map((s) => s.id).sort();
  const rolls = opts.rolls ?? ids.map((id) => specs.findIndex((s) => s.id === id) + 1);
  for (const r of rolls) t.do({ type: 'dice.force', formula: '1d12', total: r });
  t.do({ type: 'combat.start' });
  return t;
}
