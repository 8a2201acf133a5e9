import { create } from 'mutative';
import { z } from 'zod';
import { coreCommands } from './core.js';
import { checkMapAfter, mapCommands } from './map.js';
import { Work } from './cow.js';
import { draftWriter } from './writer.js';
import { RuleViolation, type EngineError } from './errors.js';
import { seedRng } from './rng.js';
import { actorSchema } from './schemas.js';
import type { ActionOption, ApplyResult, Command, CommandSpec, Ctx, EncounterState, EngineEvent, Ruleset } from './types.js';
import { evolve } from './evolve.js';
import { makeCtx, closeWindowIfDone } from './ctx.js';
import { newDiceState, type DiceSecret } from './commit.js';
import { afterDiceCommand, diceCommitCommands } from './commit-commands.js';

export interface CreateEncounterInput {
  id: string;
  name?: string;
  options?: unknown;
  /** the generator's seed in an encounter without committed dice (and before they are sealed) */
  seed: number;
  /** the server's secret for committed dice (docs/dice.md), drawn from a secure source; without it, none */
  dice?: DiceSecret;
}

/** A fresh encounter in `setup`. Throws a RuleViolation when the options fail the schema. */
export function createEncounter<RS>(ruleset: Ruleset<RS>, input: CreateEncounterInput): EncounterState<RS> {
  const parsed = ruleset.optionsSchema.safeParse(input.options ?? {});
  if (!parsed.success) {
    throw new RuleViolation('INVALID_OPTIONS', `${ruleset.id}.options`, z.prettifyError(parsed.error));
  }
  const options: Record<string, unknown> = parsed.data;
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
    // committed dice have no generator until they are sealed (commit-commands.ts)
    rng: input.dice ? [] : seedRng(input.seed),
    forcedRolls: [],
    rolls: [],
    rs: ruleset.initialState(options),
    dice: input.dice ? newDiceState(input.dice) : null,
  };
}

const commandCache = new WeakMap<Ruleset, Record<string, CommandSpec>>();
/** Core commands merged with the ruleset's own (the ruleset's win on a clash). */
export function commandsOf(ruleset: Ruleset): Record<string, CommandSpec> {
  let all = commandCache.get(ruleset);
  if (!all) {
    all = { ...coreCommands(ruleset), ...mapCommands(ruleset), ...diceCommitCommands, ...ruleset.commands };
    commandCache.set(ruleset, all);
  }
  return all;
}

const envelope = z.object({ type: z.string().min(1).max(64), by: actorSchema }).passthrough();

/** What `envelope` accepts, checked by hand: the envelope is parsed on every command. */
function wellFormedEnvelope(raw: unknown): raw is { type: string; by: Command['by'] } {
  if (typeof raw !== 'object' || raw === null) return false;
  const { type, by }: { type?: unknown; by?: unknown } = raw;
  if (typeof type !== 'string' || type.length < 1 || type.length > 64) return false;
  if (typeof by !== 'object' || by === null) return false;
  const { role, playerId }: { role?: unknown; playerId?: unknown } = by;
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
  const cmd = parsed.data;

  const refused = refusal(ruleset, spec, state, cmd);
  if (refused) return refused;

  const events: EngineEvent[] = [];
  if (ruleset.cow) {
    try {
      const work = new Work(state, true, ruleset.copyRs, ruleset.sameRs);
      const draft = work.root;
      const ctx = makeCtx(ruleset, draft, cmd, events, state, work);
      spec.handle(ctx, cmd);
      afterHandler(ruleset, spec, state, cmd, ctx, draft);
      return { ok: true, state: work.finish(), events };
    } catch (e) {
      if (e instanceof RuleViolation) return { ok: false, error: e.toJSON() };
      throw e;
    }
  }
  try {
    const next = create(state, (draft: EncounterState<RS>) => {
      const ctx = makeCtx(ruleset, draft, cmd, events, state, draftWriter);
      spec.handle(ctx, cmd);
      afterHandler(ruleset, spec, state, cmd, ctx, draft);
    });
    return { ok: true, state: next, events };
  } catch (e) {
    if (e instanceof RuleViolation) return { ok: false, error: e.toJSON() };
    throw e;
  }
}

/** Why the command may not come from this actor, or at this point of the combat; null when it may. */
function refusal<RS>(
  ruleset: Ruleset<RS>,
  spec: CommandSpec,
  state: EncounterState<RS>,
  cmd: Command,
): { ok: false; error: EngineError } | null {
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
      return err(
        'REACTION_PENDING',
        'engine.reactions',
        `Waiting for reactions (${window.kind}): only those reactions, a pass, or the GM's resolution are legal.`,
      );
    }
  } else if (cmd.type === 'reaction.pass') {
    return err('NO_REACTION_PENDING', 'engine.reactions', 'No reaction window is open.');
  }
  return null;
}

/**
 * After the handler: a reaction command by an eligible combatant counts as its response, windows
 * every response answered close, the map is checked, and the version moves on.
 */
function afterHandler<RS>(
  ruleset: Ruleset<RS>,
  spec: CommandSpec,
  state: EncounterState<RS>,
  cmd: Command,
  ctx: Ctx<RS>,
  draft: EncounterState<RS>,
): void {
  const window = state.reaction;
  const w = draft.reaction;
  if (w && window && w.id === window.id && spec.reaction && cmd.type !== 'reaction.pass') {
    const who = cmd.combatantId as string;
    if (w.responses[who] === 'pending') ctx.emit({ type: 'reaction.responded', combatantId: who, response: 'reacted' });
  }
  closeWindowIfDone(ruleset, ctx);
  checkMapAfter(ruleset, state, ctx, cmd);
  if (state.dice) afterDiceCommand(ctx, state);
  draft.version += 1;
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
export function rebuild<RS>(
  ruleset: Ruleset<RS>,
  initial: EncounterState<RS>,
  batches: readonly (readonly EngineEvent[])[],
): EncounterState<RS> {
  let state = initial;
  for (const batch of batches) {
    if (ruleset.cow) {
      // the events may be objects that earlier states hold (the ones apply returned): never adopt them
      const work = new Work(state, false, ruleset.copyRs, ruleset.sameRs);
      for (const e of batch) evolve(ruleset, work.root, e, work);
      work.root.version += 1;
      state = work.finish();
      continue;
    }
    state = create(state, (draft: EncounterState<RS>) => {
      for (const e of batch) evolve(ruleset, draft, e);
      draft.version += 1;
    });
  }
  return state;
}

/** What a combatant may do right now (for clients to show only legal choices). */
export function legalActions<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, combatantId: string): ActionOption[] {
  if (!state.combatants[combatantId] || state.status !== 'active') return [];
  const options = ruleset.legalActions(state, combatantId);
  const w = state.reaction;
  if (w && w.responses[combatantId] === 'pending') {
    options.push({
      command: 'reaction.pass',
      label: 'Pass (do not react)',
      kind: 'reaction',
      allowed: true,
      template: { combatantId },
      rule: 'engine.reactions',
    });
  }
  return options;
}
