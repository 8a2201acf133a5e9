import { ruleError, type EngineError } from '@fray/engine';
import type { ActInput } from '../catalogue.js';
import { weaponOf, wielding } from '../mechanics/weapons.js';
import { droppedOf, freeHands, freeHandSlot, handsOf, inHand, isEnemy, isProtected, membersOfGroup, opts, posOf, type ActionDef, type ActionKind, type LCombatant, type LState } from '../state/index.js';

/** The requirements of each built-in action that do not depend on its target. */

export function checkSpecific(state: LState, c: LCombatant, d: ActionDef, kind: ActionKind, a: ActInput, partial: boolean): EngineError | null {
  const item = a.itemId ? c.items.find((i) => i.id === a.itemId) : undefined;
  switch (d.key) {
    case 'melee-attack':
    case 'ranged-attack': {
      const ranged = d.key === 'ranged-attack';
      if (!a.weaponId) {
        if (ranged) return partial ? null : ruleError('INVALID_COMMAND', 'legends.wielding', 'A ranged attack needs a weapon (weaponId).');
        if (!opts(state).unarmedMelee) return partial ? null : ruleError('INVALID_COMMAND', 'legends.wielding', 'Name the weapon you attack with (unarmed attacks are off at this table).');
        return null;
      }
      const w = c.items.find((i) => i.id === a.weaponId);
      if (!w) return ruleError('INVALID_COMMAND', 'legends.wielding', `${c.name} has no item "${a.weaponId}".`);
      const ws = wielding(c, w);
      if (!ws.wielding) return ruleError('ILLEGAL_ACTION', 'legends.wielding', `"A character must be wielding a weapon in order to use it to attack": ${ws.reason}`);
      if (weaponOf(w)!.weapon !== (ranged ? 'ranged' : 'melee')) return ruleError('ILLEGAL_ACTION', 'legends.wielding', `${w.name} is not a ${ranged ? 'ranged' : 'melee'} weapon.`);
      return null;
    }
    case 'drop': {
      if (a.itemId) {
        if (!item || !inHand(item)) return ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds no item "${a.itemId}".`);
      } else if (!c.items.some(inHand)) return ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds nothing.`);
      return null;
    }
    case 'swap-hands': {
      if (partial && !a.itemId) return c.items.some(inHand) ? null : ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds nothing.`);
      if (!item || !inHand(item)) return ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds no item "${a.itemId}".`);
      if (!a.hand || a.hand === item.location) return ruleError('INVALID_COMMAND', 'legends.inventory', 'Name the other hand (or both hands).');
      const others = c.items.filter((i) => i.id !== item.id && inHand(i));
      const busy = new Set(others.flatMap((i) => (i.location === 'both-hands' ? ['left-hand', 'right-hand'] : [i.location])));
      const need = a.hand === 'both-hands' ? ['left-hand', 'right-hand'] : [a.hand];
      if (need.some((h) => busy.has(h)) || (need.length === 2 && (c.data.busyHands > 0 || handsOf(c) < 2))) {
        return ruleError('ILLEGAL_ACTION', 'legends.free-hands', `${c.name} has no free hand for that.`);
      }
      return null;
    }
    case 'draw': {
      if (partial && !a.itemId) return c.items.some((i) => i.location === 'carried') ? null : ruleError('ILLEGAL_ACTION', 'legends.inventory', 'Nothing to draw.');
      if (!item || item.location !== 'carried') return ruleError('ILLEGAL_ACTION', 'legends.inventory', `${c.name} carries no item "${a.itemId}" to draw.`);
      return handCheck(c, a.hand);
    }
    case 'inventory': {
      if (partial) return null;
      const ops = a.ops ?? [];
      if (ops.length === 0) return ruleError('INVALID_COMMAND', 'legends.inventory', 'Choose at least one inventory option (ops).');
      const max = kind === 'major' ? opts(state).majorInventoryOps : 1;
      if (ops.length > max) return ruleError('ILLEGAL_ACTION', 'legends.inventory', `As a ${kind} action you may choose ${max === 1 ? 'one' : `up to ${max}`} inventory option(s).`);
      for (const op of ops) {
        if (!opts(state).minorInventoryOptions.includes(op.op)) return ruleError('ILLEGAL_ACTION', 'legends.inventory', `"${op.op}" is not an inventory option at this table.`);
      }
      return null;
    }
    case 'pickup-retry': {
      if (!c.data.turn.pickupFailed) return ruleError('ILLEGAL_ACTION', 'legends.dropped-items', '"If you fail the roll and picking the item up would have been a minor action for you, you may devote your major action to the attempt and roll again."');
      return null;
    }
    case 'offer-from-inventory':
    case 'give-into-inventory': {
      if (partial && !a.itemId) return null;
      if (!item || item.location !== 'carried') return ruleError('ILLEGAL_ACTION', 'legends.giving', `${c.name} carries no item "${a.itemId}".`);
      if (item.tags?.includes('concealed')) return ruleError('ILLEGAL_ACTION', 'legends.giving', '"providing it is not concealed"');
      return null;
    }
    case 'bypass': {
      const eng = posOf(c).engagement;
      if (!eng) return ruleError('ILLEGAL_ACTION', 'legends.bypass', '"If you are in an engagement, you may attempt to bypass the enemy\'s group defense"');
      if (c.data.carriedBy) return ruleError('ILLEGAL_ACTION', 'legends.carrying', '"You may not ... make any SPD rolls while being carried"');
      const defended = Object.entries(state.rs.defense).some(([g, gd]) => {
        const m = membersOfGroup(state, g)[0];
        return m !== undefined && isEnemy(c, m) && posOf(m).engagement === eng && (gd.protected.length > 0 || gd.objects.length > 0);
      });
      if (!defended) return ruleError('ILLEGAL_ACTION', 'legends.bypass', 'No enemy group defense in this engagement to bypass.');
      if (c.data.turn.bypassed) return ruleError('ILLEGAL_ACTION', 'legends.bypass', 'Already bypassed this turn.');
      return null;
    }
    case 'leave-group-defense':
      return isProtected(state, c.id) ? null : ruleError('ILLEGAL_ACTION', 'legends.group-defense', `${c.name} is not protected by group defense.`);
    case 'stow-for-ally': {
      if (partial) return null;
      const t = a.targetId ? state.combatants[a.targetId] : undefined;
      const it = t && a.itemId ? t.items.find((i) => i.id === a.itemId) : undefined;
      if (!it || !droppedOf(it)?.fallen) return ruleError('ILLEGAL_ACTION', 'legends.fallen-items', 'Name an item the fallen ally dropped when they fell.');
      return null;
    }
    case 'recover-items': {
      const fallen = c.items.filter((i) => droppedOf(i)?.fallen);
      if (fallen.length === 0) return ruleError('ILLEGAL_ACTION', 'legends.fallen-items', 'No items dropped when you fell are still where you fell.');
      if (freeHandsCount(c) < Math.min(2, fallen.length)) return ruleError('ILLEGAL_ACTION', 'legends.free-hands', 'No free hand for them.');
      return null;
    }
    case 'drop-carried':
      return Object.values(state.combatants).some((x) => x.data.carriedBy === c.id) ? null : ruleError('ILLEGAL_ACTION', 'legends.carrying', `${c.name} carries nobody.`);
    case 'stop-being-carried':
      return c.data.carriedBy ? null : ruleError('ILLEGAL_ACTION', 'legends.carrying', `${c.name} is not being carried.`);
    default:
      return null;
  }
}

function freeHandsCount(c: LCombatant): number {
  return freeHands(c);
}

export function handCheck(c: LCombatant, hand: ActInput['hand']): EngineError | null {
  if (hand === 'both-hands') return freeHands(c) >= 2 && !c.items.some(inHand) ? null : ruleError('ILLEGAL_ACTION', 'legends.free-hands', 'Both hands must be free.');
  if (hand) return c.items.some((i) => i.location === hand || i.location === 'both-hands') || freeHands(c) < 1 ? ruleError('ILLEGAL_ACTION', 'legends.free-hands', `The ${hand} is not free.`) : null;
  return freeHandSlot(c) ? null : ruleError('ILLEGAL_ACTION', 'legends.free-hands', '"Obviously, you must have a free hand in order to grab an item."');
}
