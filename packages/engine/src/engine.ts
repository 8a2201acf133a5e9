import { create, current, isDraft, original } from 'mutative';
import { z } from 'zod';
import { coreCommands } from './core.js';
import { checkMapAfter, mapCommands } from './map.js';
import { draftWriter, Work, type Writer } from './cow.js';
import { diceCount, parseFormula, rollFormula, totalFor } from './dice.js';
import { RuleViolation, type EngineError, type ErrorCode } from './errors.js';
import { Rng, seedRng } from './rng.js';
import { actorSchema } from './schemas.js';
import type {
  ActionOption,
  ApplyResult,
  Combatant,
  Command,
  CommandSpec,
  Ctx,
  EncounterState,
  EngineEvent,
  ReactionWindow,
  RollOptions,
  RollRecord,
  RollResult,
  Ruleset,
} from './types.js';


const RECENT_ROLLS = 16;

export interface CreateEncounterInput {
  id: string;
  name?: string;
  options?: unknown;
  seed: number;
}

/** A fresh encounter in `setup`. Throws a RuleViolation when the options fail the schema. */
export function createEncounter<RS>(ruleset: Ruleset<RS>, input: CreateEncounterInput): EncounterState<RS> {
  const parsed = ruleset.optionsSchema.safeParse(input.options ?? {});
  if (!parsed.success) {
    throw new RuleViolation('INVALID_OPTIONS', `${ruleset.id}.options`, z.prettifyError(parsed.error));
  }
  const options = parsed.data as Record<string, unknown>;
  return {
    id: input.id,
    name: input.name ?? 'Encounter',
    ruleset: ruleset.id,
    options,
    version: 0,
    status: 'setup',
    clock: { round: 0, phase: null, order: [], current: null },
    sides: {},
    combatants: {},
    effects: [],
    reaction: null,
    rng: seedRng(input.seed),
    forcedRolls: [],
    rolls: [],
    rs: ruleset.initialState(options),
  };
}

const commandCache = new WeakMap<Ruleset, Record<string, CommandSpec>>();
/** Core commands merged with the ruleset's own (the ruleset's win on a clash). */
export function commandsOf(ruleset: Ruleset): Record<string, CommandSpec> {
  let all = commandCache.get(ruleset);
  if (!all) {
    all = { ...coreCommands(ruleset), ...mapCommands(ruleset), ...(ruleset.commands as Record<string, CommandSpec>) };
    commandCache.set(ruleset, all);
  }
  return all;
}

const envelope = z.object({ type: z.string().min(1).max(64), by: actorSchema }).passthrough();

/** What `envelope` accepts, checked by hand: the envelope is parsed on every command. */
function wellFormedEnvelope(raw: unknown): raw is { type: string; by: Command['by'] } {
  if (typeof raw !== 'object' || raw === null) return false;
  const { type, by } = raw as { type?: unknown; by?: unknown };
  if (typeof type !== 'string' || type.length < 1 || type.length > 64) return false;
  if (typeof by !== 'object' || by === null) return false;
  const { role, playerId } = by as { role?: unknown; playerId?: unknown };
  if (role === 'gm' || role === 'system') return true;
  return role === 'player' && typeof playerId === 'string' && playerId.length >= 1 && playerId.length <= 128;
}

function err(code: EngineError['code'], rule: string, message: string): { ok: false; error: EngineError } {
  return { ok: false, error: { code, rule, message } };
}

/**
 * Validate a command and apply it: the new state and its events, or a typed error and the
 * state untouched. Pure: the same state and command always give the same result.
 */
export function apply<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, raw: unknown): ApplyResult<RS> {
  let type: string;
  if (wellFormedEnvelope(raw)) type = raw.type;
  else {
    // The slow path gives the same answer for well-formed envelopes and the schema's message otherwise.
    const env = envelope.safeParse(raw);
    if (!env.success) return err('INVALID_COMMAND', 'engine.commands', z.prettifyError(env.error));
    type = env.data.type;
  }
  const all = commandsOf(ruleset);
  const spec = Object.hasOwn(all, type) ? all[type] : undefined;
  if (!spec) return err('UNKNOWN_COMMAND', 'engine.commands', `Unknown command "${type}" for ruleset ${ruleset.id}.`);
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) return err('INVALID_COMMAND', `${ruleset.id}.${type}`, z.prettifyError(parsed.error));
  const cmd = parsed.data as Command;

  // Who may issue it.
  const by = cmd.by;
  const isGm = by.role === 'gm' || by.role === 'system';
  if (spec.actor === 'gm' && !isGm) return err('NOT_AUTHORIZED', 'engine.roles', `Only the GM may ${cmd.type}.`);
  if (spec.actor === 'combatant') {
    const id = cmd.combatantId;
    const c = typeof id === 'string' ? state.combatants[id] : undefined;
    if (!c) return err('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${String(id)}".`);
    if (!isGm && (by.role !== 'player' || c.controller !== by.playerId)) {
      return err('NOT_AUTHORIZED', 'engine.roles', `${c.name} is not yours to command.`);
    }
  }

  // Where in the combat it may come.
  if (state.status === 'setup' && !spec.inSetup) return err('COMBAT_NOT_STARTED', 'engine.combat', 'Combat has not started.');
  if (state.status === 'ended' && !spec.afterEnd && !(spec.inSetup && spec.actor === 'gm' && cmd.type !== 'combat.start')) {
    return err('COMBAT_ENDED', 'engine.combat', 'Combat has ended.');
  }
  const window = state.reaction;
  if (window) {
    if (spec.reaction && (cmd.type === 'reaction.pass' || window.allowed.includes(cmd.type))) {
      const who = cmd.combatantId as string;
      if (window.responses[who] !== 'pending') {
        const specific = ruleset.refuseReaction?.(state, cmd);
        if (specific) return { ok: false, error: specific };
        return err('ILLEGAL_ACTION', 'engine.reactions', `${state.combatants[who]?.name ?? who} may not react in this window.`);
      }
    } else if (!spec.duringReaction) {
      return err('REACTION_PENDING', 'engine.reactions', `Waiting for reactions (${window.kind}): only those reactions, a pass, or the GM's resolution are legal.`);
    }
  } else if (cmd.type === 'reaction.pass') {
    return err('NO_REACTION_PENDING', 'engine.reactions', 'No reaction window is open.');
  }

  const events: EngineEvent[] = [];
  if (ruleset.cow) {
    try {
      const work = new Work(state, true, ruleset.copyRs as ((rs: never) => unknown) | undefined, ruleset.sameRs as ((c: never, o: never) => boolean) | undefined);
      const draft = work.root;
      const ctx = makeCtx(ruleset, draft, cmd, events, state, work);
      spec.handle(ctx as Ctx<RS>, cmd as Command & Record<string, unknown>);
      const w = draft.reaction;
      // A reaction command by an eligible combatant counts as its response.
      if (w && window && w.id === window.id && spec.reaction && cmd.type !== 'reaction.pass') {
        const who = cmd.combatantId as string;
        if (w.responses[who] === 'pending') ctx.emit({ type: 'reaction.responded', combatantId: who, response: 'reacted' });
      }
      closeWindowIfDone(ruleset, ctx as Ctx<RS>);
      checkMapAfter(ruleset, state, ctx as Ctx<unknown>, cmd);
      draft.version += 1;
      return { ok: true, state: work.finish(), events };
    } catch (e) {
      if (e instanceof RuleViolation) return { ok: false, error: e.toJSON() };
      throw e;
    }
  }
  try {
    const next = create(state, (draft) => {
      const ctx = makeCtx(ruleset, draft as EncounterState<RS>, cmd, events, state, draftWriter);
      spec.handle(ctx as Ctx<RS>, cmd as Command & Record<string, unknown>);
      const w = draft.reaction;
      // A reaction command by an eligible combatant counts as its response.
      if (w && window && w.id === window.id && spec.reaction && cmd.type !== 'reaction.pass') {
        const who = cmd.combatantId as string;
        if (w.responses[who] === 'pending') ctx.emit({ type: 'reaction.responded', combatantId: who, response: 'reacted' });
      }
      closeWindowIfDone(ruleset, ctx as Ctx<RS>);
      checkMapAfter(ruleset, state, ctx as Ctx<unknown>, cmd);
      draft.version += 1;
    });
    return { ok: true, state: next as EncounterState<RS>, events };
  } catch (e) {
    if (e instanceof RuleViolation) return { ok: false, error: e.toJSON() };
    throw e;
  }
}

function closeWindowIfDone<RS>(ruleset: Ruleset<RS>, ctx: Ctx<RS>): void {
  // Resuming may open a new window; loop until one is left open or none is.
  for (let guard = 0; guard < 32; guard++) {
    const w = ctx.state.reaction;
    if (!w) return;
    if (w.eligible.some((id) => w.responses[id] === 'pending')) return;
    const closed: ReactionWindow = structuredCloneWindow(w, ruleset.cow === true);
    ctx.emit({ type: 'reaction.closed', windowId: w.id, outcome: 'answered' });
    ruleset.onReactionClosed?.(ctx, closed);
  }
}

/**
 * A plain copy of the window (it is a draft while the command runs). An open window is changed in
 * place only by the engine, and only in `responses` and `eligible` (see `evolve`); the rest is as
 * it was when the window opened, so it is taken from the pre-command value instead of copied
 * through the draft.
 */
function structuredCloneWindow(w: ReactionWindow, cow: boolean): ReactionWindow {
  // the copy-on-write working window is the command's own: hand out a copy, as the draft path does
  if (cow) return { ...w, eligible: [...w.eligible], responses: { ...w.responses } };
  if (!isDraft(w)) return w;
  const before = original(w) as ReactionWindow;
  return { ...before, eligible: [...w.eligible], responses: { ...w.responses } };
}

function makeCtx<RS>(ruleset: Ruleset<RS>, draft: EncounterState<RS>, command: Command, events: EngineEvent[], base: EncounterState<RS>, writer: Writer): Ctx<RS> {
  return new CommandCtx(ruleset, draft, command, events, base, writer);
}

/**
 * The context handlers get. A class, so that a command allocates one object instead of one
 * closure per method (handlers call its methods on it; none takes a method off it).
 */
class CommandCtx<RS> implements Ctx<RS> {
  readonly state: EncounterState<RS>;
  readonly options: Record<string, unknown>;
  private idCounter = 0;
  private readonly version: number;
  // Reads that do not need the draft go to the base state: every draft read costs a proxy.
  private rngState: EncounterState<RS>['rng'];
  /** Whether the queue of GM-forced rolls may differ from the base state's (then read the draft). */
  private forcedTouched = false;

  constructor(
    private readonly ruleset: Ruleset<RS>,
    private readonly draft: EncounterState<RS>,
    readonly command: Command,
    private readonly events: EngineEvent[],
    readonly base: EncounterState<RS>,
    private readonly writer: Writer,
  ) {
    this.state = draft;
    this.options = base.options;
    this.version = base.version + 1;
    this.rngState = base.rng;
  }

  private hiddenNow(id: string): boolean {
    const c = this.base.combatants[id];
    return c ? c.hidden : this.draft.combatants[id]?.hidden === true;
  }

  emit(event: EngineEvent): void {
    if (!event.gmOnly) {
      const cid = (event.combatantId ?? event.targetId) as unknown;
      if (typeof cid === 'string' && this.hiddenNow(cid)) event = { ...event, gmOnly: true };
    }
    // (a delete of a key the event does not have still costs a runtime call: only when it has one)
    if (event.gmOnly === undefined && Object.hasOwn(event, 'gmOnly')) delete event.gmOnly;
    if (event.type === 'dice.forced' || event.type === 'combatant.removed' || !CORE_EVENTS.has(event.type)) this.forcedTouched = true;
    evolve(this.ruleset, this.draft, event, this.writer);
    this.events.push(event);
  }

  roll(formula: string, purpose: string, opts: RollOptions = {}): RollResult {
    const draft = this.draft;
    const rng = new Rng(this.rngState);
    let outcome = rollFormula(formula, rng);
    let forcedIndex = -1;
    if ((this.forcedTouched ? draft : this.base).forcedRolls.length > 0) {
      const f0 = formula.replace(/\s+/g, '');
      forcedIndex = draft.forcedRolls.findIndex((f) => !f.formula || f.formula.replace(/\s+/g, '') === f0);
      if (forcedIndex >= 0) {
        const f = draft.forcedRolls[forcedIndex]!;
        const parsed = parseFormula(formula);
        if (f.faces && f.faces.length === diceCount(parsed)) outcome = { formula, ...totalFor(parsed, f.faces) };
        else if (f.total !== undefined) outcome = { ...outcome, total: f.total };
      }
    }
    const rngState = (this.rngState = rng.state());
    const id = `r${this.version}.${++this.idCounter}`;
    const combatantId = opts.combatantId ?? null;
    const event: EngineEvent = {
      type: 'dice.rolled',
      rollId: id,
      formula,
      faces: outcome.faces,
      total: outcome.total,
      purpose,
      combatantId,
      rngAfter: rngState,
    };
    if (forcedIndex >= 0) {
      event.forced = true;
      event.forcedIndex = forcedIndex;
    }
    if (opts.gmOnly || (combatantId !== null && this.hiddenNow(combatantId))) event.gmOnly = true;
    this.emit(event);
    return { formula, faces: outcome.faces, total: outcome.total, id, purpose };
  }

  fail(code: ErrorCode, rule: string, message: string): never {
    throw new RuleViolation(code, rule, message);
  }

  openReaction(w: Omit<ReactionWindow, 'id' | 'responses'>): void {
    if (this.draft.reaction) throw new RuleViolation('REACTION_PENDING', 'engine.reactions', 'A reaction window is already open.');
    const responses: Record<string, 'pending'> = {};
    for (const id of w.eligible) responses[id] = 'pending';
    this.emit({ type: 'reaction.opened', window: { ...w, id: this.newId('w'), responses } });
  }

  newId(prefix: string): string {
    return `${prefix}${this.version}.${++this.idCounter}`;
  }
}

/** The event types `evolve` handles itself; none but `dice.forced` and `dice.rolled` touch `forcedRolls`. */
const CORE_EVENTS = new Set([
  'combatant.added', 'combatant.removed', 'combatant.updated', 'combatant.placed', 'effect.applied', 'effect.removed',
  'effect.expired', 'combat.started', 'combat.ended', 'clock.changed', 'dice.rolled', 'dice.forced', 'dice.overridden',
  'reaction.opened', 'reaction.responded', 'reaction.closed',
]);

/**
 * Apply one event to a draft (or to a copy-on-write working state, with its writer). Core events
 * are handled here; the rest go to the ruleset.
 */
export function evolve<RS>(ruleset: Ruleset<RS>, s: EncounterState<RS>, e: EngineEvent, w: Writer = draftWriter): void {
  switch (e.type) {
    case 'combatant.added': {
      const c = w.adopt(e.combatant as Combatant);
      s.combatants[c.id] = c as never;
      if (!s.sides[c.side]) w.own<EncounterState['sides']>(s, 'sides')[c.side] = { id: c.side, name: c.side };
      return;
    }
    case 'combatant.removed': {
      const id = e.combatantId as string;
      delete s.combatants[id];
      s.effects = s.effects.filter((x) => x.targetId !== id);
      if (s.clock.order.includes(id)) s.clock.order = s.clock.order.filter((x) => x !== id);
      if (s.clock.current === id) s.clock.current = null;
      if (s.reaction?.eligible.includes(id)) {
        const r = w.own<ReactionWindow>(s, 'reaction');
        r.eligible = r.eligible.filter((x) => x !== id);
        delete w.own<ReactionWindow['responses']>(r, 'responses')[id];
      }
      return;
    }
    case 'combatant.updated': {
      const c = s.combatants[e.combatantId as string]!;
      w.changed(c);
      // the event's values go into the state as they are (the draft path did the same)
      for (const v of Object.values(e.changes as object)) w.adopt(v);
      Object.assign(c, e.changes as object);
      if (!s.sides[c.side]) w.own<EncounterState['sides']>(s, 'sides')[c.side] = { id: c.side, name: c.side };
      return;
    }
    case 'combatant.placed':
      w.changed(s.combatants[e.combatantId as string]!);
      s.combatants[e.combatantId as string]!.position = w.adopt(e.position);
      return;
    case 'effect.applied':
      w.own<EncounterState['effects']>(s, 'effects').push(w.adopt(e.effect) as never);
      return;
    case 'effect.removed':
    case 'effect.expired':
      s.effects = s.effects.filter((x) => x.id !== e.effectId);
      return;
    case 'combat.started':
      s.status = 'active';
      return;
    case 'map.changed':
      s.options = w.adopt({ ...s.options, map: e.map });
      return;
    case 'encounter.gmRollsChanged':
      s.options = w.adopt({ ...s.options, gmRollsSecret: e.secret === true });
      return;
    case 'combat.ended':
      s.status = 'ended';
      s.clock.current = null;
      s.reaction = null;
      return;
    case 'clock.changed': {
      const { type: _t, gmOnly: _g, ...changes } = e;
      for (const v of Object.values(changes)) w.adopt(v);
      Object.assign(s.clock, changes);
      return;
    }
    case 'dice.rolled': {
      s.rng = e.rngAfter as number[];
      if (typeof e.forcedIndex === 'number') w.own<EncounterState['forcedRolls']>(s, 'forcedRolls').splice(e.forcedIndex, 1);
      const rec: RollRecord = {
        id: e.rollId as string,
        formula: e.formula as string,
        total: e.total as number,
        purpose: e.purpose as string,
        combatantId: (e.combatantId as string | null) ?? null,
      };
      if (e.gmOnly) rec.gmOnly = true;
      // A plain view of the list: spreading the draft would make a draft of every record.
      const drafted = s.rolls;
      const rolls = isDraft(drafted) ? current(drafted) : drafted;
      // the last RECENT_ROLLS - 1 records and the new one, in one array (no slice and spread)
      const next: RollRecord[] = [];
      for (let i = rolls.length >= RECENT_ROLLS ? rolls.length - RECENT_ROLLS + 1 : 0; i < rolls.length; i++) next.push(rolls[i]!);
      next.push(rec);
      // Frozen, so that mutative takes the new list as it is when the command ends instead of
      // searching its 16 records for drafts (they hold none: plain records of the list before, and
      // the new one). A later change still goes through a draft, which copies it.
      s.rolls = (w === draftWriter ? Object.freeze(next) : next) as RollRecord[];
      return;
    }
    case 'dice.forced':
      w.own<EncounterState['forcedRolls']>(s, 'forcedRolls').push(w.adopt(e.forced) as never);
      return;
    case 'dice.overridden': {
      const rolls = w.own<RollRecord[]>(s, 'rolls');
      const i = rolls.findIndex((x) => x.id === e.rollId);
      if (i >= 0) {
        const r = w.own<RollRecord>(rolls, i);
        r.total = e.total as number;
        r.overridden = true;
      }
      return;
    }
    case 'reaction.opened':
      s.reaction = w.adopt(e.window as ReactionWindow);
      return;
    case 'reaction.responded':
      if (s.reaction) w.own<ReactionWindow['responses']>(w.own<ReactionWindow>(s, 'reaction'), 'responses')[e.combatantId as string] = e.response as 'passed' | 'reacted';
      return;
    case 'reaction.closed':
      s.reaction = null;
      return;
    default:
      if (!ruleset.evolve(s as never, e, w)) throw new Error(`Unknown event type "${e.type}"`);
  }
}

/** Rebuild a state by applying a command log to an initial state. Throws if any command fails. */
export function replay<RS>(ruleset: Ruleset<RS>, initial: EncounterState<RS>, commands: readonly unknown[]): EncounterState<RS> {
  let state = initial;
  commands.forEach((c, i) => {
    const r = apply(ruleset, state, c);
    if (!r.ok) throw new Error(`Replay diverged at command ${i}: ${r.error.code} ${r.error.message}`);
    state = r.state;
  });
  return state;
}

/** Rebuild a state from events alone (each batch was one command). */
export function rebuild<RS>(ruleset: Ruleset<RS>, initial: EncounterState<RS>, batches: readonly (readonly EngineEvent[])[]): EncounterState<RS> {
  let state = initial;
  for (const batch of batches) {
    if (ruleset.cow) {
      // the events may be objects that earlier states hold (the ones apply returned): never adopt them
      const work = new Work(state, false, ruleset.copyRs as ((rs: never) => unknown) | undefined, ruleset.sameRs as ((c: never, o: never) => boolean) | undefined);
      for (const e of batch) evolve(ruleset, work.root, e, work);
      work.root.version += 1;
      state = work.finish();
      continue;
    }
    state = create(state, (draft) => {
      for (const e of batch) evolve(ruleset, draft as EncounterState<RS>, e);
      draft.version += 1;
    }) as EncounterState<RS>;
  }
  return state;
}

/** What a combatant may do right now (for clients to show only legal choices). */
export function legalActions<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, combatantId: string): ActionOption[] {
  if (!state.combatants[combatantId] || state.status !== 'active') return [];
  const options = ruleset.legalActions(state, combatantId);
  const w = state.reaction;
  if (w && w.responses[combatantId] === 'pending') {
    options.push({ command: 'reaction.pass', label: 'Pass (do not react)', kind: 'reaction', allowed: true, template: { combatantId }, rule: 'engine.reactions' });
  }
  return options;
}

/**
 * A deep copy equal to `JSON.parse(JSON.stringify(value))` (members that are undefined dropped,
 * undefined array items and non-finite numbers turned to null), without the text round trip and
 * without reading drafts through their proxies: use it to put a value read from the draft into an
 * event.
 */
export function jsonCopy<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? (v === 0 ? 0 : v) : null; // JSON writes -0 as 0
  if (typeof v !== 'object' || v === null) return v;
  if (isDraft(v)) v = current(v as object);
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : copyJson(x);
    }
    return out;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.toJSON === 'function') return copyJson((o.toJSON as () => unknown)());
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out[k] = copyJson(x);
  }
  return out;
}

/** Effects on a combatant whose `condition` is the given name. */
export function hasCondition(state: EncounterState<unknown>, combatantId: string, condition: string): boolean {
  return state.effects.some((e) => e.targetId === combatantId && e.condition === condition);
}

export function conditionsOf(state: EncounterState<unknown>, combatantId: string): string[] {
  const out: string[] = [];
  for (const e of state.effects) if (e.targetId === combatantId && e.condition && !out.includes(e.condition)) out.push(e.condition);
  return out;
}

/** Emit `effect.expired` for every effect the predicate selects (rulesets call this when durations tick). */
export function expireEffects<RS>(ctx: Ctx<RS>, predicate: (e: EncounterState<RS>['effects'][number]) => boolean, reason = 'duration'): void {
  const ids = ctx.state.effects.filter(predicate).map((e) => ({ id: e.id, gmOnly: e.gmOnly }));
  for (const { id, gmOnly } of ids) ctx.emit({ type: 'effect.expired', effectId: id, reason, gmOnly: gmOnly || undefined });
}
