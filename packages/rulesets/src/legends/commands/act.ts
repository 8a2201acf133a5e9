import { commandSchema, ensure, idSchema } from '@fray/engine';
import { checkOfferInHand } from '../checks/inventory.js';
import { type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command } from './kit.js';
import { actFields } from '../catalogue.js';
import { performAct } from './doing.js';

/** The action phase: an action (free, minor or major) and offering an item in hand. */

const act = command({
  actor: 'combatant',
  schema: commandSchema('act', actFields),
  handle(ctx: LCtx, cmd) {
    performAct(ctx, cmd);
  },
});

const offerItem = command({
  actor: 'combatant',
  schema: commandSchema('offerItem', { combatantId: idSchema, itemId: idSchema, toId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const c = s.combatants[cmd.combatantId]!;
    ensure(checkOfferInHand(s, c, cmd.toId, cmd.itemId));
    emit(ctx, {
      type: 'legends.offered',
      combatantId: c.id,
      offer: { id: ctx.newId('o'), from: c.id, to: cmd.toId, itemId: cmd.itemId, kind: 'hand' },
    });
  },
});

export const actCommands = { act, offerItem };
