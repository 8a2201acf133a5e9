import { ensure, type Item } from '@fray/engine';
import { checkDraw, checkOwnItem, checkPickUp } from '../../checks/index.js';
import { emit, plain, type ArCtx } from '../../events.js';
import { freeHand, groundItemNear, isTwoHanded, type C } from '../../state/index.js';

/** Items moving between hands, packs and the ground, as events. */

export function ownItem(c: C, itemId: string): Item {
  ensure(checkOwnItem(c, itemId));
  return c.items.find((i) => i.id === itemId)!;
}

/** "Drawing and putting weapons away". */
export function drawItem(ctx: ArCtx, c: C, itemId: string, mode: 'draw' | 'sheathe', rule: string): void {
  const it = ownItem(c, itemId);
  const hand = mode === 'draw' ? freeHand(c, isTwoHanded(it)) : null;
  ensure(checkDraw(c, it, mode, hand, rule));
  const loc = hand ?? 'carried';
  const items = plain(c.items).map((i) => (i.id === it.id ? { ...i, location: loc } : i));
  emit(ctx, mode === 'draw' ? 'drawn' : 'sheathed', { combatantId: c.id, itemId, location: loc }, { items: { [c.id]: items } });
}

/** "Picking up ... an object": from the ground within a step, into a free hand. */
export function pickUp(ctx: ArCtx, c: C, itemId: string, rule: string): void {
  ensure(checkPickUp(ctx.state, c, itemId, rule));
  const found = groundItemNear(ctx.state, c, itemId)!;
  const hand = freeHand(c, isTwoHanded(found.item)) ?? 'right-hand';
  const props = { ...(plain(found.item.props) ?? {}) };
  delete props['square'];
  const moved: Item = { ...plain(found.item), location: hand, props };
  const items: Record<string, Item[]> = {};
  const rest = plain(found.owner.items).filter((i) => i.id !== itemId);
  items[found.owner.id] = rest;
  items[c.id] = [...(found.owner.id === c.id ? rest : plain(c.items)), moved];
  emit(ctx, 'picked-up', { combatantId: c.id, itemId, fromId: found.owner.id }, { items });
}
