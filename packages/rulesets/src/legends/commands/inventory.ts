import { ensure, type Item } from '@fray/engine';
import { checkRemoveHindrance } from '../checks/defense.js';
import { emit } from '../events/index.js';
import type { ActInput, InventoryOp } from '../catalogue.js';
import { checkCarry, checkDrawOrStow, checkPickup, checkTakeOffer, ownRecentDrop } from '../checks/inventory.js';
import { statRoll } from '../mechanics/dice.js';
import { outnumberedDice } from '../mechanics/defense.js';
import { droppedOf, findItem, freeHandSlot, type ActionKind, type LCombatant, type LCtx } from '../state/index.js';
import { applyBreakout } from './consequences.js';

/** The inventory options (draw, stow, pickup, take, accept), carrying a character, picking up a dropped item. */

/** the hand an item goes into: the one named, or a free one (the checks made sure there is) */
function handFor(c: LCombatant, hand: ActInput['hand']): Item['location'] {
  return hand ?? freeHandSlot(c)!;
}

export function inventoryOp(ctx: LCtx, id: string, op: InventoryOp, kind: ActionKind): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  switch (op.op) {
    case 'draw':
    case 'stow': {
      ensure(checkDrawOrStow(c, op));
      const location = op.op === 'draw' ? handFor(c, op.hand) : 'carried';
      emit(ctx, { type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: op.itemId, location });
      return;
    }
    case 'pickup':
      if (op.carryId) return startCarrying(ctx, id, op.carryId);
      pickUpItem(ctx, id, op, kind, false);
      return;
    case 'take':
    case 'accept': {
      ensure(checkTakeOffer(s, c, op));
      const offer = s.rs.offers.find((o) => o.id === op.offerId)!;
      const location = op.op === 'accept' || offer.kind === 'into' ? 'carried' : handFor(c, op.hand);
      emit(ctx, { type: 'legends.itemMoved', combatantId: id, fromId: offer.from, toId: id, itemId: offer.itemId, location });
      emit(ctx, { type: 'legends.offerClosed', offerId: offer.id });
      return;
    }
  }
}

function startCarrying(ctx: LCtx, id: string, targetId: string): void {
  ensure(checkCarry(ctx.state, ctx.state.combatants[id]!, targetId));
  emit(ctx, { type: 'legends.carried', combatantId: id, targetId });
}

export function pickUpItem(ctx: LCtx, id: string, op: Extract<InventoryOp, { op: 'pickup' }>, kind: ActionKind, retry: boolean): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  ensure(checkPickup(s, c, op));
  const found = findItem(s, op.itemId!)!;
  const drop = droppedOf(found.item)!;
  const h = handFor(c, op.hand);
  if (!ownRecentDrop(c, drop) && drop.engagement) {
    const stat = op.stat ?? 'DEX';
    // "requires a d12 roll on either DEX or SPD (your choice); outnumbering dice apply to this roll"
    ensure(checkRemoveHindrance(s, c, 0, op.breakout));
    const od = outnumberedDice(s, c, 0, op.breakout);
    applyBreakout(ctx, id, op.breakout, 'action');
    const r = statRoll(ctx, {
      combatantId: id,
      stat,
      hindrance: od.hindrance,
      easing: od.easing,
      purpose: `pick up ${found.item.name} in an engagement (d12 on ${stat})${retry ? ', retry' : ''}`,
    });
    emit(ctx, { type: 'legends.pickupRolled', combatantId: id, itemId: found.item.id, success: r.success, margin: r.margin });
    if (!r.success) {
      if (kind === 'minor') emit(ctx, { type: 'legends.pickupFailed', combatantId: id, itemId: found.item.id });
      return;
    }
  }
  emit(ctx, { type: 'legends.itemMoved', combatantId: id, fromId: found.owner.id, toId: id, itemId: found.item.id, location: h });
}
