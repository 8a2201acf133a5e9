import type { Item } from '@fray/engine';
import { ensure } from '@fray/engine';
import { checkRemoveHindrance } from '../checks/defense.js';
import { emit } from '../events/index.js';
import { endTurn } from '../flow/rounds.js';
import { findAction, type ActInput } from '../catalogue.js';
import { checkAct } from '../checks/index.js';
import { statRoll } from '../mechanics/dice.js';
import { outnumberedDice } from '../mechanics/defense.js';
import { meleeDisadvantage, rangeBetween } from '../mechanics/space.js';
import { wielding } from '../mechanics/weapons.js';
import {
  droppedOf,
  freeHandSlot,
  inHand,
  isProtected,
  posOf,
  type ActionDef,
  type ActionKind,
  type DroppedInfo,
  type LCombatant,
  type LCtx,
  type LState,
} from '../state/index.js';
import { addDisadvantage, applyBreakout, openAttack } from './consequences.js';
import { inventoryOp, pickUpItem } from './inventory.js';

/** Doing an action (`act`): the checks, the budget spent, what the action does, and the end of the turn it may bring. */

export function performAct(ctx: LCtx, a: ActInput): void {
  // nothing was emitted yet: validate on the plain state before the command (cheaper than the draft)
  const pre = ctx.base ?? ctx.state;
  ensure(checkAct(pre, a));
  const pc = pre.combatants[a.combatantId]!;
  const d = findAction(pre, pc, a.action)!;
  const kind: ActionKind = a.as ?? d.kinds[0]!;
  const secondMinor = kind === 'minor' && pc.data.turn.minors.length === 1;
  const s = ctx.state;
  const c = s.combatants[a.combatantId]!;
  emit(ctx, {
    type: 'legends.acted',
    combatantId: c.id,
    action: d.key,
    kind,
    tags: [...d.tags],
    verbal: d.tags.includes('verbal') || undefined,
    hands: kind === 'major' ? d.hands : undefined,
    targetId: a.targetId ?? null,
    doubleMinor: secondMinor || undefined,
    note: a.note,
  });
  doAction(ctx, c.id, d, kind, a);
  // "After undertaking one major action, your turn is over." / "Your second minor action must end your turn"
  const after = ctx.state.combatants[c.id];
  if (after && ctx.state.clock.current === c.id && !after.data.turn.ended && (kind === 'major' || secondMinor)) {
    endTurn(ctx, c.id, kind === 'major' ? 'major action' : 'double minor');
  }
}

function dropInfo(s: LState, c: LCombatant, fallen = false): DroppedInfo {
  const p = posOf(c);
  const info: DroppedInfo = {
    by: c.id,
    round: s.clock.round,
    turnN: c.data.turn.n,
    zone: p.zone,
    area: p.area,
    engagement: p.engagement,
    group: p.group,
  };
  if (fallen) info.fallen = true;
  return info;
}

function doAction(ctx: LCtx, id: string, d: ActionDef, kind: ActionKind, a: ActInput): void {
  switch (d.key) {
    case 'melee-attack':
    case 'grapple':
    case 'ranged-attack':
      return doAttack(ctx, id, d, a);
    case 'bypass':
      return doBypass(ctx, id, a);
    case 'inventory':
      for (const op of a.ops!) inventoryOp(ctx, id, op, kind);
      return;
    case 'pickup-retry': {
      const itemId = ctx.state.combatants[id]!.data.turn.pickupFailed!;
      pickUpItem(ctx, id, { op: 'pickup', itemId, stat: a.stat, breakout: a.breakout, hand: a.hand }, 'major', true);
      return;
    }
    case 'touch':
      emit(ctx, {
        type: 'legends.touched',
        combatantId: id,
        touch: { by: id, target: a.targetId!, round: ctx.state.clock.round, until: a.until ?? 'end-of-turn' },
      });
      return;
    case 'leave-group-defense':
      emit(ctx, { type: 'legends.groupDefenseLeft', combatantId: id, group: isProtected(ctx.state, id) });
      return;
    case 'drop-carried':
    case 'stop-being-carried':
      emit(ctx, { type: 'legends.carryEnded', combatantId: id, targetId: d.key === 'drop-carried' ? a.targetId! : id, voluntary: true });
      return;
    default:
      if (doItemAction(ctx, id, d, a)) return;
      emit(ctx, {
        type: 'legends.actionResolved',
        combatantId: id,
        action: d.key,
        kind,
        targetId: a.targetId ?? null,
        note: a.note ?? null,
      });
  }
}

/** An attack: declared (`legends.attacked`), then rolled when attacks get an outcome. */
function doAttack(ctx: LCtx, id: string, d: ActionDef, a: ActInput): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const t = s.combatants[a.targetId!]!;
  const w = a.weaponId ? c.items.find((i) => i.id === a.weaponId) : undefined;
  const ws = w ? wielding(c, w) : null;
  const disadvantage = d.key === 'ranged-attack' ? 0 : meleeDisadvantage(s, id);
  emit(ctx, {
    type: 'legends.attacked',
    combatantId: id,
    targetId: t.id,
    attack: d.key,
    weaponId: w?.id ?? null,
    competent: ws?.competent ?? false,
    unarmed: !w,
    range: rangeBetween(s, c, t),
    meleeDisadvantage: disadvantage,
    bypassed: c.data.turn.bypassed,
  });
  openAttack(ctx, id, t.id, d.key, w?.id ?? null, ws?.competent ?? false, disadvantage);
}

/** "you must succeed on a 2d12 roll on SPD; outnumbering dice apply to this roll. Though the roll is on SPD, it is not considered a movement roll." */
function doBypass(ctx: LCtx, id: string, a: ActInput): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  ensure(checkRemoveHindrance(s, c, 0, a.breakout));
  const od = outnumberedDice(s, c, 0, a.breakout);
  const purpose = 'bypass group defense (2d12 on SPD)';
  const r = statRoll(ctx, { combatantId: id, stat: 'SPD', dice: 2, die: 12, hindrance: od.hindrance, easing: od.easing, purpose });
  applyBreakout(ctx, id, a.breakout, 'action');
  emit(ctx, {
    type: 'legends.bypassRolled',
    combatantId: id,
    success: r.success,
    margin: r.margin,
    hindrance: od.hindrance,
    easing: od.easing,
  });
  // "If you fail the SPD roll, you have 1 degree of melee disadvantage against all characters until the beginning of your next turn."
  if (!r.success) addDisadvantage(ctx, id, 1, 'failed bypass of group defense', 'start-of-turn');
}

/** The actions that move items: drop, swap hands, draw, offer or give from inventory, a fallen ally's item, one's own fallen items. */
function doItemAction(ctx: LCtx, id: string, d: ActionDef, a: ActInput): boolean {
  const s = ctx.state;
  const c = () => s.combatants[id]!;
  const moved = (itemId: string, location: Item['location'], owner = id) =>
    emit(ctx, { type: 'legends.itemMoved', combatantId: id, fromId: owner, toId: owner, itemId, location });
  switch (d.key) {
    case 'drop': {
      const items = a.itemId ? c().items.filter((i) => i.id === a.itemId) : c().items.filter(inHand);
      for (const it of items) {
        emit(ctx, {
          type: 'legends.itemMoved',
          combatantId: id,
          fromId: id,
          toId: id,
          itemId: it.id,
          location: 'ground',
          dropped: dropInfo(s, c()),
        });
      }
      return true;
    }
    case 'swap-hands':
      moved(a.itemId!, a.hand!);
      return true;
    case 'draw':
      moved(a.itemId!, a.hand ?? freeHandSlot(c())!);
      return true;
    case 'stow-for-ally':
      moved(a.itemId!, 'carried', a.targetId!);
      return true;
    case 'recover-items':
      for (const it of c().items.filter((i) => droppedOf(i)?.fallen)) {
        const slot = freeHandSlot(c());
        if (!slot) break;
        moved(it.id, slot);
      }
      return true;
    case 'offer-from-inventory':
    case 'give-into-inventory': {
      const kind = d.key === 'offer-from-inventory' ? 'inventory' : 'into';
      emit(ctx, {
        type: 'legends.offered',
        combatantId: id,
        offer: { id: ctx.newId('o'), from: id, to: a.targetId!, itemId: a.itemId!, kind },
      });
      return true;
    }
    default:
      return false;
  }
}
