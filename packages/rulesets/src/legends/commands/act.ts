import { commandSchema, idSchema, refuse } from '@fray/engine';
import { inHand, posOf, type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command } from './kit.js';
import { actFields, type ActInput } from '../catalogue.js';
import { performAct } from './doing.js';

/** The action phase: an action (free, minor or major) and offering an item in hand. */

const act = command({
  actor: 'combatant',
  schema: commandSchema('act', actFields),
  handle(ctx: LCtx, cmd) {
    performAct(ctx, cmd as unknown as ActInput);
 },
});

const offerItem = command({
  actor: 'combatant',
  schema: commandSchema('offerItem', { combatantId: idSchema, itemId: idSchema, toId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const c = s.combatants[cmd.combatantId as string]!;
    const to = s.combatants[cmd.toId as string];
    if (s.clock.phase !== 'action') refuse({ code: 'WRONG_PHASE', rule: 'legends.giving', message: 'Items change hands in the action phase.' });
    if (!to || to.id === c.id) return refuse({ code: 'UNKNOWN_TARGET', rule: 'legends.giving', message: `No one "${String(cmd.toId)}" to give to.` });
    const it = c.items.find((i) => i.id === cmd.itemId);
    // "Offering the item does not require an action on your part, so long as the item is in your hand when the other character takes it."
    if (!it || !inHand(it)) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.giving', message: `${c.name} holds no "${String(cmd.itemId)}" (offer items from inventory with act offer-from-inventory).` });
    const pc = posOf(c);
    if (!pc.group || pc.group !== posOf(to).group) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.giving', message: '"You must be grouped-up with the other character."' });
    emit(ctx, { type: 'legends.offered', combatantId: c.id, offer: { id: ctx.newId('o'), from: c.id, to: to.id, itemId: it!.id, kind: 'hand' } });
 },
});

export const actCommands = { act, offerItem };
