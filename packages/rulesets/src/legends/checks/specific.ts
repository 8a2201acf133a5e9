import { ruleError, type EngineError } from '@fray/engine';
import { RULE, type ActInput, type InventoryOp } from '../catalogue.js';
import { attackWeapons, weaponOf, wielding } from '../mechanics/weapons.js';
import {
  droppedOf,
  freeHands,
  freeHandSlot,
  handsOf,
  inHand,
  isEnemy,
  isProtected,
  membersOfGroup,
  opts,
  posOf,
  type ActionDef,
  type ActionKind,
  type LCombatant,
  type LState,
} from '../state/index.js';

/** The requirements of each built-in action that do not depend on its target. */
export function checkSpecific(
  state: LState,
  c: LCombatant,
  d: ActionDef,
  kind: ActionKind,
  a: ActInput,
  partial: boolean,
): EngineError | null {
  switch (d.key) {
    case 'melee-attack':
    case 'ranged-attack':
      return checkWeapon(state, c, d, a, partial);
    case 'drop':
    case 'swap-hands':
    case 'draw':
      return checkHeldItem(c, d, a, partial);
    case 'inventory':
      return partial ? null : checkInventoryOps(state, kind, a.ops ?? []);
    case 'offer-from-inventory':
    case 'give-into-inventory':
      return checkGiveFromInventory(c, a, partial);
    case 'bypass':
      return checkBypass(state, c);
    default:
      return checkOther(state, c, d, a, partial);
  }
}

/** "A character must be wielding a weapon in order to use it to attack" (unarmed melee is a table option). */
function checkWeapon(state: LState, c: LCombatant, d: ActionDef, a: ActInput, partial: boolean): EngineError | null {
  const ranged = d.key === 'ranged-attack';
  if (!a.weaponId) {
    if (partial) return ranged && attackWeapons(c, 'ranged').length === 0 ? noRangedWeapon(c) : null;
    if (ranged) return ruleError('INVALID_COMMAND', RULE.wielding, 'A ranged attack needs a weapon (weaponId).');
    if (!opts(state).unarmedMelee)
      return ruleError('INVALID_COMMAND', RULE.wielding, 'Name the weapon you attack with (unarmed attacks are off at this table).');
    return null;
  }
  const w = c.items.find((i) => i.id === a.weaponId);
  if (!w) return ruleError('INVALID_COMMAND', RULE.wielding, `${c.name} has no item "${a.weaponId}".`);
  const ws = wielding(c, w);
  if (!ws.wielding)
    return ruleError('ILLEGAL_ACTION', RULE.wielding, `"A character must be wielding a weapon in order to use it to attack": ${ws.reason}`);
  if (weaponOf(w)!.weapon !== (ranged ? 'ranged' : 'melee')) {
    return ruleError('ILLEGAL_ACTION', RULE.wielding, `${w.name} is not a ${ranged ? 'ranged' : 'melee'} weapon.`);
  }
  return null;
}

function noRangedWeapon(c: LCombatant): EngineError {
  const why = `${c.name} wields no ranged weapon`;
  return ruleError('ILLEGAL_ACTION', RULE.wielding, `"A character must be wielding a weapon in order to use it to attack": ${why}.`);
}

/** Dropping, moving to the other hand, drawing: an item held (or carried, to draw) and the hands for it. */
function checkHeldItem(c: LCombatant, d: ActionDef, a: ActInput, partial: boolean): EngineError | null {
  const item = a.itemId ? c.items.find((i) => i.id === a.itemId) : undefined;
  if (d.key === 'draw') {
    if (partial && !a.itemId)
      return c.items.some((i) => i.location === 'carried') ? null : ruleError('ILLEGAL_ACTION', RULE.inventory, 'Nothing to draw.');
    if (!item || item.location !== 'carried')
      return ruleError('ILLEGAL_ACTION', RULE.inventory, `${c.name} carries no item "${a.itemId}" to draw.`);
    return handCheck(c, a.hand);
  }
  if (!a.itemId && (d.key === 'drop' || partial))
    return c.items.some(inHand) ? null : ruleError('ILLEGAL_ACTION', RULE.inventory, `${c.name} holds nothing.`);
  if (!item || !inHand(item)) return ruleError('ILLEGAL_ACTION', RULE.inventory, `${c.name} holds no item "${a.itemId}".`);
  if (d.key === 'drop') return null;
  if (!a.hand || a.hand === item.location) return ruleError('INVALID_COMMAND', RULE.inventory, 'Name the other hand (or both hands).');
  const others = c.items.filter((i) => i.id !== item.id && inHand(i));
  const busy = new Set(others.flatMap((i) => (i.location === 'both-hands' ? ['left-hand', 'right-hand'] : [i.location])));
  const need = a.hand === 'both-hands' ? ['left-hand', 'right-hand'] : [a.hand];
  if (need.some((h) => busy.has(h)) || (need.length === 2 && (c.data.busyHands > 0 || handsOf(c) < 2))) {
    return ruleError('ILLEGAL_ACTION', RULE.freeHands, `${c.name} has no free hand for that.`);
  }
  return null;
}

/** "As a minor action, you can choose one of the following options ... As a major action, you may choose up to three" */
function checkInventoryOps(state: LState, kind: ActionKind, ops: readonly InventoryOp[]): EngineError | null {
  if (ops.length === 0) return ruleError('INVALID_COMMAND', RULE.inventory, 'Choose at least one inventory option (ops).');
  const max = kind === 'major' ? opts(state).majorInventoryOps : 1;
  if (ops.length > max) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.inventory,
      `As a ${kind} action you may choose ${max === 1 ? 'one' : `up to ${max}`} inventory option(s).`,
    );
  }
  const other = ops.find((op) => !opts(state).minorInventoryOptions.includes(op.op));
  return other ? ruleError('ILLEGAL_ACTION', RULE.inventory, `"${other.op}" is not an inventory option at this table.`) : null;
}

/** "You may also offer an item from your inventory ... providing it is not concealed" */
function checkGiveFromInventory(c: LCombatant, a: ActInput, partial: boolean): EngineError | null {
  if (partial && !a.itemId) return null;
  const item = a.itemId ? c.items.find((i) => i.id === a.itemId) : undefined;
  if (!item || item.location !== 'carried') return ruleError('ILLEGAL_ACTION', RULE.giving, `${c.name} carries no item "${a.itemId}".`);
  return item.tags?.includes('concealed') ? ruleError('ILLEGAL_ACTION', RULE.giving, '"providing it is not concealed"') : null;
}

/** "If you are in an engagement, you may attempt to bypass the enemy's group defense as a minor action" */
function checkBypass(state: LState, c: LCombatant): EngineError | null {
  const eng = posOf(c).engagement;
  if (!eng)
    return ruleError('ILLEGAL_ACTION', RULE.bypass, '"If you are in an engagement, you may attempt to bypass the enemy\'s group defense"');
  if (c.data.carriedBy) return ruleError('ILLEGAL_ACTION', RULE.carrying, '"You may not ... make any SPD rolls while being carried"');
  const defended = Object.entries(state.rs.defense).some(([g, gd]) => {
    const m = membersOfGroup(state, g)[0];
    return m !== undefined && isEnemy(c, m) && posOf(m).engagement === eng && (gd.protected.length > 0 || gd.objects.length > 0);
  });
  if (!defended) return ruleError('ILLEGAL_ACTION', RULE.bypass, 'No enemy group defense in this engagement to bypass.');
  return c.data.turn.bypassed ? ruleError('ILLEGAL_ACTION', RULE.bypass, 'Already bypassed this turn.') : null;
}

/** Leaving group defense, a retried pickup, a fallen ally's items, one's own fallen items, carrying. */
function checkOther(state: LState, c: LCombatant, d: ActionDef, a: ActInput, partial: boolean): EngineError | null {
  switch (d.key) {
    case 'pickup-retry':
      if (c.data.turn.pickupFailed) return null;
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.droppedItems,
        '"If you fail the roll and picking the item up would have been a minor action for you, you may devote your major action to the attempt and roll again."',
      );
    case 'leave-group-defense':
      return isProtected(state, c.id)
        ? null
        : ruleError('ILLEGAL_ACTION', RULE.groupDefense, `${c.name} is not protected by group defense.`);
    case 'stow-for-ally': {
      if (partial) return null;
      const t = a.targetId ? state.combatants[a.targetId] : undefined;
      const it = t && a.itemId ? t.items.find((i) => i.id === a.itemId) : undefined;
      return it && droppedOf(it)?.fallen
        ? null
        : ruleError('ILLEGAL_ACTION', RULE.fallenItems, 'Name an item the fallen ally dropped when they fell.');
    }
    case 'recover-items': {
      const fallen = c.items.filter((i) => droppedOf(i)?.fallen);
      if (fallen.length === 0)
        return ruleError('ILLEGAL_ACTION', RULE.fallenItems, 'No items dropped when you fell are still where you fell.');
      return freeHands(c) < Math.min(2, fallen.length) ? ruleError('ILLEGAL_ACTION', RULE.freeHands, 'No free hand for them.') : null;
    }
    case 'drop-carried':
      if (Object.values(state.combatants).some((x) => x.data.carriedBy === c.id)) return null;
      return ruleError('ILLEGAL_ACTION', RULE.carrying, `${c.name} carries nobody.`);
    case 'stop-being-carried':
      return c.data.carriedBy ? null : ruleError('ILLEGAL_ACTION', RULE.carrying, `${c.name} is not being carried.`);
    default:
      return null;
  }
}

/** The hand an item goes into: "Obviously, you must have a free hand in order to grab an item." */
export function handCheck(c: LCombatant, hand: ActInput['hand']): EngineError | null {
  if (hand === 'both-hands') {
    return freeHands(c) >= 2 && !c.items.some(inHand) ? null : ruleError('ILLEGAL_ACTION', RULE.freeHands, 'Both hands must be free.');
  }
  if (hand) {
    const taken = c.items.some((i) => i.location === hand || i.location === 'both-hands') || freeHands(c) < 1;
    return taken ? ruleError('ILLEGAL_ACTION', RULE.freeHands, `The ${hand} is not free.`) : null;
  }
  return freeHandSlot(c)
    ? null
    : ruleError('ILLEGAL_ACTION', RULE.freeHands, '"Obviously, you must have a free hand in order to grab an item."');
}
