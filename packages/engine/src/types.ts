import type { z } from 'zod';
import type { EngineError, ErrorCode } from './errors.js';
import type { RollOutcome } from './dice.js';
import type { RngState } from './rng.js';
import type { DiceState } from './commit.js';
import type { Writer } from './writer.js';
import type { RulesetDisplay } from './display.js';

/** Who issued a command. `system` is the runtime (deadlines, timers); it has GM powers. */
export type Actor = { role: 'gm' } | { role: 'player'; playerId: string } | { role: 'system' };

/** Who is looking at the state: drives projection of GM-only data. */
export type Viewer = { role: 'gm' } | { role: 'player'; playerId: string } | { role: 'spectator' };

/** A command: `type` picks the handler; the other fields are validated by that handler's zod schema. */
export interface Command {
  type: string;
  by: Actor;
  [field: string]: unknown;
}

/**
 * An event: a fact that happened. Events are the only way state changes (`evolve`).
 * `gmOnly` events are never shown to players or spectators.
 */
export interface EngineEvent {
  type: string;
  gmOnly?: boolean;
  [field: string]: unknown;
}

export interface Item {
  id: string;
  name: string;
  /** where it is: in a hand, in the carried inventory, or dropped on the ground */
  location: 'left-hand' | 'right-hand' | 'both-hands' | 'carried' | 'ground';
  tags?: string[];
  props?: Record<string, unknown>;
}

export interface Combatant<Stats = Record<string, unknown>, Data = Record<string, unknown>> {
  id: string;
  name: string;
  side: string;
  /** the player id who controls it; null = the GM */
  controller: string | null;
  /** the whole combatant is GM-only (an unrevealed NPC) */
  hidden: boolean;
  /** stat keys only the GM and the controller see (secret NPC stats) */
  secretStats: string[];
  /** ruleset stats, validated by the ruleset's `statsSchema` */
  stats: Stats;
  /** position in the ruleset's spatial model (zone, hex, square...), validated by `positionSchema` */
  position: unknown;
  items: Item[];
  /** the ruleset's per-combatant runtime state (budgets, flags) */
  data: Data;
}

/** A duration as the GM or an ability states it; the ruleset turns it into an `expires` marker. */
export interface Duration {
  unit: string;
  count: number;
}

export interface Effect {
  id: string;
  name: string;
  /** set when the effect is a named condition (stunned, prone, deafened...) */
  condition?: string;
  targetId: string | null;
  sourceId: string | null;
  /** null = lasts until removed */
  duration: Duration | null;
  /** the ruleset's marker of when it ends (computed when applied) */
  expires: unknown;
  /** where in the clock it began */
  startedAt: { round: number; phase: string | null; current: string | null };
  gmOnly?: boolean;
  data?: Record<string, unknown>;
}

export interface ReactionWindow {
  id: string;
  /** e.g. `legends.reactive-movement`, `ocv-phases.attack-of-opportunity` */
  kind: string;
  /** what triggered it */
  trigger: { combatantId: string | null; action: string; description: string };
  /** combatant ids that may react */
  eligible: string[];
  responses: Record<string, 'pending' | 'passed' | 'reacted'>;
  /** command types usable as a reaction in this window */
  allowed: string[];
  /** the ruleset's continuation: what to resume when the window closes (GM-only) */
  resume: unknown;
  /** a hint for the runtime: close automatically after this many seconds */
  deadlineSeconds?: number;
}

export interface Clock {
  round: number;
  /** the ruleset's phase name (e.g. `movement`, `action`, `phase-3`, `fast`) */
  phase: string | null;
  /** turn order, highest first */
  order: string[];
  /** the combatant whose turn it is, if any */
  current: string | null;
}

export interface RollRecord {
  id: string;
  formula: string;
  total: number;
  purpose: string;
  combatantId: string | null;
  gmOnly?: boolean;
  overridden?: boolean;
}

export interface ForcedRoll {
  /** the queued result applies to the next roll whose formula matches (any formula if unset) */
  formula?: string;
  faces?: number[];
  total?: number;
}

export interface EncounterState<RS = unknown, Stats = Record<string, unknown>, Data = Record<string, unknown>> {
  id: string;
  name: string;
  ruleset: string;
  options: Record<string, unknown>;
  version: number;
  status: 'setup' | 'active' | 'ended';
  clock: Clock;
  sides: Record<string, { id: string; name: string }>;
  combatants: Record<string, Combatant<Stats, Data>>;
  effects: Effect[];
  reaction: ReactionWindow | null;
  rng: RngState;
  forcedRolls: ForcedRoll[];
  /** the last few rolls, newest last */
  rolls: RollRecord[];
  /** the ruleset's own state */
  rs: RS;
  /** committed dice (docs/dice.md); null or absent in an encounter created before them */
  dice?: DiceState | null;
}

export interface RollOptions {
  combatantId?: string | null;
  gmOnly?: boolean;
}

export interface RollResult extends RollOutcome {
  id: string;
  purpose: string;
}

/** What a command handler sees and may do. Handlers never mutate `state` directly. */
export interface Ctx<RS = unknown, O = Record<string, unknown>> {
  /** the current state, including events emitted so far in this command (read only) */
  readonly state: EncounterState<RS>;
  /**
   * The state as it was before this command (a plain value, never a draft). Reading it is cheaper
   * than reading `state`; use it for validation done before the first `emit`.
   */
  readonly base?: EncounterState<RS>;
  readonly command: Command;
  readonly options: O;
  emit(event: EngineEvent): void;
  roll(formula: string, purpose: string, opts?: RollOptions): RollResult;
  fail(code: ErrorCode, rule: string, message: string): never;
  openReaction(window: Omit<ReactionWindow, 'id' | 'responses'>): void;
  /** a deterministic id unique within the encounter */
  newId(prefix: string): string;
}

export interface CommandSpec<RS = unknown, O = Record<string, unknown>> {
  /** validates the whole command (`type`, `by` and its fields) */
  schema: z.ZodType<Command>;
  /**
   * who may issue it: `gm` (GM or system only), `combatant` (the controller of
   * `command.combatantId`, or the GM), or `any` authenticated actor.
   */
  actor: 'gm' | 'combatant' | 'any';
  /** usable as a reaction inside an open reaction window */
  reaction?: boolean;
  /** allowed while a reaction window is open even though it is not a reaction (GM tools) */
  duringReaction?: boolean;
  /** allowed before combat starts / after it ended */
  inSetup?: boolean;
  afterEnd?: boolean;
  handle(ctx: Ctx<RS, O>, command: Command & Record<string, unknown>): void;
}

export interface ParamSpec {
  name: string;
  label?: string;
  kind: 'combatant' | 'position' | 'path' | 'choice' | 'number' | 'text' | 'boolean' | 'item' | 'list';
  options?: Array<string | number | { value: string | number; label: string }>;
  min?: number;
  max?: number;
  optional?: boolean;
  /** what it means, in the game's words (shown under the field) */
  doc?: string;
  /** an example of what to enter (a text field's placeholder), in the game's words */
  placeholder?: string;
  /** the value a form starts with */
  default?: string | number | boolean;
}
// `path`: a list of positions, one step at a time from where the combatant stands (a client picks it on the map).

export interface ActionOption {
  /** the command type to send */
  command: string;
  /** the ruleset's action id, when one command covers several actions */
  action?: string;
  label: string;
  /** e.g. `free`, `minor`, `major`, `standard`, `move`, `attack`, `reaction` */
  kind?: string;
  /** what it spends, in the ruleset's budget units */
  cost?: Record<string, number>;
  provokes?: { from: string[]; reason: string } | null;
  params?: ParamSpec[];
  /** fields to copy into the command as they are */
  template?: Record<string, unknown>;
  allowed: boolean;
  blocked?: EngineError;
  /** the rule text this option implements (short quote) */
  rule?: string;
}

export interface CatalogueEntry {
  id: string;
  label: string;
  kind: string;
  cost?: Record<string, number> | string;
  provokes?: string;
  rule: string;
  notes?: string;
}

// The defaults are `any` so that a registry can hold rulesets of different state types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Ruleset<RS = any, O = any, Stats = any, Data = any> {
  id: string;
  name: string;
  summary: string;
  /** zod object with a default for every field */
  optionsSchema: z.ZodType<O>;
  optionDocs: Record<string, string>;
  statsSchema: z.ZodType<Stats>;
  statDocs?: Record<string, string>;
  positionSchema: z.ZodType;
  /**
   * The space positions live in, for clients drawing the battle map: a square grid ({x, y}), a hex
   * grid (axial {q, r}, pointy-top) or zones (the ruleset's own). A grid ruleset gets the `map.set`
   * command (size and walls).
   */
  space?: {
    kind: 'squares' | 'hexes' | 'zones';
    /** where the zones are in the state, e.g. `rs.zones` */
    zones?: string;
    /** where the ruleset keeps terrain layers in the state: an object of layer name → cell keys ("q,r" / "x,y"), e.g. `rs.map` */
    terrain?: string;
  };
  initialState(options: O): RS;
  initCombatant(stats: Stats, options: O): Data;
  commands: Record<string, CommandSpec<RS, O>>;
  /**
   * Apply one of the ruleset's own events to a draft; return false if it is not the ruleset's.
   * With `cow`, the draft is a copy-on-write working state instead: writes below the parts it
   * copies up front go through `w.own`, and new values stored go through `w.adopt` (see cow.ts).
   */
  evolve(draft: EncounterState<RS, Stats, Data>, event: EngineEvent, w?: Writer): boolean;
  /**
   * Commands run on a copy-on-write working state instead of a mutative draft: handlers read plain
   * objects, `evolve` writes through its `Writer`. Same results, without proxies.
   */
  cow?: boolean;
  /**
   * A shallow copy of `rs`, which the copy-on-write path makes at the start of every command: a
   * plain object with the same keys in the same order and the same values (what `{ ...rs }` gives).
   * Optional: a ruleset that knows its keys can copy them field by field (the engine's spread site,
   * shared by every ruleset and shape, copies generically and is several times slower). Called
   * without `this`.
   */
  copyRs?(rs: RS): RS;
  /**
   * Whether a copy of `rs` (made by `copyRs`, then changed in place) still equals the original:
   * the same keys in the same order and the same values, as `sameShallow` decides. Optional, with
   * `copyRs`: field by field for the same reason. Called without `this`.
   */
  sameRs?(copy: RS, orig: RS): boolean;
  startCombat(ctx: Ctx<RS, O>): void;
  /** the acting combatant (or the GM for it) ends its turn */
  endTurn(ctx: Ctx<RS, O>, combatantId: string): void;
  legalActions(state: EncounterState<RS, Stats, Data>, combatantId: string): ActionOption[];
  catalogue: CatalogueEntry[];
  onCombatantAdded?(ctx: Ctx<RS, O>, combatantId: string): void;
  onCombatantRemoved?(ctx: Ctx<RS, O>, combatant: Combatant<Stats, Data>): void;
  /** compute an effect's `expires` marker when it is applied */
  effectExpiry?(state: EncounterState<RS, Stats, Data>, effect: Effect): unknown;
  onReactionClosed?(ctx: Ctx<RS, O>, window: ReactionWindow): void;
  /**
   * A reaction command from a combatant the open window does not ask: the ruleset's more specific
   * refusal (e.g. a readied character, who may take no other reaction), or null for the engine's
   * generic `engine.reactions`. Called only on that refusal path.
   */
  refuseReaction?(state: EncounterState<RS, Stats, Data>, command: Command): EngineError | null;
  onRollOverridden?(ctx: Ctx<RS, O>, roll: RollRecord, previousTotal: number): void;
  /**
   * Strip GM-only parts of the ruleset state for a viewer (default: shown as is). It must read
   * `state` only for its combatants (who is hidden, who controls whom) and depend on the viewer
   * only through which combatants that viewer sees: the engine memoizes it per (rs, combatants,
   * viewer) and the server sends players who control nothing hidden or secret the spectators' view.
   */
  projectState?(rs: RS, viewer: Viewer, state: EncounterState<RS, Stats, Data>): RS;
  /** invariants checked by property tests; returns the broken ones */
  invariants?(state: EncounterState<RS, Stats, Data>): string[];
  /** how the ruleset is shown (vitals, stat labels, internal fields, event sentences) */
  display?: RulesetDisplay;
  /**
   * The GM's `combatant.adjust`: `amount` > 0 harms, < 0 heals one of the `adjustable` vitals of
   * `display`, through the ruleset's own events so that its consequences (conditions, a spoiled
   * action) follow as they would after an attack.
   */
  adjustVital?(ctx: Ctx<RS, O>, combatantId: string, vital: string, amount: number): void;
}

export type ApplyResult<RS = unknown> = { ok: true; state: EncounterState<RS>; events: EngineEvent[] } | { ok: false; error: EngineError };
