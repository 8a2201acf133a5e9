import { z } from 'zod';
import type { CatalogueEntry } from '@fray/engine';
import { breakoutSchema, type Breakout } from './mechanics/space.js';
import type { ActionDef, ActionKind, LCombatant, LState } from './state/index.js';

/**
 * The actions of the two rule texts (each with its rule quote), the catalogue every client shows, and the input an
 * action takes (`act`). The GM (defineAction) and Abilities (stats.actions) add more actions.
 */

const def = (d: Partial<ActionDef> & Pick<ActionDef, 'key' | 'name' | 'kinds' | 'rule'>): ActionDef => ({
  tags: [],
  hands: 0,
  target: 'none',
  repeatable: false,
  ...d,
});

/** The actions the two texts name. The GM (defineAction) and Abilities (stats.actions) add more. */
const BUILTIN: Record<string, ActionDef> = Object.fromEntries(
  [
    def({
      key: 'speak',
      name: 'Speak (up to 5 seconds)',
      kinds: ['free'],
      tags: ['verbal'],
      rule: '"your character may speak anything for up to 5 seconds as a verbal free action"',
    }),
    def({
      key: 'shout',
      name: 'Shout a warning',
      kinds: ['free'],
      rule: '"A momentary shout, quick word of warning ... does not constitute a verbal action"',
    }),
    def({
      key: 'melee-attack',
      name: 'Melee attack',
      kinds: ['major'],
      tags: ['melee-attack'],
      target: 'enemy',
      rule: '"A character must be wielding a weapon in order to use it to attack"',
    }),
    def({
      key: 'grapple',
      name: 'Grapple',
      kinds: ['major'],
      tags: ['melee-attack', 'grapple'],
      hands: 1,
      target: 'enemy',
      rule: '"characters are immune to grappling (even from characters who bypass) if already defended"',
    }),
    def({
      key: 'ranged-attack',
      name: 'Ranged attack',
      kinds: ['major'],
      tags: ['ranged-attack'],
      target: 'combatant',
      rule: '"A character must be wielding a weapon in order to use it to attack"',
    }),
    def({
      key: 'drop',
      name: 'Drop item(s) from your hands',
      kinds: ['free'],
      rule: '"You may drop an object from one or both of your hands as a free action"',
    }),
    def({
      key: 'swap-hands',
      name: 'Move an item to the other hand / change grip',
      kinds: ['free'],
      rule: '"may freely move an item from one hand to the other"',
    }),
    def({
      key: 'draw',
      name: 'Draw a single item',
      kinds: ['free'],
      tags: ['inventory', 'needs-free-hand'],
      rule: '"As a free action, you may draw a single item."',
    }),
    def({
      key: 'inventory',
      name: 'Inventory action',
      kinds: ['minor', 'major'],
      tags: ['inventory'],
      rule: '"As a minor action, you can choose one of the following options ... As a major action, you may choose up to three"',
    }),
    def({
      key: 'pickup-retry',
      name: 'Retry picking up a dropped item',
      kinds: ['major'],
      rule: '"you may devote your major action to the attempt and roll again"',
    }),
    def({
      key: 'offer-from-inventory',
      name: 'Offer an item from your inventory',
      kinds: ['minor'],
      target: 'ally',
      rule: '"You may also offer an item from your inventory ... This is a minor action for both you and the recipient."',
    }),
    def({
      key: 'give-into-inventory',
      name: "Put an item into a willing character's inventory",
      kinds: ['minor'],
      target: 'ally',
      rule: '"you may use the same rules to add an item to a willing character\'s inventory"',
    }),
    def({
      key: 'touch',
      name: 'Touch a character',
      kinds: ['free'],
      tags: ['slowing', 'needs-free-hand', 'touch'],
      hands: 1,
      target: 'combatant',
      rule: '"Touching another character in combat is a slowing free action that requires a free hand"',
    }),
    def({
      key: 'bypass',
      name: 'Bypass group defense',
      kinds: ['minor'],
      rule: '"you may attempt to bypass the enemy\'s group defense as a minor action"',
    }),
    def({
      key: 'leave-group-defense',
      name: 'Leave group defense',
      kinds: ['free'],
      rule: '"If a character voluntarily leaves group defense ... they still cannot perform melee attacks until the next round"',
    }),
    def({
      key: 'stow-for-ally',
      name: "Put away a fallen ally's item",
      kinds: ['major'],
      target: 'ally',
      rule: '"Any ally that can touch your body can put away a single item back into your inventory as a major action."',
    }),
    def({
      key: 'recover-items',
      name: 'Pick up the items you dropped when you fell',
      kinds: ['free'],
      rule: '"if you are healed, you may pick up these items again as a free action, without a roll"',
    }),
    def({
      key: 'drop-carried',
      name: 'Drop the character you carry',
      kinds: ['free'],
      tags: ['inventory'],
      rule: '"The carrying character may drop you as a free inventory action"',
    }),
    def({
      key: 'stop-being-carried',
      name: 'Stop being carried',
      kinds: ['free'],
      rule: '"you may also stop being carried as a free action on your own turn"',
    }),
  ].map((d) => [d.key, d]),
);

/** inventory actions: "can be either a free, minor, or major action. You must choose one of the three." */
export const INVENTORY_CHOICE = ['draw', 'inventory'];

const inventoryOpSchema = z.discriminatedUnion('op', [
  z
    .object({
      op: z.literal('draw'),
      itemId: z.string().min(1).max(64),
      hand: z.enum(['left-hand', 'right-hand', 'both-hands']).optional(),
    })
    .strict(),
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
  z
    .object({
      op: z.literal('take'),
      offerId: z.string().min(1).max(64),
      hand: z.enum(['left-hand', 'right-hand', 'both-hands']).optional(),
    })
    .strict(),
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
  ops: z.array(inventoryOpSchema).min(1).max(50).optional(),
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

function actionsOf(state: LState, c: LCombatant): Record<string, ActionDef> {
  const out: Record<string, ActionDef> = { ...BUILTIN, ...state.rs.customActions };
  for (const a of c.stats.actions) out[a.key] = a;
  return out;
}

export const catalogue: CatalogueEntry[] = [
  ...Object.values(BUILTIN).map((a) => ({
    id: a.key,
    label: a.name,
    kind: a.kinds.join('/'),
    cost: a.kinds.join(' or '),
    rule: a.rule,
    notes: a.tags.join(', ') || undefined,
  })),
  {
    id: 'move',
    label: 'Movement roll on SPD',
    kind: 'movement',
    rule: '"To make a significant combat movement in a timely fashion, you must make a movement roll on SPD."',
  },
  {
    id: 'finishMove',
    label: 'Rush / finish a movement',
    kind: 'movement',
    rule: '"After seeing the results of your movement roll, you may decide to rush"',
  },
  { id: 'stay', label: 'Stay', kind: 'movement', rule: '"decide whether or not to move"' },
  {
    id: 'prepareReaction',
    label: 'Prepare reactive movement',
    kind: 'movement',
    rule: '"you may prepare reactive movement as a response to a later character\'s movement"',
  },
  { id: 'react', label: 'Reactive movement', kind: 'reaction', rule: '"You may always decline to use a reaction you\'ve prepared"' },
  {
    id: 'groupMove',
    label: 'Grouped-up movement',
    kind: 'movement',
    rule: '"Characters who are grouped-up can move together, if all agree to do so."',
  },
  { id: 'declareGroupDefense', label: 'Group defense', kind: 'decision', rule: '"must be decided at the end of the movement phase"' },
  {
    id: 'changeTurnOrder',
    label: 'Change turn order',
    kind: 'decision',
    rule: '"all characters get a chance to voluntarily move downward in the list"',
  },
  {
    id: 'forfeitTurn',
    label: 'Forfeit a turn to change turn order',
    kind: 'turn',
    rule: '"a character can only change their position in the list by completely forfeiting one turn"',
  },
  { id: 'offerItem', label: 'Offer an item in hand', kind: 'none', rule: '"Offering the item does not require an action on your part"' },
];

/**
 * The rule ids a refusal names (`legends.<rule>`), the most specific first within a topic. Each check that uses one
 * quotes the sentence of the rule text it implements.
 */
export const RULE = {
  actions: 'legends.actions',
  attackOutcome: 'legends.attack-outcome',
  breakout: 'legends.breakout',
  breakoutRemoveHindrance: 'legends.breakout.remove-hindrance',
  bypass: 'legends.bypass',
  carrying: 'legends.carrying',
  doubleMinor: 'legends.double-minor',
  droppedItems: 'legends.dropped-items',
  engagement: 'legends.engagement',
  fallenItems: 'legends.fallen-items',
  freeActions: 'legends.free-actions',
  freeHands: 'legends.free-hands',
  giving: 'legends.giving',
  groupDefense: 'legends.group-defense',
  groupDefenseArea: 'legends.group-defense.area',
  groupDefenseBodyItems: 'legends.group-defense.body-items',
  groupDefenseFallenDefenders: 'legends.group-defense.fallen-defenders',
  groupDefenseGrapple: 'legends.group-defense.grapple',
  groupDefenseNoMelee: 'legends.group-defense.no-melee',
  groupDefenseRatio: 'legends.group-defense.ratio',
  groupDefenseTiming: 'legends.group-defense.timing',
  groupedMovement: 'legends.grouped-movement',
  grouping: 'legends.grouping',
  inventory: 'legends.inventory',
  inventoryChooseOne: 'legends.inventory.choose-one',
  inventoryMajor: 'legends.inventory.major',
  majorAction: 'legends.major-action',
  movement: 'legends.movement',
  movementOrder: 'legends.movement.order',
  movementPhase: 'legends.movement-phase',
  movementRange: 'legends.movement.range',
  outnumbering: 'legends.outnumbering',
  position: 'legends.position',
  purelyMental: 'legends.purely-mental',
  reactiveMovement: 'legends.reactive-movement',
  rushing: 'legends.rushing',
  slowing: 'legends.slowing',
  surprise: 'legends.surprise',
  touch: 'legends.touch',
  turnOrderAdjacentEnemies: 'legends.turn-order.adjacent-enemies',
  turnOrderChange: 'legends.turn-order.change',
  turnOrderInitial: 'legends.turn-order.initial',
  turns: 'legends.turns',
  verbal: 'legends.verbal',
  wielding: 'legends.wielding',
  zones: 'legends.zones',
} as const;
