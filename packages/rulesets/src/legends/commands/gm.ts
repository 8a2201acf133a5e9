import { z } from 'zod';
import { commandSchema, effectApplySchema, ensure, idSchema, type Effect } from '@fray/engine';
import { checkGmDrop, checkRemoveAction } from '../checks/gm.js';
import { actionDefSchema, opts, posOf, type DroppedInfo, type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { combatant, command, gmTool } from './kit.js';
import { checkOverflow, endIfOneSideStands, fall, standingSides, wound } from './consequences.js';
import { newEffect } from '../flow/durations.js';
import { afterGroupDefense, beginActionPhase, beginRound, endMovementPhase, endTurn, startTurnAt } from '../flow/rounds.js';

/** The GM's tools during the fight: effects, dropped items, fatigue, actions of their own, the phases. */

const effect_apply = command({
  ...gmTool,
  schema: effectApplySchema,
  handle(ctx: LCtx, cmd) {
    const target = cmd.targetId ? combatant(ctx, cmd.targetId) : null;
    const effect: Effect = newEffect(ctx, {
      name: cmd.name,
      condition: cmd.condition,
      targetId: target?.id ?? null,
      sourceId: cmd.sourceId ?? null,
      duration: cmd.duration ?? null,
      gmOnly: cmd.gmOnly,
      data: cmd.data,
    });
    ctx.emit({ type: 'effect.applied', effect, gmOnly: effect.gmOnly || undefined });
    if (target && effect.condition && opts(ctx.state).dropItemsConditions.includes(effect.condition)) fall(ctx, target.id);
    checkOverflow(ctx);
  },
});

const dropItem = command({
  ...gmTool,
  inSetup: false,
  schema: commandSchema('dropItem', { combatantId: idSchema, itemId: idSchema, asPreviousTurn: z.boolean().default(true) }),
  handle(ctx: LCtx, cmd) {
    // "Items dropped due to Hand/Arm Injuries fall under the rules above, as if you had dropped them on your previous turn."
    const c = combatant(ctx, cmd.combatantId);
    ensure(checkGmDrop(c, cmd.itemId));
    const p = posOf(c);
    // the last turn it began counts as its "previous turn"; asPreviousTurn false: dropped now, in no turn of its own
    const turnN = cmd.asPreviousTurn ? c.data.turn.n : c.data.turn.n - 1;
    const dropped: DroppedInfo = {
      by: c.id,
      round: ctx.state.clock.round,
      turnN,
      zone: p.zone,
      area: p.area,
      engagement: p.engagement,
      group: p.group,
    };
    emit(ctx, { type: 'legends.itemMoved', combatantId: c.id, fromId: c.id, toId: c.id, itemId: cmd.itemId, location: 'ground', dropped });
  },
});

const setFatigue = command({
  ...gmTool,
  schema: commandSchema('setFatigue', { combatantId: idSchema, fatigue: z.number().int().min(0).max(1000) }),
  handle(ctx: LCtx, cmd) {
    const c = combatant(ctx, cmd.combatantId);
    emit(ctx, { type: 'legends.fatigueChanged', combatantId: c.id, fatigue: cmd.fatigue });
  },
});

const defineAction = command({
  ...gmTool,
  schema: commandSchema('defineAction', { action: actionDefSchema }),
  handle(ctx: LCtx, cmd) {
    emit(ctx, { type: 'legends.actionDefined', action: cmd.action });
  },
});

const removeAction = command({
  ...gmTool,
  schema: commandSchema('removeAction', { key: z.string().min(1).max(48) }),
  handle(ctx: LCtx, cmd) {
    ensure(checkRemoveAction(ctx.state, cmd.key));
    emit(ctx, { type: 'legends.actionRemoved', key: cmd.key });
  },
});

const advancePhase = command({
  actor: 'gm',
  schema: commandSchema('advancePhase', {}),
  handle(ctx: LCtx) {
    const s = ctx.state;
    switch (s.clock.phase) {
      case 'turn-order':
        emit(ctx, { type: 'legends.queue', queue: [] });
        beginRound(ctx, 1);
        return;
      case 'movement':
        for (const p of s.rs.pending) emit(ctx, { type: 'legends.moveFinished', combatantId: p.combatantId });
        emit(ctx, { type: 'legends.queue', queue: [] });
        endMovementPhase(ctx);
        return;
      case 'group-defense':
        emit(ctx, { type: 'legends.queue', queue: [] });
        afterGroupDefense(ctx);
        return;
      case 'reorder':
        emit(ctx, { type: 'legends.queue', queue: [] });
        beginActionPhase(ctx);
        return;
      default:
        if (s.clock.current) endTurn(ctx, s.clock.current, 'ended by the GM');
        else startTurnAt(ctx, 0);
    }
  },
});

export const gmCommands = { 'effect.apply': effect_apply, dropItem, setFatigue, defineAction, removeAction, advancePhase };

/**
 * The GM's damage or healing (`combatant.adjust`): on `fatigue`, harm adds fatigue and healing
 * removes it, never below 0; on `wounds`, the same path as a confirmed attack (taken out at the
 * toughness, back in when healed below it).
 */
export function adjustVital(ctx: LCtx, id: string, vital: string, amount: number): void {
  const c = ctx.state.combatants[id]!;
  if (vital === 'wounds') {
    const before = standingSides(ctx.state);
    wound(ctx, id, amount, amount > 0 ? 'the GM' : 'healed by the GM');
    return endIfOneSideStands(ctx, before);
  }
  emit(ctx, { type: 'legends.fatigueChanged', combatantId: id, fatigue: Math.max(0, c.data.fatigue + amount) });
}
