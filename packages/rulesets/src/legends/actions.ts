import { openAttack } from './outcome.js';
import { outnumberedDice, guardOf, isBypassing } from './defense.js';
import { z } from 'zod';
import { makeEffect, type EngineError, type Item, type Ruleset } from '@fray/engine';
import { effectExpiry, endTurn } from './flow.js';
import {
  breakoutDegrees,
  breakoutSchema,
  freeHandSlot,
  freeHands,
  handsOf,
  hasCond,
  inHand,
  isDown,
  isEnemy,
  isProtected,
  meleeDisadvantage,
  membersOfGroup,
  opts,
  posOf,
  rangeBetween,
  statRoll,
  weaponOf,
  wielding,
  type ActionDef,
  type ActionKind,
  type Breakout,
  type LCombatant,
  type LCtx,
  type LState,
} from './model.js';

const def = (d: Partial<ActionDef> & Pick<ActionDef, 'key' | 'name' | 'kinds' | 'rule'>): ActionDef => ({
  tags: [],
  hands: 0,
  target: 'none',
  repeatable: false,
  ...d,
});

/** The actions the two texts name. The GM (defineAction) and Abilities (stats.actions) add more. */
export const BUILTIN: Record<string, ActionDef> = Object.fromEntries(
  [
    def({ key: 'speak', name: 'Speak (up to 5 seconds)', kinds: ['free'], tags: ['verbal'], rule: '"your character may speak anything for up to 5 seconds as a verbal free action"' }),
    def({ key: 'shout', name: 'Shout a warning', kinds: ['free'], rule: '"A momentary shout, quick word of warning ... does not constitute a verbal action"' }),
    def({ key: 'melee-attack', name: 'Melee attack', kinds: ['major'], tags: ['melee-attack'], target: 'enemy', rule: '"A character must be wielding a weapon in order to use it to attack"' }),
    def({ key: 'grapple', name: 'Grapple', kinds: ['major'], tags: ['melee-attack', 'grapple'], hands: 1, target: 'enemy', rule: '"characters are immune to grappling (even from characters who bypass) if already defended"' }),
    def({ key: 'ranged-attack', name: 'Ranged attack', kinds: ['major'], tags: ['ranged-attack'], target: 'combatant', rule: '"A character must be wielding a weapon in order to use it to attack"' }),
    def({ key: 'drop', name: 'Drop item(s) from your hands', kinds: ['free'], rule: '"You may drop an object from one or both of your hands as a free action"' }),
    def({ key: 'swap-hands', name: 'Move an item to the other hand / change grip', kinds: ['free'], rule: '"may freely move an item from one hand to the other"' }),
    def({ key: 'draw', name: 'Draw a single item', kinds: ['free'], tags: ['inventory', 'needs-free-hand'], rule: '"As a free action, you may draw a single item."' }),
    def({ key: 'inventory', name: 'Inventory action', kinds: ['minor', 'major'], tags: ['inventory'], rule: '"As a minor action, you can choose one of the following options ... As a major action, you may choose up to three"' }),
    def({ key: 'pickup-retry', name: 'Retry picking up a dropped item', kinds: ['major'], rule: '"you may devote your major action to the attempt and roll again"' }),
    def({ key: 'offer-from-inventory', name: 'Offer an item from your inventory', kinds: ['minor'], target: 'ally', rule: '"You may also offer an item from your inventory ... This is a minor action for both you and the recipient."' }),
    def({ key: 'give-into-inventory', name: "Put an item into a willing character's inventory", kinds: ['minor'], target: 'ally', rule: '"you may use the same rules to add an item to a willing character\'s inventory"' }),
    def({ key: 'touch', name: 'Touch a character', kinds: ['free'], tags: ['slowing', 'needs-free-hand', 'touch'], hands: 1, target: 'combatant', rule: '"Touching another character in combat is a slowing free action that requires a free hand"' }),
    def({ key: 'bypass', name: 'Bypass group defense', kinds: ['minor'], rule: '"you may attempt to bypass the enemy\'s group defense as a minor action"' }),
    def({ key: 'leave-group-defense', name: 'Leave group defense', kinds: ['free'], rule: '"If a character voluntarily leaves group defense ... they still cannot perform melee attacks until the next round"' }),
    def({ key: 'stow-for-ally', name: "Put away a fallen ally's item", kinds: ['major'], target: 'ally', rule: '"Any ally that can touch your body can put away a single item back into your inventory as a major action."' }),
    def({ key: 'recover-items', name: 'Pick up the items you dropped when you fell', kinds: ['free'], rule: '"if you are healed, you may pick up these items again as a free action, without a roll"' }),
    def({ key: 'drop-carried', name: 'Drop the character you carry', kinds: ['free'], tags: ['inventory'], rule: '"The carrying character may drop you as a free inventory action"' }),
    def({ key: 'stop-being-carried', name: 'Stop being carried', kinds: ['free'], rule: '"you may also stop being carried as a free action on your own turn"' }),
  ].map((d) => [d.key, d]),
);

/** inventory actions: "can be either a free, minor, or major action. You must choose one of the three." */
const INVENTORY_CHOICE = ['draw', 'inventory'];

export const inventoryOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('draw'), itemId: z.string().min(1).max(64), hand: z.enum(['left-hand', 'right-hand', 'both-hands']).optional() }).strict(),
  z.object({ op: z.literal('stow'), itemId: z.string().min(1).max(64) }).strict(),
  z
    .object({
      op: z.literal('pickup'),
      itemId: z.string().min(1).max(64).optional(),
      carryId: z.string().min(1).max(64).optional(),
      hand: z.enum(['left-hand', 'right-hand', 'both-hands']).optional(),
      stat: z.enum(['DEX', 'SPD']).optional(),
      breakout: breakoutSchema.optional(),
    })
    .strict()
    .refine((o) => (o.itemId === undefined) !== (o.carryId === undefined), 'Give itemId or carryId.'),
  z.object({ op: z.literal('take'), offerId: z.string().min(1).max(64), hand: z.enum(['left-hand', 'right-hand', 'both-hands']).optional() }).strict(),
  z.object({ op: z.literal('accept'), offerId: z.string().min(1).max(64) }).strict(),
]);
export type InventoryOp = z.infer<typeof inventoryOpSchema>;

export const actFields = {
  combatantId: z.string().min(1).max(64),
  action: z.string().min(1).max(48),
  as: z.enum(['free', 'minor', 'major']).optional(),
  targetId: z.string().min(1).max(64).optional(),
  itemId: z.string().min(1).max(64).optional(),
  weaponId: z.string().min(1).max(64).optional(),
  hand: z.enum(['left-hand', 'right-hand', 'both-hands']).optional(),
  ops: z.array(inventoryOpSchema).min(1).max(10).optional(),
  stat: z.enum(['DEX', 'SPD']).optional(),
  breakout: breakoutSchema.optional(),
  willing: z.boolean().optional(),
  until: z.enum(['end-of-turn', 'next-turn', 'maintained']).optional(),
  note: z.string().max(200).optional(),
};
export interface ActInput {
  combatantId: string;
  action: string;
  as?: ActionKind;
  targetId?: string;
  itemId?: string;
  weaponId?: string;
  hand?: 'left-hand' | 'right-hand' | 'both-hands';
  ops?: InventoryOp[];
  stat?: 'DEX' | 'SPD';
  breakout?: Breakout;
  willing?: boolean;
  until?: 'end-of-turn' | 'next-turn' | 'maintained';
  note?: string;
}

/** one action by key: the character's own Abilities first, then the GM's, then the built-ins */
export function findAction(state: LState, c: LCombatant, key: string): ActionDef | undefined {
  for (const a of c.stats.actions) if (a.key === key) return a;
  const custom = state.rs.customActions;
  if (Object.prototype.hasOwnProperty.call(custom, key)) return custom[key];
  return Object.prototype.hasOwnProperty.call(BUILTIN, key) ? BUILTIN[key] : undefined;
}

const defListCache = new WeakMap<object, WeakMap<object, ActionDef[]>>();
/**
 * `Object.values(actionsOf(state, c))`, kept per (GM actions, character's Abilities) pair: both are
 * replaced, never changed in place, in a committed state. Read only.
 */
export function actionListOf(state: LState, c: LCombatant): readonly ActionDef[] {
  const custom = state.rs.customActions;
  const own = c.stats.actions;
  let byOwn = defListCache.get(custom);
  if (!byOwn) defListCache.set(custom, (byOwn = new WeakMap()));
  let list = byOwn.get(own);
  if (!list) byOwn.set(own, (list = Object.values(actionsOf(state, c))));
  return list;
}

export function actionsOf(state: LState, c: LCombatant): Record<string, ActionDef> {
  const out: Record<string, ActionDef> = { ...BUILTIN, ...state.rs.customActions };
  for (const a of c.stats.actions) out[a.key] = a;
  return out;
}

type Err = EngineError;
const E = (code: Err['code'], rule: string, message: string): Err => ({ code, rule, message });

export interface DroppedInfo {
  by: string;
  round: number;
  turnN: number;
  zone: string;
  area: string | null;
  engagement: string | null;
  group: string | null;
  fallen?: boolean;
}

export function findItem(state: LState, itemId: string): { owner: LCombatant; item: Item } | null {
  for (const owner of Object.values(state.combatants)) {
    const item = owner.items.find((i) => i.id === itemId);
    if (item) return { owner, item };
  }
  return null;
}

function droppedOf(item: Item): DroppedInfo | null {
  const d = item.props?.dropped as DroppedInfo | undefined;
  return item.location === 'ground' && d ? d : null;
}

function groupedUp(a: LCombatant, b: LCombatant): boolean {
  const pa = posOf(a);
  const pb = posOf(b);
  return pa.group !== null && pa.group === pb.group;
}

/** The first checks of `act`, which do not depend on the action: the phase, the turn, group defense. */
export function actGate(state: LState, c: LCombatant): Err | null {
  if (state.clock.phase !== 'action') {
    return E('WRONG_PHASE', 'legends.movement-phase', '"Actions may not occur at any point during the movement phase - not even free actions."');
  }
  if (state.clock.current !== c.id) return E('NOT_YOUR_TURN', 'legends.turns', `It is not ${c.name}'s turn: "Each character takes their turn in the sequence determined by the turn order list."`);
  if (state.rs.overflow.length > 0) {
    return E('ILLEGAL_ACTION', 'legends.group-defense.fallen-defenders', `Too many characters are defended in group ${state.rs.overflow.join(', ')}: "the group must immediately choose who to prioritize and keep defending."`);
  }
  return null;
}

/**
 * Everything that may forbid `act`, in rule order. `partial` skips the checks that depend on the
 * chosen target / item (legalActions lists those as parameters).
 */
export function checkAct(state: LState, a: ActInput, partial = false): Err | null {
  const o = opts(state);
  const c = state.combatants[a.combatantId];
  if (!c) return E('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${a.combatantId}".`);
  const gate = actGate(state, c);
  if (gate) return gate;
  const d = findAction(state, c, a.action);
  if (!d) return E('ILLEGAL_ACTION', 'legends.actions', `${c.name} has no action "${a.action}".`);
  const kind: ActionKind = a.as ?? d.kinds[0]!;
  if (!d.kinds.includes(kind)) return E('INVALID_COMMAND', 'legends.actions', `${d.name} is a ${d.kinds.join(' or ')} action, not ${kind}.`);
  const t = c.data.turn;
  if (t.ended) return E('BUDGET_EXHAUSTED', 'legends.major-action', '"After undertaking one major action, your turn is over."');

  // consciousness and physical hindrance
  const down = hasCond(state, c.id, o.unconsciousConditions);
  if (down) return E('ILLEGAL_ACTION', 'legends.purely-mental', `${c.name} is ${down}: purely mental actions "cannot occur when you are unconscious", nor can any other.`);
  const held = hasCond(state, c.id, o.immobilizedConditions);
  if (held && !d.tags.includes('purely-mental')) {
    return E('ILLEGAL_ACTION', 'legends.purely-mental', `${c.name} is ${held}: only purely mental actions "may be performed even if you are pinned, paralyzed, stabilized".`);
  }
  if (c.data.carriedBy && kind === 'major') return E('ILLEGAL_ACTION', 'legends.carrying', '"You may not do any major actions nor make any SPD rolls while being carried"');

  // budgets
  if (kind === 'free') {
    if (t.free.includes(d.key) && !d.repeatable) {
      return E('BUDGET_EXHAUSTED', 'legends.free-actions', `"you cannot do more than one free action of the same type": ${d.name} was already used this turn.`);
    }
    if (o.maxFreeActionsPerTurn !== null && t.free.length >= o.maxFreeActionsPerTurn) {
      return E('BUDGET_EXHAUSTED', 'legends.free-actions', `At most ${o.maxFreeActionsPerTurn} free actions a turn (table option).`);
    }
  } else if (kind === 'minor') {
    if (t.minors.length >= 2) return E('BUDGET_EXHAUSTED', 'legends.double-minor', 'Two minor actions already taken this turn.');
    if (t.minors.length === 1) {
      if (t.major !== null) return E('BUDGET_EXHAUSTED', 'legends.major-action', 'The major action was already taken.');
      if (t.minors[0] === d.key && !d.repeatable) {
        return E('ILLEGAL_ACTION', 'legends.double-minor', `"you cannot use this rule to do two minor actions of the same type": ${d.name} twice.`);
      }
    }
  } else {
    if (t.minors.length >= 2) return E('BUDGET_EXHAUSTED', 'legends.double-minor', '"you may give up your major action to perform a second minor action instead": the major action is gone.');
    if (t.major !== null) return E('BUDGET_EXHAUSTED', 'legends.major-action', 'One major action a turn.');
  }
  if (INVENTORY_CHOICE.includes(d.key)) {
    const used = [...t.free, ...t.minors, ...(t.major ? [t.major] : [])].find((k) => INVENTORY_CHOICE.includes(k));
    if (used && (used !== 'inventory' || d.key !== 'inventory' || kind !== 'major')) {
      return E('ILLEGAL_ACTION', 'legends.inventory.choose-one', '"Drawing or putting away items ... can be either a free, minor, or major action. You must choose one of the three."');
    }
    if (used === 'inventory' && d.key === 'inventory' && kind === 'major') {
      return E('ILLEGAL_ACTION', 'legends.inventory.choose-one', '"You must choose one of the three" (free, minor or major) for inventory actions.');
    }
  }

  // extra action types
  if (d.tags.includes('verbal')) {
    if (t.verbal) return E('BUDGET_EXHAUSTED', 'legends.verbal', '"You can do only one verbal action per turn"');
    const mute = hasCond(state, c.id, ['deafened', 'silenced']);
    if (mute) return E('ILLEGAL_ACTION', 'legends.verbal', `${c.name} is ${mute}: "You cannot use verbal actions if you are deafened or prevented from speaking"`);
  }
  if (d.tags.includes('slowing') && c.data.moveRollRound === state.clock.round) {
    return E('ILLEGAL_ACTION', 'legends.slowing', '"Slowing actions can only be performed if you did not attempt a movement roll during this round\'s movement phase."');
  }
  const needHands = Math.max(d.hands, d.tags.includes('needs-free-hand') ? 1 : 0);
  if (needHands > 0 && freeHands(c) < needHands) {
    return E('ILLEGAL_ACTION', 'legends.free-hands', `${c.name} needs ${needHands} free hand(s): "you must put away or drop an object in order to do something that requires a free hand."`);
  }
  if (d.tags.includes('melee-attack')) {
    if (isProtected(state, c.id)) return E('ILLEGAL_ACTION', 'legends.group-defense.no-melee', '"Protected characters cannot perform melee attacks themselves."');
    if (c.data.noMeleeUntilRound > state.clock.round) {
      return E('ILLEGAL_ACTION', 'legends.group-defense.no-melee', '"If a character voluntarily leaves group defense ... they still cannot perform melee attacks until the next round."');
    }
  }
  // action-specific requirements that do not depend on the chosen target
  const specific = checkSpecific(state, c, d, kind, a, partial);
  if (specific) return specific;
  if (partial) return null;
  return checkTarget(state, c, d, a);
}

export function checkTarget(state: LState, c: LCombatant, d: ActionDef, a: ActInput): Err | null {
  if (d.target === 'none' || d.target === 'self') return null;
  if (!a.targetId) return E('INVALID_COMMAND', 'legends.actions', `${d.name} needs a target.`);
  const t = state.combatants[a.targetId];
  if (!t) return E('UNKNOWN_TARGET', 'legends.actions', `No target "${a.targetId}".`);
  return targetCheck(state, c, d, t, a.willing, true);
}

/** A value that stands for "refused" when the reason is not wanted (legalActions only lists targets). */
const REFUSED: Err = Object.freeze({ code: 'ILLEGAL_ACTION', rule: 'legends.actions', message: 'refused' }) as Err;

/**
 * Whether `t` may be the target of `d` by `c` (null when it may), for a target that exists and an
 * action that takes one. With `explain` false the refusal is `REFUSED` and no message is built:
 * legalActions asks this for every action and every combatant.
 */
export function targetCheck(state: LState, c: LCombatant, d: ActionDef, t: LCombatant, willingIn: boolean | undefined, explain: boolean): Err | null {
  if (t.id === c.id && d.target !== 'combatant') return explain ? E('ILLEGAL_ACTION', 'legends.actions', `${d.name} cannot target yourself.`) : REFUSED;
  if (d.target === 'enemy' && !isEnemy(c, t)) return explain ? E('ILLEGAL_ACTION', 'legends.actions', `${t.name} is not an enemy.`) : REFUSED;
  if (d.target === 'ally' && isEnemy(c, t)) return explain ? E('ILLEGAL_ACTION', 'legends.actions', `${t.name} is not an ally.`) : REFUSED;
  if (d.tags.includes('melee-attack')) {
    const pc = posOf(c);
    if (!pc.engagement || pc.engagement !== posOf(t).engagement) {
      return explain ? E('ILLEGAL_ACTION', 'legends.engagement', `${t.name} is not in ${c.name}'s engagement: melee needs "characters ... able to attack each other with melee weapons without significant movement".`) : REFUSED;
    }
    if (isProtected(state, t.id)) {
      if (d.tags.includes('grapple')) return explain ? E('ILLEGAL_ACTION', 'legends.group-defense.grapple', '"characters are immune to grappling (even from characters who bypass) if already defended."') : REFUSED;
      if (!c.data.turn.bypassed) {
        return explain ? E('ILLEGAL_ACTION', 'legends.group-defense', `${t.name} is protected: "Characters protected by group defense cannot receive melee attacks unless the enemy follows special rules for bypassing group defense".`) : REFUSED;
      }
    }
  }
  if (d.tags.includes('touch')) {
    const o = opts(state);
    if (c.data.turn.touched) return explain ? E('BUDGET_EXHAUSTED', 'legends.touch', '"you may only touch one character per turn"') : REFUSED;
    const willing = willingIn ?? !isEnemy(c, t);
    if (!willing && !hasCond(state, c.id, ['grappling'])) return explain ? E('ILLEGAL_ACTION', 'legends.touch', '"If the character is unwilling, you may only touch them if you are in a grapple."') : REFUSED;
    if (!isEnemy(c, t)) {
      if (!groupedUp(c, t)) return explain ? E('ILLEGAL_ACTION', 'legends.touch', '"You must be grouped-up with any ally you touch"') : REFUSED;
      if (isBypassing(state, t)) return explain ? E('ILLEGAL_ACTION', 'legends.touch', '"the ally must not currently be bypassing group defense"') : REFUSED;
    }
    const touchers = new Set(state.rs.touchLog.filter((x) => x.endsWith(`>${t.id}`)).map((x) => x.slice(0, x.indexOf('>'))));
    if (!touchers.has(c.id) && touchers.size >= o.maxTouchersPerRound) {
      return explain ? E('ILLEGAL_ACTION', 'legends.touch', `"Characters can only be touched via these rules by ${o.maxTouchersPerRound} characters per round"`) : REFUSED;
    }
  }
  if (d.key === 'offer-from-inventory' || d.key === 'give-into-inventory') {
    if (!groupedUp(c, t)) return explain ? E('ILLEGAL_ACTION', 'legends.giving', '"You must be grouped-up with the other character."') : REFUSED;
  }
  if (d.key === 'stow-for-ally') {
    if (!isDown(state, t.id)) return explain ? E('ILLEGAL_ACTION', 'legends.fallen-items', `${t.name} has not fallen.`) : REFUSED;
    if (!groupedUp(c, t) && rangeBetween(state, c, t) !== 'short') return explain ? E('ILLEGAL_ACTION', 'legends.fallen-items', '"Any ally that can touch your body"') : REFUSED;
  }
  if (d.key === 'drop-carried' && t.data.carriedBy !== c.id) return explain ? E('ILLEGAL_ACTION', 'legends.carrying', `${c.name} is not carrying ${t.name}.`) : REFUSED;
  return null;
}

function checkSpecific(state: LState, c: LCombatant, d: ActionDef, kind: ActionKind, a: ActInput, partial: boolean): Err | null {
  const item = a.itemId ? c.items.find((i) => i.id === a.itemId) : undefined;
  switch (d.key) {
    case 'melee-attack':
    case 'ranged-attack': {
      const ranged = d.key === 'ranged-attack';
      if (!a.weaponId) {
        if (ranged) return partial ? null : E('INVALID_COMMAND', 'legends.wielding', 'A ranged attack needs a weapon (weaponId).');
        if (!opts(state).unarmedMelee) return partial ? null : E('INVALID_COMMAND', 'legends.wielding', 'Name the weapon you attack with (unarmed attacks are off at this table).');
        return null;
      }
      const w = c.items.find((i) => i.id === a.weaponId);
      if (!w) return E('INVALID_COMMAND', 'legends.wielding', `${c.name} has no item "${a.weaponId}".`);
      const ws = wielding(c, w);
      if (!ws.wielding) return E('ILLEGAL_ACTION', 'legends.wielding', `"A character must be wielding a weapon in order to use it to attack": ${ws.reason}`);
      if (weaponOf(w)!.weapon !== (ranged ? 'ranged' : 'melee')) return E('ILLEGAL_ACTION', 'legends.wielding', `${w.name} is not a ${ranged ? 'ranged' : 'melee'} weapon.`);
      return null;
    }
    case 'drop': {
      if (a.itemId) {
        if (!item || !inHand(item)) return E('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds no item "${a.itemId}".`);
      } else if (!c.items.some(inHand)) return E('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds nothing.`);
      return null;
    }
    case 'swap-hands': {
      if (partial && !a.itemId) return c.items.some(inHand) ? null : E('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds nothing.`);
      if (!item || !inHand(item)) return E('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds no item "${a.itemId}".`);
      if (!a.hand || a.hand === item.location) return E('INVALID_COMMAND', 'legends.inventory', 'Name the other hand (or both hands).');
      const others = c.items.filter((i) => i.id !== item.id && inHand(i));
      const busy = new Set(others.flatMap((i) => (i.location === 'both-hands' ? ['left-hand', 'right-hand'] : [i.location])));
      const need = a.hand === 'both-hands' ? ['left-hand', 'right-hand'] : [a.hand];
      if (need.some((h) => busy.has(h)) || (need.length === 2 && (c.data.busyHands > 0 || handsOf(c) < 2))) {
        return E('ILLEGAL_ACTION', 'legends.free-hands', `${c.name} has no free hand for that.`);
      }
      return null;
    }
    case 'draw': {
      if (partial && !a.itemId) return c.items.some((i) => i.location === 'carried') ? null : E('ILLEGAL_ACTION', 'legends.inventory', 'Nothing to draw.');
      if (!item || item.location !== 'carried') return E('ILLEGAL_ACTION', 'legends.inventory', `${c.name} carries no item "${a.itemId}" to draw.`);
      return handCheck(c, a.hand);
    }
    case 'inventory': {
      if (partial) return null;
      const ops = a.ops ?? [];
      if (ops.length === 0) return E('INVALID_COMMAND', 'legends.inventory', 'Choose at least one inventory option (ops).');
      const max = kind === 'major' ? opts(state).majorInventoryOps : 1;
      if (ops.length > max) return E('ILLEGAL_ACTION', 'legends.inventory', `As a ${kind} action you may choose ${max === 1 ? 'one' : `up to ${max}`} inventory option(s).`);
      for (const op of ops) {
        if (!opts(state).minorInventoryOptions.includes(op.op)) return E('ILLEGAL_ACTION', 'legends.inventory', `"${op.op}" is not an inventory option at this table.`);
      }
      return null;
    }
    case 'pickup-retry': {
      if (!c.data.turn.pickupFailed) return E('ILLEGAL_ACTION', 'legends.dropped-items', '"If you fail the roll and picking the item up would have been a minor action for you, you may devote your major action to the attempt and roll again."');
      return null;
    }
    case 'offer-from-inventory':
    case 'give-into-inventory': {
      if (partial && !a.itemId) return null;
      if (!item || item.location !== 'carried') return E('ILLEGAL_ACTION', 'legends.giving', `${c.name} carries no item "${a.itemId}".`);
      if (item.tags?.includes('concealed')) return E('ILLEGAL_ACTION', 'legends.giving', '"providing it is not concealed"');
      return null;
    }
    case 'bypass': {
      const eng = posOf(c).engagement;
      if (!eng) return E('ILLEGAL_ACTION', 'legends.bypass', '"If you are in an engagement, you may attempt to bypass the enemy\'s group defense"');
      if (c.data.carriedBy) return E('ILLEGAL_ACTION', 'legends.carrying', '"You may not ... make any SPD rolls while being carried"');
      const defended = Object.entries(state.rs.defense).some(([g, gd]) => {
        const m = membersOfGroup(state, g)[0];
        return m !== undefined && isEnemy(c, m) && posOf(m).engagement === eng && (gd.protected.length > 0 || gd.objects.length > 0);
      });
      if (!defended) return E('ILLEGAL_ACTION', 'legends.bypass', 'No enemy group defense in this engagement to bypass.');
      if (c.data.turn.bypassed) return E('ILLEGAL_ACTION', 'legends.bypass', 'Already bypassed this turn.');
      return null;
    }
    case 'leave-group-defense':
      return isProtected(state, c.id) ? null : E('ILLEGAL_ACTION', 'legends.group-defense', `${c.name} is not protected by group defense.`);
    case 'stow-for-ally': {
      if (partial) return null;
      const t = a.targetId ? state.combatants[a.targetId] : undefined;
      const it = t && a.itemId ? t.items.find((i) => i.id === a.itemId) : undefined;
      if (!it || !droppedOf(it)?.fallen) return E('ILLEGAL_ACTION', 'legends.fallen-items', 'Name an item the fallen ally dropped when they fell.');
      return null;
    }
    case 'recover-items': {
      const fallen = c.items.filter((i) => droppedOf(i)?.fallen);
      if (fallen.length === 0) return E('ILLEGAL_ACTION', 'legends.fallen-items', 'No items dropped when you fell are still where you fell.');
      if (freeHandsCount(c) < Math.min(2, fallen.length)) return E('ILLEGAL_ACTION', 'legends.free-hands', 'No free hand for them.');
      return null;
    }
    case 'drop-carried':
      return Object.values(state.combatants).some((x) => x.data.carriedBy === c.id) ? null : E('ILLEGAL_ACTION', 'legends.carrying', `${c.name} carries nobody.`);
    case 'stop-being-carried':
      return c.data.carriedBy ? null : E('ILLEGAL_ACTION', 'legends.carrying', `${c.name} is not being carried.`);
    default:
      return null;
  }
}

function freeHandsCount(c: LCombatant): number {
  return freeHands(c);
}

function handCheck(c: LCombatant, hand: ActInput['hand']): Err | null {
  if (hand === 'both-hands') return freeHands(c) >= 2 && !c.items.some(inHand) ? null : E('ILLEGAL_ACTION', 'legends.free-hands', 'Both hands must be free.');
  if (hand) return c.items.some((i) => i.location === hand || i.location === 'both-hands') || freeHands(c) < 1 ? E('ILLEGAL_ACTION', 'legends.free-hands', `The ${hand} is not free.`) : null;
  return freeHandSlot(c) ? null : E('ILLEGAL_ACTION', 'legends.free-hands', '"Obviously, you must have a free hand in order to grab an item."');
}

// ---------------------------------------------------------------------------------------------
// Doing it
// ---------------------------------------------------------------------------------------------

export function performAct(ctx: LCtx, a: ActInput): void {
  // nothing was emitted yet: validate on the plain state before the command (cheaper than the draft)
  const pre = ctx.base ?? ctx.state;
  const err = checkAct(pre, a);
  if (err) ctx.fail(err.code, err.rule, err.message);
  const pc = pre.combatants[a.combatantId]!;
  const d = findAction(pre, pc, a.action)!;
  const kind: ActionKind = a.as ?? d.kinds[0]!;
  const secondMinor = kind === 'minor' && pc.data.turn.minors.length === 1;
  const s = ctx.state;
  const c = s.combatants[a.combatantId]!;
  ctx.emit({
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

function dropInfo(s: LState, c: LCombatant, fallen = false): Record<string, unknown> {
  const p = posOf(c);
  const info: DroppedInfo = { by: c.id, round: s.clock.round, turnN: c.data.turn.n, zone: p.zone, area: p.area, engagement: p.engagement, group: p.group };
  if (fallen) info.fallen = true;
  return info as unknown as Record<string, unknown>;
}

function doAction(ctx: LCtx, id: string, d: ActionDef, kind: ActionKind, a: ActInput): void {
  const s = ctx.state;
  const c = () => s.combatants[id]!;
  switch (d.key) {
    case 'melee-attack':
    case 'grapple':
    case 'ranged-attack': {
      const t = s.combatants[a.targetId!]!;
      const w = a.weaponId ? c().items.find((i) => i.id === a.weaponId) : undefined;
      const ws = w ? wielding(c(), w) : null;
      ctx.emit({
        type: 'legends.attacked',
        combatantId: id,
        targetId: t.id,
        attack: d.key,
        weaponId: w?.id ?? null,
        competent: ws?.competent ?? false,
        unarmed: !w,
        range: rangeBetween(s, c(), t),
        meleeDisadvantage: d.key === 'ranged-attack' ? 0 : meleeDisadvantage(s, id),
        bypassed: c().data.turn.bypassed,
      });
      openAttack(ctx, id, t.id, d.key, w?.id ?? null, ws?.competent ?? false, d.key === 'ranged-attack' ? 0 : meleeDisadvantage(s, id));
      return;
    }
    case 'drop': {
      const items = a.itemId ? c().items.filter((i) => i.id === a.itemId) : c().items.filter(inHand);
      for (const it of items) ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: 'ground', dropped: dropInfo(s, c()) });
      return;
    }
    case 'swap-hands':
      ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: a.itemId!, location: a.hand! });
      return;
    case 'draw':
      ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: a.itemId!, location: a.hand ?? freeHandSlot(c())! });
      return;
    case 'inventory':
      for (const op of a.ops!) inventoryOp(ctx, id, op, kind);
      return;
    case 'pickup-retry': {
      const itemId = c().data.turn.pickupFailed!;
      pickUpItem(ctx, id, { op: 'pickup', itemId, stat: a.stat, breakout: a.breakout, hand: a.hand }, 'major', true);
      return;
    }
    case 'offer-from-inventory':
    case 'give-into-inventory':
      ctx.emit({
        type: 'legends.offered',
        combatantId: id,
        offer: { id: ctx.newId('o'), from: id, to: a.targetId!, itemId: a.itemId!, kind: d.key === 'offer-from-inventory' ? 'inventory' : 'into' },
      });
      return;
    case 'touch':
      ctx.emit({ type: 'legends.touched', combatantId: id, touch: { by: id, target: a.targetId!, round: s.clock.round, until: a.until ?? 'end-of-turn' } });
      return;
    case 'bypass': {
      // "you must succeed on a 2d12 roll on SPD; outnumbering dice apply to this roll. Though the roll is on SPD, it is not considered a movement roll."
      const od = outnumberedDice(ctx, c(), 0, a.breakout);
      const r = statRoll(ctx, { combatantId: id, stat: 'SPD', dice: 2, die: 12, hindrance: od.hindrance, easing: od.easing, purpose: 'bypass group defense (2d12 on SPD)' });
      applyBreakout(ctx, id, a.breakout, 'action');
      ctx.emit({ type: 'legends.bypassRolled', combatantId: id, success: r.success, margin: r.margin, hindrance: od.hindrance, easing: od.easing });
      if (!r.success) {
        // "If you fail the SPD roll, you have 1 degree of melee disadvantage against all characters until the beginning of your next turn."
        addDisadvantage(ctx, id, 1, 'failed bypass of group defense', 'start-of-turn');
      }
      return;
    }
    case 'leave-group-defense':
      ctx.emit({ type: 'legends.groupDefenseLeft', combatantId: id, group: isProtected(s, id) });
      return;
    case 'stow-for-ally':
      ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: a.targetId!, toId: a.targetId!, itemId: a.itemId!, location: 'carried' });
      return;
    case 'recover-items': {
      for (const it of c().items.filter((i) => droppedOf(i)?.fallen)) {
        const slot = freeHandSlot(c());
        if (!slot) break;
        ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: slot });
      }
      return;
    }
    case 'drop-carried':
      ctx.emit({ type: 'legends.carryEnded', combatantId: id, targetId: a.targetId!, voluntary: true });
      return;
    case 'stop-being-carried':
      ctx.emit({ type: 'legends.carryEnded', combatantId: id, targetId: id, voluntary: true });
      return;
    default:
      ctx.emit({ type: 'legends.actionResolved', combatantId: id, action: d.key, kind, targetId: a.targetId ?? null, note: a.note ?? null });
  }
}

/** makeEffect only needs the ruleset for its effectExpiry */
const EXPIRY = { effectExpiry } as unknown as Ruleset;

export function addDisadvantage(ctx: LCtx, id: string, degrees: number, why: string, unit: 'start-of-turn' | 'end-of-round'): void {
  if (degrees <= 0) return;
  const effect = makeEffect(ctx as never, EXPIRY, {
    name: `${degrees} degree(s) of melee disadvantage (${why})`,
    condition: 'melee-disadvantage',
    targetId: id,
    sourceId: id,
    duration: { unit, count: 1 },
    data: { degrees },
  });
  ctx.emit({ type: 'effect.applied', effect });
}

/** "you receive one degree of melee disadvantage for each of the above options you choose" */
export function applyBreakout(ctx: LCtx, id: string, b: Breakout | undefined, phase: 'movement' | 'action'): void {
  const n = breakoutDegrees(b);
  // "If breakout tactics are used during the movement phase, the disadvantage continues until the end of the round. If used during your turn in the action phase, they continue until the beginning of your next turn."
  addDisadvantage(ctx, id, n, 'breakout tactics', phase === 'movement' ? 'end-of-round' : 'start-of-turn');
}

function takeHand(c: LCombatant, hand: ActInput['hand']): Err | Item['location'] {
  const e = handCheck(c, hand);
  if (e) return e;
  return hand ?? freeHandSlot(c)!;
}

function inventoryOp(ctx: LCtx, id: string, op: InventoryOp, kind: ActionKind): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  switch (op.op) {
    case 'draw': {
      const it = c.items.find((i) => i.id === op.itemId);
      if (!it || it.location !== 'carried') return ctx.fail('ILLEGAL_ACTION', 'legends.inventory', `${c.name} carries no item "${op.itemId}".`);
      const h = takeHand(c, op.hand);
      if (typeof h === 'object') return ctx.fail(h.code, h.rule, h.message);
      ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: h });
      return;
    }
    case 'stow': {
      const it = c.items.find((i) => i.id === op.itemId);
      if (!it || !inHand(it)) return ctx.fail('ILLEGAL_ACTION', 'legends.inventory', `${c.name} holds no item "${op.itemId}".`);
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
      if (!offer || offer.to !== id) return ctx.fail('ILLEGAL_ACTION', 'legends.giving', `No offer "${op.offerId}" to ${c.name}.`);
      const giver = s.combatants[offer.from];
      const it = giver?.items.find((i) => i.id === offer.itemId);
      if (!giver || !it) return ctx.fail('ILLEGAL_ACTION', 'legends.giving', 'The offered item is gone.');
      if (!groupedUp(c, giver)) return ctx.fail('ILLEGAL_ACTION', 'legends.giving', '"You must be grouped-up with the other character."');
      if (offer.kind === 'hand' && !inHand(it)) return ctx.fail('ILLEGAL_ACTION', 'legends.giving', '"so long as the item is in your hand when the other character takes it"');
      if (op.op === 'accept' || offer.kind === 'into') {
        ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: giver.id, toId: id, itemId: it.id, location: 'carried' });
      } else {
        const h = takeHand(c, op.hand);
        if (typeof h === 'object') return ctx.fail(h.code, h.rule, h.message);
        ctx.emit({ type: 'legends.itemMoved', combatantId: id, fromId: giver.id, toId: id, itemId: it.id, location: h });
      }
      ctx.emit({ type: 'legends.offerClosed', offerId: offer.id });
      return;
    }
  }
}

function startCarrying(ctx: LCtx, id: string, targetId: string): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const t = s.combatants[targetId];
  if (!t || t.id === id) return ctx.fail('UNKNOWN_TARGET', 'legends.carrying', `No one "${targetId}" to carry.`);
  const willing = !isEnemy(c, t) && t.stats.willingToBeCarried;
  if (!willing && !isDown(s, t.id)) return ctx.fail('ILLEGAL_ACTION', 'legends.carrying', '"Willing characters can be carried by sufficiently large and strong allies"');
  if (t.data.carriedBy) return ctx.fail('ILLEGAL_ACTION', 'legends.carrying', `${t.name} is already carried.`);
  if (c.data.carriedBy) return ctx.fail('ILLEGAL_ACTION', 'legends.carrying', `${c.name} is being carried.`);
  if (rangeBetween(s, c, t) !== 'short') return ctx.fail('ILLEGAL_ACTION', 'legends.carrying', `${t.name} is out of reach.`);
  if (!freeHandSlot(c)) return ctx.fail('ILLEGAL_ACTION', 'legends.free-hands', '"you must have a free hand in order to grab an item"');
  ctx.emit({ type: 'legends.carried', combatantId: id, targetId: t.id });
}

function pickUpItem(ctx: LCtx, id: string, op: Extract<InventoryOp, { op: 'pickup' }>, kind: ActionKind, retry: boolean): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const found = op.itemId ? findItem(s, op.itemId) : null;
  const drop = found ? droppedOf(found.item) : null;
  if (!found || !drop) return ctx.fail('ILLEGAL_ACTION', 'legends.dropped-items', `No dropped item "${op.itemId}".`);
  const p = posOf(c);
  if (drop.zone !== p.zone || (drop.engagement ? p.engagement !== drop.engagement : drop.area !== p.area && drop.group !== p.group)) {
    return ctx.fail('ILLEGAL_ACTION', 'legends.dropped-items', `${found.item.name} is out of reach.`);
  }
  const h = takeHand(c, op.hand);
  if (typeof h === 'object') return ctx.fail(h.code, h.rule, h.message);
  const dropper = s.combatants[drop.by];
  // "you can pick up any item that you dropped on your immediately previous turn, if you have not attempted a movement roll since then"
  const own = drop.by === id && c.data.turn.n - drop.turnN <= 1 && c.data.moveRollRound <= drop.round && !drop.fallen;
  if (!own && dropper && drop.by !== id && isEnemy(c, dropper) && drop.engagement) {
    // "provided they dropped it before their immediately previous turn, or if they made a movement roll since dropping it"
    if (dropper.data.turn.n - drop.turnN < 1 && dropper.data.moveRollRound <= drop.round) {
      return ctx.fail('ILLEGAL_ACTION', 'legends.dropped-items', `${dropper.name} dropped it on their immediately previous turn: it is still within their reach.`);
    }
  }
  // defended by an enemy group? ("if your body is defended via group defense, these items are included in that defense")
  const guard = c.data.turn.bypassed ? null : guardOf(s, c, found.item.id, drop);
  if (guard?.body) return ctx.fail('ILLEGAL_ACTION', 'legends.group-defense.body-items', `${found.item.name} fell with ${dropper?.name ?? drop.by}, whose body ${guard.group} defends: "these items are included in that defense without additional difficulty". Bypass it first.`);
  if (guard) return ctx.fail('ILLEGAL_ACTION', 'legends.group-defense', `${found.item.name} is guarded by group defense: bypass it first.`);
  if (!own && drop.engagement) {
    const stat = op.stat ?? 'DEX';
    if (stat === 'SPD' && c.data.carriedBy) return ctx.fail('ILLEGAL_ACTION', 'legends.carrying', '"You may not ... make any SPD rolls while being carried"');
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
