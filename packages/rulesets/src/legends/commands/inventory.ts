import { refuse, ruleError, type EngineError, type Item } from '@fray/engine';
import type { ActInput, InventoryOp } from '../catalogue.js';
import { handCheck } from '../checks/index.js';
import { statRoll } from '../mechanics/dice.js';
import { guardOf, outnumberedDice } from '../mechanics/defense.js';
import { rangeBetween } from '../mechanics/space.js';
import { droppedOf, findItem, freeHandSlot, groupedUp, inHand, isDown, isEnemy, posOf, type ActionKind, type LCombatant, type LCtx } from '../state/index.js';
import { applyBreakout } from './consequences.js';

/** The inventory options (draw, stow, pickup, take, accept), carrying a character, picking up a dropped item. */

export function takeHand(c: LCombatant, hand: ActInput['hand']): EngineError | Item['location'] {
  const e = handCheck(c, hand);
  if (e) return e;
  return hand ?? freeHandSlot(c)!;
}

export function inventoryOp(ctx: LCtx, id: string, op: InventoryOp, kind: ActionKind): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  switch (op.op) {
    case 'draw': {
      const it = c.items.find((i) => i.id === op.itemId);
      if (!it || it.location !== 'carried') return refuse(ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} carries no item "${op.itemId}".`));
      const h = takeHand(c, op.hand);
      if (typeof h === 'object') return refuse(ruleError(h.code, h.rule, h.message));
      ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: h });
      return;
 }
    case 'stow': {
      const it = c.items.find((i) => i.id === op.itemId);
      if (!it || !inHand(it)) return refuse(ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds no item "${op.itemId}".`));
      ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: 'carried' });
      return;
 }
    case 'pickup':
      if (op.carryId) return startCarrying(ctx, id, op.carryId);
      pickUpItem(ctx, id, op, kind, false);
      return;
    case 'take':
    case 'accept': {
      const offer = s.rs.offers.find((o) => o.id === op.offerId);
      if (!offer || offer.to !== id) return refuse(ruleError('ILLEGAL_ACTION', 'legends.giving', `No offer "${op.offerId}" to ${c.name}.`));
      const giver = s.combatants[offer.from];
      const it = giver?.items.find((i) => i.id === offer.itemId);
      if (!giver || !it) return refuse(ruleError('ILLEGAL_ACTION', 'legends.giving', 'The offered item is gone.'));
      if (!groupedUp(c, giver)) return refuse(ruleError('ILLEGAL_ACTION', 'legends.giving', '"You must be grouped-up with the other character."'));
      if (offer.kind === 'hand' && !inHand(it)) return refuse(ruleError('ILLEGAL_ACTION', 'legends.giving', '"so long as the item is in your hand when the other character takes it"'));
      if (op.op === 'accept' || offer.kind === 'into') {
        ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: giver.id, toId: id, itemId: it.id, location: 'carried' });
 } else {
        const h = takeHand(c, op.hand);
        if (typeof h === 'object') return refuse(ruleError(h.code, h.rule, h.message));
        ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: giver.id, toId: id, itemId: it.id, location: h });
 }
      ctx.emit({ type: 'legends.offerClosed', offerId: offer.id });
      return;
 }
 }
}

export function startCarrying(ctx: LCtx, id: string, targetId: string): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const t = s.combatants[targetId];
  if (!t || t.id === id) return refuse(ruleError('UNKNOWN_TARGET', 'legends.carrying', `No one "${targetId}" to carry.`));
  const willing = !isEnemy(c, t) && t.stats.willingToBeCarried;
  if (!willing && !isDown(s, t.id)) return refuse(ruleError('ILLEGAL_ACTION', 'legends.carrying', '"Willing characters can be carried by sufficiently large and strong allies"'));
  if (t.data.carriedBy) return refuse(ruleError('ILLEGAL_ACTION', 'legends.carrying', `${t.name} is already carried.`));
  if (c.data.carriedBy) return refuse(ruleError('ILLEGAL_ACTION', 'legends.carrying', `${c.name} is being carried.`));
  if (rangeBetween(s, c, t) !== 'short') return refuse(ruleError('ILLEGAL_ACTION', 'legends.carrying', `${t.name} is out of reach.`));
  if (!freeHandSlot(c)) return refuse(ruleError('ILLEGAL_ACTION', 'legends.free-hands', '"you must have a free hand in order to grab an item"'));
  ctx.emit({ type: 'legends.carried', combatantId: id, targetId: t.id });
}

export function pickUpItem(ctx: LCtx, id: string, op: Extract<InventoryOp, { op: 'pickup' }>, kind: ActionKind, retry: boolean): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const found = op.itemId ? findItem(s, op.itemId) : null;
  const drop = found ? droppedOf(found.item) : null;
  if (!found || !drop) return refuse(ruleError('ILLEGAL_ACTION', 'legends.dropped-items', `No dropped item "${op.itemId}".`));
  const p = posOf(c);
  if (drop.zone !== p.zone || (drop.engagement ? p.engagement !== drop.engagement : drop.area !== p.area && drop.group !== p.group)) {
    return refuse(ruleError('ILLEGAL_ACTION', 'legends.dropped-items', `${found.item.name} is out of reach.`));
 }
  const h = takeHand(c, op.hand);
  if (typeof h === 'object') return refuse(ruleError(h.code, h.rule, h.message));
  const dropper = s.combatants[drop.by];
  // "you can pick up any item that you dropped on your immediately previous turn, if you have not attempted a movement roll since then"
  const own = drop.by === id && c.data.turn.n - drop.turnN <= 1 && c.data.moveRollRound <= drop.round && !drop.fallen;
  if (!own && dropper && drop.by !== id && isEnemy(c, dropper) && drop.engagement) {
    // "provided they dropped it before their immediately previous turn, or if they made a movement roll since dropping it"
    if (dropper.data.turn.n - drop.turnN < 1 && dropper.data.moveRollRound <= drop.round) {
      return refuse(ruleError('ILLEGAL_ACTION', 'legends.dropped-items', `${dropper.name} dropped it on their immediately previous turn: it is still within their reach.`));
 }
 }
  // defended by an enemy group? ("if your body is defended via group defense, these items are included in that defense")
  const guard = c.data.turn.bypassed ? null : guardOf(s, c, found.item.id, drop);
  if (guard?.body) return refuse(ruleError('ILLEGAL_ACTION', 'legends.group-defense.body-items', `${found.item.name} fell with ${dropper?.name ?? drop.by}, whose body ${guard.group} defends: "these items are included in that defense without additional difficulty". Bypass it first.`));
  if (guard) return refuse(ruleError('ILLEGAL_ACTION', 'legends.group-defense', `${found.item.name} is guarded by group defense: bypass it first.`));
  if (!own && drop.engagement) {
    const stat = op.stat ?? 'DEX';
    if (stat === 'SPD' && c.data.carriedBy) return refuse(ruleError('ILLEGAL_ACTION', 'legends.carrying', '"You may not ... make any SPD rolls while being carried"'));
    // "requires a d12 roll on either DEX or SPD (your choice); outnumbering dice apply to this roll"
    const od = outnumberedDice(ctx, c, 0, op.breakout);
    applyBreakout(ctx, id, op.breakout, 'action');
    const r = statRoll(ctx, { combatantId: id, stat, hindrance: od.hindrance, easing: od.easing, purpose: `pick up ${found.item.name} in an engagement (d12 on ${stat})${retry ? ', retry' : ''}` });
    ctx.emit({ type: 'legends.pickupRolled', combatantId: id, itemId: found.item.id, success: r.success, margin: r.margin });
    if (!r.success) {
      if (kind === 'minor') ctx.emit({ type: 'legends.pickupFailed', combatantId: id, itemId: found.item.id });
      return;
 }
 }
  ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: found.owner.id, toId: id, itemId: found.item.id, location: h });
}
