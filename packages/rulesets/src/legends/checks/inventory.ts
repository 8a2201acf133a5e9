import { ruleError, type EngineError } from '@fray/engine';
import { RULE, type InventoryOp } from '../catalogue.js';
import { guardOf } from '../mechanics/defense.js';
import { rangeBetween } from '../mechanics/space.js';
import {
  droppedOf,
  findItem,
  freeHandSlot,
  groupedUp,
  inHand,
  isDown,
  isEnemy,
  posOf,
  type DroppedInfo,
  type LCombatant,
  type LState,
} from '../state/index.js';
import { handCheck } from './specific.js';

/** Every "why not" of the inventory options (draw, stow, take, accept), carrying a character and picking up a dropped item. */

/** Draw an item one carries, into a free hand; stow one held. */
export function checkDrawOrStow(c: LCombatant, op: Extract<InventoryOp, { op: 'draw' | 'stow' }>): EngineError | null {
  const it = c.items.find((i) => i.id === op.itemId);
  if (op.op === 'stow')
    return it && inHand(it) ? null : ruleError('ILLEGAL_ACTION', RULE.inventory, `${c.name} holds no item "${op.itemId}".`);
  if (!it || it.location !== 'carried') return ruleError('ILLEGAL_ACTION', RULE.inventory, `${c.name} carries no item "${op.itemId}".`);
  return handCheck(c, op.hand);
}

/** Take or accept an item offered: "You must be grouped-up with the other character", the item still there (in hand if so offered). */
export function checkTakeOffer(s: LState, c: LCombatant, op: Extract<InventoryOp, { op: 'take' | 'accept' }>): EngineError | null {
  const offer = s.rs.offers.find((o) => o.id === op.offerId);
  if (!offer || offer.to !== c.id) return ruleError('ILLEGAL_ACTION', RULE.giving, `No offer "${op.offerId}" to ${c.name}.`);
  const giver = s.combatants[offer.from];
  const it = giver?.items.find((i) => i.id === offer.itemId);
  if (!giver || !it) return ruleError('ILLEGAL_ACTION', RULE.giving, 'The offered item is gone.');
  if (!groupedUp(c, giver)) return ruleError('ILLEGAL_ACTION', RULE.giving, '"You must be grouped-up with the other character."');
  if (offer.kind === 'hand' && !inHand(it)) {
    return ruleError('ILLEGAL_ACTION', RULE.giving, '"so long as the item is in your hand when the other character takes it"');
  }
  return op.op === 'accept' || offer.kind === 'into' ? null : handCheck(c, op.hand);
}

/** "Willing characters can be carried by sufficiently large and strong allies" (the fallen too), within reach, with a free hand. */
export function checkCarry(s: LState, c: LCombatant, targetId: string): EngineError | null {
  const t = s.combatants[targetId];
  if (!t || t.id === c.id) return ruleError('UNKNOWN_TARGET', RULE.carrying, `No one "${targetId}" to carry.`);
  const willing = !isEnemy(c, t) && t.stats.willingToBeCarried;
  if (!willing && !isDown(s, t.id)) {
    return ruleError('ILLEGAL_ACTION', RULE.carrying, '"Willing characters can be carried by sufficiently large and strong allies"');
  }
  if (t.data.carriedBy) return ruleError('ILLEGAL_ACTION', RULE.carrying, `${t.name} is already carried.`);
  if (c.data.carriedBy) return ruleError('ILLEGAL_ACTION', RULE.carrying, `${c.name} is being carried.`);
  if (rangeBetween(s, c, t) !== 'short') return ruleError('ILLEGAL_ACTION', RULE.carrying, `${t.name} is out of reach.`);
  return freeHandSlot(c) ? null : ruleError('ILLEGAL_ACTION', RULE.freeHands, '"you must have a free hand in order to grab an item"');
}

/** "you can pick up any item that you dropped on your immediately previous turn, if you have not attempted a movement roll since then" */
export function ownRecentDrop(c: LCombatant, drop: DroppedInfo): boolean {
  return drop.by === c.id && c.data.turn.n - drop.turnN <= 1 && c.data.moveRollRound <= drop.round && !drop.fallen;
}

/** Pick up a dropped item: within reach, a free hand, out of an enemy's reach, not guarded by group defense. */
export function checkPickup(s: LState, c: LCombatant, op: Extract<InventoryOp, { op: 'pickup' }>): EngineError | null {
  const found = op.itemId ? findItem(s, op.itemId) : null;
  const drop = found ? droppedOf(found.item) : null;
  if (!found || !drop) return ruleError('ILLEGAL_ACTION', RULE.droppedItems, `No dropped item "${op.itemId}".`);
  const p = posOf(c);
  if (drop.zone !== p.zone || (drop.engagement ? p.engagement !== drop.engagement : drop.area !== p.area && drop.group !== p.group)) {
    return ruleError('ILLEGAL_ACTION', RULE.droppedItems, `${found.item.name} is out of reach.`);
  }
  const hands = handCheck(c, op.hand);
  if (hands) return hands;
  const dropper = s.combatants[drop.by];
  const own = ownRecentDrop(c, drop);
  // "provided they dropped it before their immediately previous turn, or if they made a movement roll since dropping it"
  if (!own && dropper && drop.by !== c.id && isEnemy(c, dropper) && drop.engagement) {
    if (dropper.data.turn.n - drop.turnN < 1 && dropper.data.moveRollRound <= drop.round) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.droppedItems,
        `${dropper.name} dropped it on their immediately previous turn: it is still within their reach.`,
      );
    }
  }
  // defended by an enemy group? ("if your body is defended via group defense, these items are included in that defense")
  const guard = c.data.turn.bypassed ? null : guardOf(s, c, found.item.id, drop);
  if (guard?.body) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.groupDefenseBodyItems,
      `${found.item.name} fell with ${dropper?.name ?? drop.by}, whose body ${guard.group} defends: "these items are included in that defense without additional difficulty". Bypass it first.`,
    );
  }
  if (guard) return ruleError('ILLEGAL_ACTION', RULE.groupDefense, `${found.item.name} is guarded by group defense: bypass it first.`);
  if (!own && drop.engagement && op.stat === 'SPD' && c.data.carriedBy) {
    return ruleError('ILLEGAL_ACTION', RULE.carrying, '"You may not ... make any SPD rolls while being carried"');
  }
  return null;
}

/** "Offering the item does not require an action on your part, so long as the item is in your hand when the other character takes it." */
export function checkOfferInHand(s: LState, c: LCombatant, toId: string, itemId: string): EngineError | null {
  if (s.clock.phase !== 'action') return ruleError('WRONG_PHASE', RULE.giving, 'Items change hands in the action phase.');
  const to = s.combatants[toId];
  if (!to || to.id === c.id) return ruleError('UNKNOWN_TARGET', RULE.giving, `No one "${toId}" to give to.`);
  const it = c.items.find((i) => i.id === itemId);
  if (!it || !inHand(it)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.giving,
      `${c.name} holds no "${itemId}" (offer items from inventory with act offer-from-inventory).`,
    );
  }
  return groupedUp(c, to) ? null : ruleError('ILLEGAL_ACTION', RULE.giving, '"You must be grouped-up with the other character."');
}
