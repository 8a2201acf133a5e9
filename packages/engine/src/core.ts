import { z } from 'zod';
import { commandSchema, effectApplySchema, idSchema, itemSchema, newCombatantSchema } from './schemas.js';
import { vitalSpecs, type VitalSpec } from './display.js';
import { statsErrorMessage } from './stats-error.js';
import { commandKit } from './kit.js';
import type { Combatant, CommandSpec, Ctx, Effect, Ruleset } from './types.js';

/** The core's commands: each handler gets its schema's output (the core's state and options are untyped). */
const command = commandKit<unknown, Record<string, unknown>>();
const gmTool = { actor: 'gm' as const, duringReaction: true, inSetup: true };

function validStats(ruleset: Ruleset, ctx: Ctx, stats: unknown): Record<string, unknown> {
  const parsed = ruleset.statsSchema.safeParse(stats);
  if (!parsed.success) {
    ctx.fail('INVALID_STATS', `${ruleset.id}.stats`, statsErrorMessage(ruleset.id, ruleset.statsSchema, parsed.error, stats));
  }
  return parsed.data;
}

function validPosition(ruleset: Ruleset, ctx: Ctx, position: unknown): unknown {
  const parsed = ruleset.positionSchema.safeParse(position);
  if (!parsed.success) ctx.fail('INVALID_COMMAND', `${ruleset.id}.position`, z.prettifyError(parsed.error));
  return parsed.data;
}

/**
 * The commands every ruleset gets: setup, GM edits, effects, dice, reactions, turn end.
 * The ruleset supplies the parts that differ (stats schema, start of combat, end of turn).
 */
export function coreCommands(ruleset: Ruleset): Record<string, CommandSpec> {
  return {
    ...combatantSetup(ruleset),
    ...combatantEdits(ruleset),
    ...effectsAndTurns(ruleset),
    ...diceCommands(ruleset),
    ...reactionCommands(),
  };
}

/** Adding, removing and updating combatants. */
function combatantSetup(ruleset: Ruleset): Record<string, CommandSpec> {
  return {
    'combatant.add': command({
      ...gmTool,
      schema: commandSchema('combatant.add', { combatant: newCombatantSchema }),
      handle(ctx, cmd) {
        const c = cmd.combatant;
        const id = c.id ?? ctx.newId('c');
        if (ctx.state.combatants[id]) ctx.fail('INVALID_COMMAND', 'engine.combatants', `Combatant id "${id}" is taken.`);
        if (Object.keys(ctx.state.combatants).length >= 200) ctx.fail('INVALID_COMMAND', 'engine.combatants', 'At most 200 combatants.');
        const stats = validStats(ruleset, ctx, c.stats);
        const combatant: Combatant = {
          id,
          name: c.name,
          side: c.side,
          controller: c.controller,
          hidden: c.hidden,
          secretStats: c.secretStats,
          stats,
          position: c.position === undefined ? null : validPosition(ruleset, ctx, c.position),
          items: c.items,
          data: ruleset.initCombatant(stats, ctx.options),
        };
        ctx.emit({ type: 'combatant.added', combatantId: id, combatant, gmOnly: c.hidden || undefined });
        ruleset.onCombatantAdded?.(ctx, id);
      },
    }),
    'combatant.remove': command({
      ...gmTool,
      schema: commandSchema('combatant.remove', { combatantId: idSchema }),
      handle(ctx, cmd) {
        const combatant = requireCombatant(ctx, cmd.combatantId);
        ctx.emit({ type: 'combatant.removed', combatantId: combatant.id });
        ruleset.onCombatantRemoved?.(ctx, combatant);
      },
    }),
    'combatant.update': command({
      ...gmTool,
      schema: commandSchema('combatant.update', {
        combatantId: idSchema,
        changes: z
          .object({
            name: z.string().min(1).max(120).optional(),
            side: z.string().min(1).max(64).optional(),
            controller: z.string().min(1).max(128).nullable().optional(),
            hidden: z.boolean().optional(),
            secretStats: z.array(z.string().max(64)).max(64).optional(),
            stats: z.record(z.string(), z.unknown()).optional(),
            items: z.array(itemSchema).max(100).optional(),
          })
          .strict(),
      }),
      handle(ctx, cmd) {
        const combatant = requireCombatant(ctx, cmd.combatantId);
        const changes = { ...cmd.changes };
        if (changes.stats) changes.stats = validStats(ruleset, ctx, { ...combatant.stats, ...changes.stats });
        ctx.emit({ type: 'combatant.updated', combatantId: combatant.id, changes });
      },
    }),
  };
}

/** The GM's edits of a combatant in play: a stat, a vital, a place. */
function combatantEdits(ruleset: Ruleset): Record<string, CommandSpec> {
  return {
    'combatant.setStat': command({
      ...gmTool,
      schema: commandSchema('combatant.setStat', { combatantId: idSchema, stat: z.string().min(1).max(64), value: z.unknown() }),
      handle(ctx, cmd) {
        const combatant = requireCombatant(ctx, cmd.combatantId);
        const stats = validStats(ruleset, ctx, { ...combatant.stats, [cmd.stat]: cmd.value });
        ctx.emit({ type: 'combatant.updated', combatantId: combatant.id, changes: { stats } });
      },
    }),
    'combatant.adjust': command({
      ...gmTool,
      schema: commandSchema('combatant.adjust', {
        combatantId: idSchema,
        vital: z.string().min(1).max(64),
        amount: z
          .number()
          .int()
          .min(-100000)
          .max(100000)
          .refine((n) => n !== 0, 'amount must not be 0'),
        reason: z.string().max(200).optional(),
      }),
      handle(ctx, cmd) {
        const combatant = requireCombatant(ctx, cmd.combatantId);
        const { vital, known } = adjustable(ruleset, ctx.state.options, cmd.vital);
        if (!vital || !ruleset.adjustVital) {
          return ctx.fail(
            'INVALID_COMMAND',
            `${ruleset.id}.vitals`,
            `"${String(cmd.vital)}" is not a vital the GM adjusts in ${ruleset.name}${known.length ? ` (use ${known.join(', ')})` : ''}.`,
          );
        }
        ruleset.adjustVital(ctx, combatant.id, vital.key, cmd.amount);
      },
    }),
    'combatant.place': command({
      ...gmTool,
      schema: commandSchema('combatant.place', { combatantId: idSchema, position: z.unknown() }),
      handle(ctx, cmd) {
        const combatant = requireCombatant(ctx, cmd.combatantId);
        ctx.emit({ type: 'combatant.placed', combatantId: combatant.id, position: validPosition(ruleset, ctx, cmd.position) });
      },
    }),
  };
}

/** Effects, the start and end of combat, the end of a turn. */
function effectsAndTurns(ruleset: Ruleset): Record<string, CommandSpec> {
  return {
    'effect.apply': command({
      ...gmTool,
      schema: effectApplySchema,
      handle(ctx, cmd) {
        if (cmd.targetId) requireCombatant(ctx, cmd.targetId);
        const effect = makeEffect(ctx, ruleset, {
          name: cmd.name,
          condition: cmd.condition,
          targetId: cmd.targetId ?? null,
          sourceId: cmd.sourceId ?? null,
          duration: cmd.duration ?? null,
          gmOnly: cmd.gmOnly,
          data: cmd.data,
        });
        ctx.emit({ type: 'effect.applied', effect, gmOnly: effect.gmOnly || undefined });
      },
    }),
    'effect.remove': command({
      ...gmTool,
      schema: commandSchema('effect.remove', { effectId: idSchema }),
      handle(ctx, cmd) {
        const effect = ctx.state.effects.find((e) => e.id === cmd.effectId);
        if (!effect) return ctx.fail('INVALID_COMMAND', 'engine.effects', `No effect "${String(cmd.effectId)}".`);
        ctx.emit({ type: 'effect.removed', effectId: effect.id, reason: 'gm', gmOnly: effect.gmOnly || undefined });
      },
    }),
    'combat.start': command({
      actor: 'gm',
      inSetup: true,
      schema: commandSchema('combat.start', {}),
      handle(ctx) {
        if (ctx.state.status !== 'setup') ctx.fail('COMBAT_ALREADY_STARTED', 'engine.combat', 'Combat has already started.');
        if (Object.keys(ctx.state.combatants).length === 0)
          ctx.fail('INVALID_COMMAND', 'engine.combat', 'Add combatants before starting combat.');
        ctx.emit({ type: 'combat.started' });
        ruleset.startCombat(ctx);
      },
    }),
    'combat.end': command({
      actor: 'gm',
      inSetup: true,
      duringReaction: true,
      schema: commandSchema('combat.end', { reason: z.string().max(200).optional() }),
      handle(ctx, cmd) {
        if (ctx.state.reaction) ctx.emit({ type: 'reaction.closed', windowId: ctx.state.reaction.id, outcome: 'combat-ended' });
        ctx.emit({ type: 'combat.ended', reason: cmd.reason ?? null });
      },
    }),
    'turn.end': command({
      actor: 'combatant',
      schema: commandSchema('turn.end', { combatantId: idSchema }),
      handle(ctx, cmd) {
        ruleset.endTurn(ctx, cmd.combatantId);
      },
    }),
  };
}

/** Rolls, the GM secret-roll switch, forced and overridden rolls. */
function diceCommands(ruleset: Ruleset): Record<string, CommandSpec> {
  return {
    'dice.roll': command({
      actor: 'any',
      inSetup: true,
      duringReaction: true,
      schema: commandSchema('dice.roll', {
        formula: z.string().min(1).max(64),
        purpose: z.string().min(1).max(200),
        combatantId: idSchema.optional(),
        secret: z.boolean().optional(),
      }),
      handle(ctx, cmd) {
        if (cmd.combatantId) {
          const c = requireCombatant(ctx, cmd.combatantId);
          if (cmd.by.role === 'player' && c.controller !== cmd.by.playerId) {
            ctx.fail('NOT_AUTHORIZED', 'engine.roles', 'You may only roll for your own combatants.');
          }
        }
        if (cmd.secret && cmd.by.role === 'player') ctx.fail('NOT_AUTHORIZED', 'engine.roles', 'Only the GM rolls in secret.');
        ctx.roll(cmd.formula, cmd.purpose, {
          combatantId: cmd.combatantId ?? null,
          gmOnly: Boolean(cmd.secret),
        });
      },
    }),
    'encounter.gmRolls': command({
      ...gmTool,
      afterEnd: true,
      // "GM rolls default to secret (a per-encounter option)": the GM's consoles read it to default their secret toggle
      schema: commandSchema('encounter.gmRolls', { secret: z.boolean() }),
      handle(ctx, cmd) {
        ctx.emit({ type: 'encounter.gmRollsChanged', secret: cmd.secret, gmOnly: true });
      },
    }),
    'dice.force': command({
      ...gmTool,
      schema: commandSchema('dice.force', {
        formula: z.string().min(1).max(64).optional(),
        faces: z.array(z.number().int().min(1).max(1000)).min(1).max(100).optional(),
        total: z.number().int().optional(),
      }).refine((c) => c.faces !== undefined || c.total !== undefined, 'Give faces or a total.'),
      handle(ctx, cmd) {
        ctx.emit({
          type: 'dice.forced',
          gmOnly: true,
          forced: { formula: cmd.formula, faces: cmd.faces, total: cmd.total },
        });
      },
    }),
    'dice.override': command({
      ...gmTool,
      schema: commandSchema('dice.override', { rollId: idSchema, total: z.number().int(), reason: z.string().max(200).optional() }),
      handle(ctx, cmd) {
        const roll = ctx.state.rolls.find((r) => r.id === cmd.rollId);
        if (!roll) return ctx.fail('INVALID_COMMAND', 'engine.dice', `Roll "${String(cmd.rollId)}" is not among the recent rolls.`);
        const previous = roll.total;
        ctx.emit({
          type: 'dice.overridden',
          rollId: roll.id,
          previousTotal: previous,
          total: cmd.total,
          reason: cmd.reason ?? null,
          gmOnly: roll.gmOnly || undefined,
        });
        const updated = ctx.state.rolls.find((r) => r.id === cmd.rollId)!;
        ruleset.onRollOverridden?.(ctx, updated, previous);
      },
    }),
  };
}

/** Passing in a reaction window and the GM closing it. */
function reactionCommands(): Record<string, CommandSpec> {
  return {
    'reaction.pass': command({
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('reaction.pass', { combatantId: idSchema }),
      handle(ctx, cmd) {
        ctx.emit({ type: 'reaction.responded', combatantId: cmd.combatantId, response: 'passed' });
      },
    }),
    'reaction.resolve': command({
      ...gmTool,
      inSetup: false,
      schema: commandSchema('reaction.resolve', {}),
      handle(ctx) {
        const w = ctx.state.reaction;
        if (!w) return ctx.fail('NO_REACTION_PENDING', 'engine.reactions', 'No reaction window is open.');
        for (const id of w.eligible) {
          if (w.responses[id] === 'pending') ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'passed', by: 'gm' });
        }
      },
    }),
  };
}

export function requireCombatant(ctx: Ctx, id: string): Combatant {
  const c = ctx.state.combatants[id];
  if (!c) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${id}".`);
  return c;
}

export function makeEffect(
  ctx: Ctx,
  /** only its `effectExpiry` is read */
  ruleset: Pick<Ruleset, 'effectExpiry'>,
  init: Pick<Effect, 'name' | 'targetId' | 'sourceId' | 'duration'> & Partial<Pick<Effect, 'condition' | 'gmOnly' | 'data'>>,
): Effect {
  const s = ctx.state;
  const effect: Effect = {
    id: ctx.newId('e'),
    name: init.name,
    targetId: init.targetId,
    sourceId: init.sourceId,
    duration: init.duration,
    expires: null,
    startedAt: { round: s.clock.round, phase: s.clock.phase, current: s.clock.current },
  };
  if (init.condition !== undefined) effect.condition = init.condition;
  if (init.gmOnly) effect.gmOnly = true;
  if (init.data !== undefined) effect.data = init.data;
  if (effect.duration && ruleset.effectExpiry) effect.expires = ruleset.effectExpiry(s, effect) ?? null;
  return effect;
}

/** The adjustable vital named `key` in an encounter with these options (its named vitals too), and the keys of all of them. */
function adjustable(ruleset: Ruleset, options: unknown, key: unknown): { vital: VitalSpec | undefined; known: string[] } {
  const vitals = vitalSpecs(ruleset.display, options).filter((v) => v.adjustable);
  return { vital: vitals.find((v) => v.key === key), known: vitals.map((v) => v.key) };
}
