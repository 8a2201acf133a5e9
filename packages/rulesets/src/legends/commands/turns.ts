import { z } from 'zod';
import { commandSchema, idSchema, ensure } from '@fray/engine';
import { type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command } from './kit.js';
import { checkReorder } from '../checks/index.js';
import { checkForfeit, checkTurnOrderDecision } from '../checks/turns.js';
import { endTurn } from '../flow/rounds.js';
import { moveInOrder, nextDecision } from '../flow/order.js';

/** Changing places in the turn order: the initial decisions, and forfeiting a turn. */

const changeTurnOrder = command({
  actor: 'combatant',
  schema: commandSchema('changeTurnOrder', { combatantId: idSchema, index: z.number().int().min(0).max(500).optional() }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const id = cmd.combatantId;
    const phase = s.clock.phase;
    ensure(checkTurnOrderDecision(s, id));
    if (cmd.index !== undefined) {
      const e = checkReorder(s, id, cmd.index, phase === 'turn-order');
      ensure(e);
      moveInOrder(ctx, id, cmd.index);
    } else {
      emit(ctx, { type: 'legends.turnOrderKept', combatantId: id });
    }
    nextDecision(ctx);
  },
});

const forfeitTurn = command({
  actor: 'combatant',
  schema: commandSchema('forfeitTurn', { combatantId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const c = s.combatants[cmd.combatantId]!;
    ensure(checkForfeit(s, c));
    emit(ctx, { type: 'legends.forfeited', combatantId: c.id, round: s.clock.round });
    endTurn(ctx, c.id, 'forfeited to change turn order');
  },
});

export const turnCommands = { changeTurnOrder, forfeitTurn };
