import { commandSchema, ensure, idSchema } from '@fray/engine';
import { checkActNow, checkDelay } from '../checks.js';
import { emit } from '../events.js';
import { advance } from '../flow.js';
import { command } from './kit.js';

/** "On its turn a combatant may delay: its turn ends and it holds." */
export const delay = command({
  schema: commandSchema('delay', { combatantId: idSchema }),
  actor: 'combatant',
  handle(ctx, cmd) {
    ensure(checkDelay(ctx.state, cmd.combatantId));
    emit(ctx, { type: 'freeform.delayed', combatantId: cmd.combatantId });
    emit(ctx, { type: 'freeform.turn-ended', combatantId: cmd.combatantId });
    advance(ctx, cmd.combatantId);
  },
});

/**
 * "A holding combatant may act now: it moves to just after the current combatant and takes its
 * turn when that turn ends."
 */
export const actNow = command({
  schema: commandSchema('act-now', { combatantId: idSchema }),
  actor: 'combatant',
  handle(ctx, cmd) {
    ensure(checkActNow(ctx.state, cmd.combatantId));
    const current = ctx.state.clock.current;
    const order = ctx.state.clock.order.filter((x) => x !== cmd.combatantId);
    order.splice(current ? order.indexOf(current) + 1 : 0, 0, cmd.combatantId);
    emit(ctx, { type: 'freeform.resumed', combatantId: cmd.combatantId, afterId: current });
    ctx.emit({ type: 'clock.changed', order });
  },
});

export const turnCommands = { delay, 'act-now': actNow };
