import type { ActionOption, EngineError } from '@fray/engine';
import { actionListOf, RULE, type ActInput } from './catalogue.js';
import { actGate, checkAct, checkReorder, targetCheck } from './checks/index.js';
import { checkMovementDecider } from './checks/movement.js';
import { checkForfeit, checkOwnTurn } from './checks/turns.js';
import { attackWeapons } from './mechanics/weapons.js';
import {
  droppedInfo,
  inHand,
  isEnemy,
  membersOfGroup,
  opts,
  posOf,
  type ActionDef,
  type ActionKind,
  type LCombatant,
  type LState,
} from './state/index.js';

/** What a combatant may do right now (`legalActions`), from the catalogue and the same checks the commands run. */

const cost = (k: string): Record<string, number> =>
  k === 'free' ? { free: 1 } : k === 'minor' ? { minor: 1 } : k === 'major' ? { major: 1 } : { [k]: 1 };

/** allowed when `ok`; otherwise blocked, with `why` */
function block(ok: boolean, why: EngineError | null | undefined): Pick<ActionOption, 'allowed' | 'blocked'> {
  if (ok) return { allowed: true };
  return why ? { allowed: false, blocked: why } : { allowed: false };
}

/** What `id` may do right now, with the reason for everything it may not. */
export function legalActions(s: LState, id: string): ActionOption[] {
  const c = s.combatants[id];
  if (!c) return [];
  const phase = s.clock.phase;
  if (phase === 'turn-order' || phase === 'reorder') return turnOrderOptions(s, id);
  if (phase === 'movement') return movementOptions(s, c);
  const out: ActionOption[] = [];
  if (phase === 'group-defense' || s.rs.overflow.length > 0) {
    const option = defenseOption(s, c);
    if (option) out.push(option);
    if (phase === 'group-defense') return out;
  }
  if (phase !== 'action') return out;
  actionOptions(s, c, out);
  turnOptions(s, c, out);
  return out;
}

/** The turn order decisions: keep one's place, or move (down, at first). */
function turnOrderOptions(s: LState, id: string): ActionOption[] {
  const phase = s.clock.phase;
  const mine = s.rs.queue[0] === id;
  const rule = phase === 'turn-order' ? RULE.turnOrderInitial : RULE.turnOrderChange;
  const wait: EngineError | null = mine ? null : { code: 'NOT_YOUR_TURN', rule, message: 'Not your turn-order decision yet.' };
  const places: number[] = [];
  for (let i = 0; i < s.clock.order.length; i++) {
    if (i !== s.clock.order.indexOf(id) && !checkReorder(s, id, i, phase === 'turn-order')) places.push(i);
  }
  const stay: ActionOption = {
    command: 'changeTurnOrder',
    label: 'Keep my place in turn order',
    kind: 'decision',
    template: { combatantId: id },
    rule,
    ...block(mine, wait),
  };
  const noPlace: EngineError = { code: 'ILLEGAL_ACTION', rule: RULE.turnOrderAdjacentEnemies, message: 'No place to move to.' };
  return [
    stay,
    {
      command: 'changeTurnOrder',
      label: phase === 'turn-order' ? 'Move down in turn order' : 'Move to another place in turn order',
      kind: 'decision',
      params: [{ name: 'index', kind: 'choice', options: places }],
      template: { combatantId: id },
      rule,
      ...block(mine && places.length > 0, wait ?? noPlace),
    },
  ];
}

/** The movement phase: a prepared reaction to use, a roll to finish, or the decision whether and how to move. */
function movementOptions(s: LState, c: LCombatant): ActionOption[] {
  const id = c.id;
  const w = s.reaction;
  const template = { combatantId: id };
  const busy = reactionOrRollOption(s, c);
  if (busy) return [busy];
  const wait: EngineError | null = w
    ? { code: 'REACTION_PENDING', rule: 'engine.reactions', message: 'Waiting for reactive movement.' }
    : checkMovementDecider(s, id);
  const mine = wait === null;
  const later = s.clock.order.slice(s.clock.order.indexOf(id) + 1).filter((x) => s.rs.queue.includes(x));
  const grouped = posOf(c).group !== null;
  const position: ActionOption['params'] = [{ name: 'destination', kind: 'position' }];
  const noLater: EngineError = { code: 'ILLEGAL_ACTION', rule: RULE.reactiveMovement, message: 'No later character left to react to.' };
  const notGrouped: EngineError = { code: 'ILLEGAL_ACTION', rule: RULE.groupedMovement, message: 'Not grouped-up.' };
  return [
    {
      command: 'move',
      label: 'Movement roll on SPD',
      kind: 'movement',
      cost: { movementRoll: 1 },
      params: [...position, { name: 'breakout', kind: 'list', optional: true }],
      template,
      rule: RULE.movement,
      ...block(mine && !c.data.carriedBy, wait),
    },
    { command: 'stay', label: 'Do not move', kind: 'movement', template, rule: RULE.movement, ...block(mine, wait) },
    {
      command: 'prepareReaction',
      label: 'Prepare reactive movement',
      kind: 'movement',
      params: [
        { name: 'watch', kind: 'combatant', options: later },
        { name: 'anticipate', kind: 'text' },
      ],
      template,
      rule: RULE.reactiveMovement,
      ...block(mine && later.length > 0, wait ?? noLater),
    },
    {
      command: 'groupMove',
      label: 'Move with your group',
      kind: 'movement',
      params: position,
      template,
      rule: RULE.groupedMovement,
      ...block(mine && grouped, wait ?? notGrouped),
    },
  ];
}

/** A prepared reactive movement to use now, or one's movement roll to finish (rush or not). */
function reactionOrRollOption(s: LState, c: LCombatant): ActionOption | null {
  const id = c.id;
  const w = s.reaction;
  const template = { combatantId: id };
  if (w && w.responses[id] === 'pending' && w.kind === 'legends.reactive-movement') {
    const params: ActionOption['params'] = [{ name: 'destination', kind: 'position' }];
    return {
      command: 'react',
      label: 'Use your prepared reactive movement',
      kind: 'reaction',
      params,
      template,
      allowed: true,
      rule: RULE.reactiveMovement,
    };
  }
  const pending = s.rs.pending.find((p) => p.combatantId === id && !p.finished);
  if (pending) {
    const params: ActionOption['params'] = [
      {
        name: 'rush',
        kind: 'choice',
        options: [
          { value: 'none', label: 'No rush' },
          { value: 'self', label: 'Rush on my own SPD (fatigue, Low Stealth)' },
          { value: 'external', label: 'Rush on an external SPD (a mount, no fatigue)' },
        ],
        default: 'none',
        doc: `The margin is how far the movement roll beat its target. Rushing adds an SPD to it (yours, or an external one such as a mount's): ${pending.margin} + SPD; at ${opts(s).rushMediumMargin} or more you reach medium range (2 steps).`,
      },
      {
        name: 'keepTogether',
        kind: 'boolean',
        optional: true,
        label: 'Keep the group together',
        doc: 'The group moves as far as its slowest member.',
      },
      {
        name: 'prepareRush',
        kind: 'text',
        optional: true,
        label: 'Prepare a rush (for a reactive movement)',
        placeholder: 'e.g. toward the gate',
        doc: 'Not rushing now: keep the rush for a later reactive movement (one more short step, no roll).',
      },
    ];
    return {
      command: 'finishMove',
      label: `Finish your movement (the roll's margin: ${pending.margin})`,
      kind: 'movement',
      params,
      template,
      allowed: true,
      rule: RULE.rushing,
    };
  }
  return null;
}

/** Declaring group defense at the end of the movement phase, or choosing again after defenders fell. */
function defenseOption(s: LState, c: LCombatant): ActionOption | null {
  const phase = s.clock.phase;
  const g = posOf(c).group;
  const due = g !== null && (s.rs.queue.includes(g) || s.rs.overflow.includes(g));
  if (phase !== 'group-defense' && !due) return null;
  return {
    command: 'declareGroupDefense',
    label: s.rs.overflow.includes(g ?? '') ? 'Choose who your group keeps defending' : 'Declare group defense',
    kind: 'decision',
    params: [
      { name: 'protected', kind: 'list', options: g ? membersOfGroup(s, g).map((m) => m.id) : [] },
      { name: 'objects', kind: 'list', optional: true },
    ],
    template: { combatantId: c.id },
    rule: RULE.groupDefense,
    ...block(due, { code: 'ILLEGAL_ACTION', rule: RULE.groupDefense, message: g ? 'Your group has declared.' : 'Not grouped-up.' }),
  };
}

/** Every action of the catalogue the combatant has, in each kind it may be taken as. */
function actionOptions(s: LState, c: LCombatant, out: ActionOption[]): void {
  const id = c.id;
  const targetsFor = new Map<object, string[]>();
  // checkAct refuses every action with this when it refuses one (the phase, the turn, group defense)
  const gate = actGate(s, c);
  for (const d of actionListOf(s, c)) {
    for (const kind of d.kinds) {
      const a: ActInput = { combatantId: id, action: d.key, as: kind };
      let e = gate ? { ...gate } : checkAct(s, a, true);
      const params: ActionOption['params'] = [];
      if (d.target !== 'none' && d.target !== 'self') {
        // the same list for every kind of this action (the target checks do not depend on the kind)
        let targets = targetsFor.get(d);
        if (targets) targets = targets.slice();
        else {
          targets = targetsOf(s, c, d);
          targetsFor.set(d, targets.slice());
        }
        params.push({ name: 'targetId', kind: 'combatant', options: targets });
        if (!e && targets.length === 0)
          e = { code: 'UNKNOWN_TARGET', rule: `legends.${d.key}`, message: `No one to ${d.name.toLowerCase()}.` };
      }
      itemParams(s, c, d, params);
      out.push(actOption(id, d, kind, params, e));
    }
  }
}

function actOption(id: string, d: ActionDef, kind: ActionKind, params: ActionOption['params'], e: EngineError | null): ActionOption {
  const option: ActionOption = {
    command: 'act',
    action: d.key,
    label: `${d.name} (${kind})`,
    kind,
    cost: cost(kind),
    params,
    template: { combatantId: id, action: d.key, as: kind },
    rule: d.rule,
    allowed: !e,
  };
  // as `...block(!e, e)`, without the spread
  if (e) option.blocked = e;
  return option;
}

/** Who `d` may target (the target checks without their messages). */
function targetsOf(s: LState, c: LCombatant, d: ActionDef): string[] {
  const targets: string[] = [];
  for (const t of Object.keys(s.combatants)) {
    const tc = s.combatants[t]!;
    if (!targetCheck(s, c, d, tc, !isEnemy(c, tc), false) && (t !== c.id || d.target === 'combatant')) targets.push(t);
  }
  return targets;
}

/** The items (and hands) an action takes as parameters. */
function itemParams(s: LState, c: LCombatant, d: ActionDef, params: NonNullable<ActionOption['params']>): void {
  if (['drop', 'swap-hands', 'draw', 'offer-from-inventory', 'give-into-inventory'].includes(d.key)) {
    const held = d.key === 'drop' || d.key === 'swap-hands';
    const options = c.items.filter((i) => (held ? inHand(i) : i.location === 'carried')).map((i) => i.id);
    params.push({ name: 'itemId', kind: 'item', options, optional: d.key === 'drop' });
  }
  if (d.key === 'melee-attack' || d.key === 'ranged-attack') {
    const kind = d.key === 'melee-attack' ? 'melee' : 'ranged';
    params.push({ name: 'weaponId', kind: 'item', options: attackWeapons(c, kind).map((i) => i.id), optional: kind === 'melee' });
  }
  if (d.key === 'inventory') params.push({ name: 'ops', kind: 'list' });
  if (d.key === 'stow-for-ally') {
    const fallen = Object.values(s.combatants)
      .filter((x) => !isEnemy(c, x))
      .flatMap((x) => x.items.filter((i) => i.location === 'ground' && droppedInfo(i)?.fallen).map((i) => i.id));
    params.push({ name: 'itemId', kind: 'item', options: fallen });
  }
  if (d.key === 'swap-hands') params.push({ name: 'hand', kind: 'choice', options: ['left-hand', 'right-hand', 'both-hands'] });
}

/** Ending the turn, forfeiting it to change turn order, offering an item in hand. */
function turnOptions(s: LState, c: LCombatant, out: ActionOption[]): void {
  const id = c.id;
  const template = { combatantId: id };
  const own = checkOwnTurn(s, id);
  out.push({ command: 'turn.end', label: 'End your turn', kind: 'turn', template, rule: RULE.turns, ...block(!own, own) });
  const forfeit = checkForfeit(s, c);
  const label = 'Forfeit this turn to change turn order next round';
  out.push({ command: 'forfeitTurn', label, kind: 'turn', template, rule: RULE.turnOrderChange, ...block(!forfeit, forfeit) });
  const g = posOf(c).group;
  if (!g || !c.items.some(inHand)) return;
  const mates = membersOfGroup(s, g)
    .filter((m) => m.id !== id)
    .map((m) => m.id);
  out.push({
    command: 'offerItem',
    label: 'Offer an item in your hand',
    kind: 'none',
    params: [
      { name: 'itemId', kind: 'item', options: c.items.filter(inHand).map((i) => i.id) },
      { name: 'toId', kind: 'combatant', options: mates },
    ],
    template,
    rule: RULE.giving,
    allowed: mates.length > 0,
  });
}
