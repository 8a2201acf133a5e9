import type { ActionOption, Actor, EncounterState, EngineEvent, NewCombatant } from '@fray/engine';

/** A combatant to add before combat starts (the `combatant` field of `combatant.add`, with its id). */
export type FixtureCombatant = Omit<Partial<NewCombatant>, 'id' | 'name' | 'side' | 'stats'> & {
  id: string;
  name: string;
  side: string;
  stats: Record<string, unknown>;
};

/** What a ruleset gives the suite: a small fight and how to fill its actions' parameters. */
export interface ConformanceFixture {
  /** the encounter's options (defaults when unset) */
  options?: Record<string, unknown>;
  /** the combatants of the fight: at least two, on two sides; give player characters a `controller` */
  combatants: FixtureCombatant[];
  /** stats for the planted hidden combatant and the combatant with a secret stat (the first combatant's when unset) */
  canaryStats?: Record<string, unknown>;
  /** where the two canaries stand (none when unset) */
  canaryPositions?: [unknown, unknown];
  /** a stat key of `canaryStats` to mark secret (the first key when unset) */
  secretStat?: string;
  /** commands to run after the combatants are added and before `combat.start` */
  setup?: (state: EncounterState) => Record<string, unknown>[];
  /**
   * The command an action option stands for, with its parameters filled plausibly (a target, a
   * position, a number in range), or null to leave the option out of the agreement check. The
   * default: the option's template, and for each parameter its first listed option or a combatant
   * of the other side; null when a parameter cannot be filled that way.
   */
  fill?: (state: EncounterState, combatantId: string, option: ActionOption, pick: number) => Record<string, unknown> | null;
  /** GM commands to mix into the sampled streams now and then (tools the legal actions do not list) */
  extra?: (state: EncounterState, pick: number) => Record<string, unknown> | null;
  /** runs per property (default 12) and commands per run (default 30) */
  numRuns?: number;
  steps?: number;
  /** fast-check seed, so that a failure replays (default 35) */
  seed?: number;
}

/** One sampled run: what was sent and what came back, for the properties to judge. */
export interface Run {
  initial: EncounterState;
  /** the accepted commands, in order */
  log: unknown[];
  /** each accepted command's events */
  batches: EngineEvent[][];
  /** every state after an accepted command (the first is after the first command) */
  states: EncounterState[];
  /** every refusal met, with its command */
  refusals: Array<{ command: unknown; rule: string; code: string }>;
  /** what the invariants said along the way */
  broken: string[];
  final: EncounterState;
}

/** Who sends a combatant's commands: its controller, or the GM for the GM's own. */
export function actorFor(state: EncounterState, combatantId: string): Actor {
  const c = state.combatants[combatantId];
  return c?.controller ? { role: 'player', playerId: c.controller } : { role: 'gm' };
}
