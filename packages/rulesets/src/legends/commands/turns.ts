import { z } from 'zod';
import { commandSchema, idSchema, refuse, ensure } from '@fray/engine';
import { type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command } from './kit.js';
import { checkReorder } from '../checks/index.js';
import { endTurn } from '../flow/rounds.js';
import { moveInOrder, nextDecision } from '../flow/order.js';

/** Changing places in the turn order: the initial decisions, and forfeiting a turn. */

const changeTurnOrder = command({
  actor: 'combatant',
  schema: commandSchema('changeTurnOrder', { combatantId: idSchema, index: z.number().int().min(0).max(500).optional() }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const id = cmd.combatantId as string;
    const phase = s.clock.phase;
    if (phase !== 'turn-order' && phase !== 'reorder') {
      refuse({
        code: 'WRONG_PHASE',
        rule: 'legends.turn-order.change',
        message: '"After the initial decisions about turn order, a character can only change their position in the list by completely forfeiting one turn in the action phase."',
 });
 }
    if (s.rs.queue[0] !== id) {
      refuse({
        code: 'NOT_YOUR_TURN',
        rule: phase === 'turn-order' ? 'legends.turn-order.initial' : 'legends.turn-order.change',
        message:
          phase === 'turn-order'
            ? '"This decision begins with the second-to-last character ... and proceeds up the list"'
            : '"those who were previously earlier in turn order decide last"',
 });
 }
    if (cmd.index !== undefined) {
      const e = checkReorder(s, id, cmd.index as number, phase === 'turn-order');
      ensure(e);
      moveInOrder(ctx, id, cmd.index as number);
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
    const c = s.combatants[cmd.combatantId as string]!;
    if (s.clock.phase !== 'action' || s.clock.current !== c.id) refuse({ code: 'NOT_YOUR_TURN', rule: 'legends.turns', message: `It is not ${c.name}'s turn.` });
    // "No character may change their turn order in this way during the first round of combat."
    if (s.clock.round === 1) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.turn-order.change', message: '"No character may change their turn order in this way during the first round of combat."' });
    if (c.data.turn.seq.length > 0) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.turn-order.change', message: 'Changing turn order means "completely forfeiting one turn": no actions may be taken in it.' });
    emit(ctx, { type: 'legends.forfeited', combatantId: c.id, round: s.clock.round });
    endTurn(ctx, c.id, 'forfeited to change turn order');
 },
});

export const turnCommands = { changeTurnOrder, forfeitTurn };
