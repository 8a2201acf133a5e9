import { ruleError, type EngineError } from '@fray/engine';
import { findAction, INVENTORY_CHOICE, RULE, type ActInput } from '../catalogue.js';
import { freeHands, hasCond, isProtected, opts, type ActionDef, type ActionKind, type LCombatant, type LState } from '../state/index.js';
import { checkSpecific } from './specific.js';
import { checkTarget } from './targets.js';
import { notYourTurn, turnEnded } from './turns.js';

/** Every "why not" of `act`: the phase and the turn, consciousness, the action budgets, the extra action types. */

/** The first checks of `act`, which do not depend on the action: the phase, the turn, group defense. */
export function actGate(state: LState, c: LCombatant): EngineError | null {
  if (state.clock.phase !== 'action') {
    return ruleError(
      'WRONG_PHASE',
      'legends.movement-phase',
      '"Actions may not occur at any point during the movement phase - not even free actions."',
    );
  }
  if (state.clock.current !== c.id) return notYourTurn(state, c);
  if (state.rs.overflow.length > 0) {
    return ruleError(
      'ILLEGAL_ACTION',
      'legends.group-defense.fallen-defenders',
      `Too many characters are defended in group ${state.rs.overflow.join(', ')}: "the group must immediately choose who to prioritize and keep defending."`,
    );
  }
  return null;
}

/**
 * Everything that may forbid `act`, in rule order. `partial` skips the checks that depend on the
 * chosen target / item (legalActions lists those as parameters).
 */
export function checkAct(state: LState, a: ActInput, partial = false): EngineError | null {
  const c = state.combatants[a.combatantId];
  if (!c) return ruleError('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${a.combatantId}".`);
  const gate = actGate(state, c);
  if (gate) return gate;
  const d = findAction(state, c, a.action);
  if (!d) return ruleError('ILLEGAL_ACTION', RULE.actions, `${c.name} has no action "${a.action}".`);
  const kind: ActionKind = a.as ?? d.kinds[0]!;
  if (!d.kinds.includes(kind))
    return ruleError('INVALID_COMMAND', RULE.actions, `${d.name} is a ${d.kinds.join(' or ')} action, not ${kind}.`);
  const e =
    checkCondition(state, c, d, kind) ??
    checkBudget(state, c, d, kind) ??
    checkInventoryChoice(c, d, kind) ??
    checkActionTypes(state, c, d) ??
    checkSpecific(state, c, d, kind, a, partial);
  if (e || partial) return e;
  return checkTarget(state, c, d, a);
}

/** The turn is not over; consciousness and physical hindrance allow the action. */
function checkCondition(state: LState, c: LCombatant, d: ActionDef, kind: ActionKind): EngineError | null {
  const o = opts(state);
  if (c.data.turn.ended) return turnEnded(state, c);
  const down = hasCond(state, c.id, o.unconsciousConditions);
  if (down) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.purelyMental,
      `${c.name} is ${down}: purely mental actions "cannot occur when you are unconscious", nor can any other.`,
    );
  }
  const held = hasCond(state, c.id, o.immobilizedConditions);
  if (held && !d.tags.includes('purely-mental')) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.purelyMental,
      `${c.name} is ${held}: only purely mental actions "may be performed even if you are pinned, paralyzed, stabilized".`,
    );
  }
  if (c.data.carriedBy && kind === 'major') {
    return ruleError('ILLEGAL_ACTION', RULE.carrying, '"You may not do any major actions nor make any SPD rolls while being carried"');
  }
  return null;
}

/** The action budget: free actions (one of each type), one minor, one major, or a double minor instead of the major. */
function checkBudget(state: LState, c: LCombatant, d: ActionDef, kind: ActionKind): EngineError | null {
  const t = c.data.turn;
  if (kind === 'free') return checkFreeAction(state, c, d);
  if (kind === 'minor') {
    if (t.minors.length >= 2) return ruleError('BUDGET_EXHAUSTED', RULE.doubleMinor, 'Two minor actions already taken this turn.');
    if (t.minors.length === 1 && t.major !== null)
      return ruleError('BUDGET_EXHAUSTED', RULE.majorAction, 'The major action was already taken.');
    if (t.minors.length === 1 && t.minors[0] === d.key && !d.repeatable) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.doubleMinor,
        `"you cannot use this rule to do two minor actions of the same type": ${d.name} twice.`,
      );
    }
    return null;
  }
  if (t.minors.length >= 2) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.doubleMinor,
      '"you may give up your major action to perform a second minor action instead": the major action is gone.',
    );
  }
  return t.major !== null ? ruleError('BUDGET_EXHAUSTED', RULE.majorAction, 'One major action a turn.') : null;
}

/** Free actions: a second touch names the touch rule before the rule of free actions of the same type. */
function checkFreeAction(state: LState, c: LCombatant, d: ActionDef): EngineError | null {
  const t = c.data.turn;
  const o = opts(state);
  if (t.touched !== null && d.tags.includes('touch')) {
    const whom = state.combatants[t.touched]?.name ?? t.touched;
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.touch,
      `"you may only touch one character per turn": ${c.name} already touched ${whom} this turn.`,
    );
  }
  if (t.free.includes(d.key) && !d.repeatable) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.freeActions,
      `"you cannot do more than one free action of the same type": ${d.name} was already used this turn.`,
    );
  }
  if (o.maxFreeActionsPerTurn !== null && t.free.length >= o.maxFreeActionsPerTurn) {
    return ruleError('BUDGET_EXHAUSTED', RULE.freeActions, `At most ${o.maxFreeActionsPerTurn} free actions a turn (table option).`);
  }
  return null;
}

/** "Drawing or putting away items ... can be either a free, minor, or major action. You must choose one of the three." */
function checkInventoryChoice(c: LCombatant, d: ActionDef, kind: ActionKind): EngineError | null {
  if (!INVENTORY_CHOICE.includes(d.key)) return null;
  const t = c.data.turn;
  const used = [...t.free, ...t.minors, ...(t.major ? [t.major] : [])].find((k) => INVENTORY_CHOICE.includes(k));
  if (used && (used !== 'inventory' || d.key !== 'inventory' || kind !== 'major')) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.inventoryChooseOne,
      '"Drawing or putting away items ... can be either a free, minor, or major action. You must choose one of the three."',
    );
  }
  if (used === 'inventory' && d.key === 'inventory' && kind === 'major') {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.inventoryChooseOne,
      '"You must choose one of the three" (free, minor or major) for inventory actions.',
    );
  }
  return null;
}

/** The extra action types: verbal, slowing, needing free hands, melee attacks. */
function checkActionTypes(state: LState, c: LCombatant, d: ActionDef): EngineError | null {
  if (d.tags.includes('verbal')) {
    if (c.data.turn.verbal) return ruleError('BUDGET_EXHAUSTED', RULE.verbal, '"You can do only one verbal action per turn"');
    const mute = hasCond(state, c.id, ['deafened', 'silenced']);
    if (mute)
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.verbal,
        `${c.name} is ${mute}: "You cannot use verbal actions if you are deafened or prevented from speaking"`,
      );
  }
  if (d.tags.includes('slowing') && c.data.moveRollRound === state.clock.round) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.slowing,
      '"Slowing actions can only be performed if you did not attempt a movement roll during this round\'s movement phase."',
    );
  }
  const needHands = Math.max(d.hands, d.tags.includes('needs-free-hand') ? 1 : 0);
  if (needHands > 0 && freeHands(c) < needHands) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.freeHands,
      `${c.name} needs ${needHands} free hand(s): "you must put away or drop an object in order to do something that requires a free hand."`,
    );
  }
  if (!d.tags.includes('melee-attack')) return null;
  if (isProtected(state, c.id))
    return ruleError('ILLEGAL_ACTION', RULE.groupDefenseNoMelee, '"Protected characters cannot perform melee attacks themselves."');
  if (c.data.noMeleeUntilRound <= state.clock.round) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.groupDefenseNoMelee,
    '"If a character voluntarily leaves group defense ... they still cannot perform melee attacks until the next round."',
  );
}
