import { commandKit, commandSchema, ensure, idSchema, refuse, ruleError } from '@fray/engine';
import { z } from 'zod';
import { AOO_WINDOW, READY_WINDOW, RULE, actionDef } from '../catalogue/index.js';
import { checkAoO, checkAoOAgainst, checkImmediate, checkReady } from '../checks/commands.js';
import { emit } from '../events/index.js';
import { PHASES } from '../mechanics/phases.js';
import { shapeOf, weaponOf } from '../mechanics/shape.js';
import { actParamsShape, optsOf, squareSchema, st, type ActParams, type QueuedReady, type RS } from '../state.js';
import type { Options } from '../options.js';
import { plain } from './resolve.js';
import { addEffect, attackRoll } from './rolls.js';

/** Reactions: attacks of opportunity, spending one, completing a readied action, immediate-action abilities. */

const command = commandKit<RS, Options>();

const noWindow = (what: string) => ruleError('NO_REACTION_PENDING', 'engine.reactions', `No ${what} is on offer.`);

/** "When a foe you threaten provokes an attack of opportunity, you can make a single melee attack against that foe." */
const attackOfOpportunity = command({
  actor: 'combatant',
  reaction: true,
  schema: commandSchema('attackOfOpportunity', { combatantId: idSchema, weaponId: idSchema.optional() }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const w = s.reaction;
    if (!w || w.kind !== AOO_WINDOW) return refuse(noWindow('attack of opportunity'));
    const c = s.combatants[cmd.combatantId]!;
    const t = w.trigger.combatantId ? s.combatants[w.trigger.combatantId] : undefined;
    if (!t) return refuse(ruleError('UNKNOWN_TARGET', RULE.attackOfOpportunity, 'The provoking creature is gone.'));
    ensure(checkAoOAgainst(s, c, t));
    const weapon = weaponOf(c, cmd.weaponId);
    if (weapon && weapon.kind !== 'melee')
      refuse(ruleError('ILLEGAL_ACTION', RULE.attackOfOpportunity, 'An attack of opportunity is a melee attack.'));
    emit(ctx, { type: 'action-points.reaction-used', combatantId: c.id, kind: 'attack-of-opportunity', against: t.id });
    if (optsOf(s).resolveAttacks) attackRoll(ctx, c, t, weapon, 0, 'attack of opportunity');
  },
});

/** "If an ability you possess allows you to spend a use of an attack of opportunity to perform some other action ..., it is considered a reaction." */
const spendAoo = command({
  actor: 'combatant',
  reaction: true,
  schema: commandSchema('spendAoo', { combatantId: idSchema, text: z.string().min(1).max(200) }),
  handle(ctx, cmd) {
    const s = st(ctx);
    if (!s.reaction || s.reaction.kind !== AOO_WINDOW) return refuse(noWindow('attack of opportunity'));
    const c = s.combatants[cmd.combatantId]!;
    ensure(checkAoO(s, c));
    emit(ctx, { type: 'action-points.reaction-used', combatantId: c.id, kind: 'spend-aoo', text: cmd.text });
  },
});

/** "When you have readied an action or advanced action, when the trigger you designate occurs, you can take that action." */
const completeReady = command({
  actor: 'combatant',
  reaction: true,
  schema: commandSchema('completeReady', {
    combatantId: idSchema,
    targetId: idSchema.optional(),
    path: z.array(squareSchema).min(1).max(200).optional(),
  }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const c = s.combatants[cmd.combatantId]!;
    if (!s.reaction || s.reaction.kind !== READY_WINDOW) return refuse(noWindow('readied trigger'));
    ensure(checkReady(c));
    const ready = c.data.ready!;
    const def = actionDef(ready.action)!;
    const params: ActParams = { ...ready.params };
    if (cmd.targetId) params.targetId = cmd.targetId;
    if (!params.targetId && s.reaction.trigger.combatantId && def.tags.includes('target')) params.targetId = s.reaction.trigger.combatantId;
    if (cmd.path) params.path = cmd.path;
    const sh = shapeOf(s, c, def, params);
    const penalty = sh.subtypes.includes('attack') ? 0 - optsOf(s).attackPenaltyStep * c.data.attacksThisRound : 0;
    emit(ctx, { type: 'action-points.reaction-used', combatantId: c.id, kind: 'ready' });
    if (ready.cost > 0)
      emit(ctx, { type: 'action-points.ap-spent', combatantId: c.id, amount: ready.cost, action: ready.action, reaction: true });
    emit(ctx, {
      type: 'action-points.action-taken',
      combatantId: c.id,
      action: ready.action,
      actionType: sh.type,
      subtypes: sh.subtypes,
      phase: PHASES[s.rs.phaseIdx]!,
      penalty,
      reaction: true,
    });
    const queued: QueuedReady = plain({ actorId: c.id, action: ready.action, params, penalty });
    emit(ctx, { type: 'action-points.ready-triggered', combatantId: c.id, queued });
  },
});

/** "You can use an ability that can be used as an immediate action in the default action economy." */
const immediateAction = command({
  actor: 'combatant',
  reaction: true,
  schema: commandSchema('immediateAction', {
    combatantId: idSchema,
    text: z.string().min(1).max(200).optional(),
    effect: actParamsShape.effect,
  }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const c = s.combatants[cmd.combatantId]!;
    ensure(checkImmediate(s, c));
    emit(ctx, { type: 'action-points.reaction-used', combatantId: c.id, kind: 'immediate-action', text: cmd.text ?? null });
    const eff = cmd.effect;
    if (eff) {
      const spec: Parameters<typeof addEffect>[1] = {
        name: eff.name,
        targetId: eff.targetId ?? c.id,
        sourceId: c.id,
        duration: eff.rounds ? { unit: 'rounds', count: eff.rounds } : null,
      };
      if (eff.condition) spec.condition = eff.condition;
      if (eff.data) spec.data = eff.data;
      addEffect(ctx, spec);
    }
  },
});

export const reactionCommands = { attackOfOpportunity, spendAoo, completeReady, immediateAction };
