import { ruleError, type EngineError } from '@fray/engine';
import { findAction, INVENTORY_CHOICE, type ActInput } from '../catalogue.js';
import { freeHands, hasCond, isProtected, opts, type ActionKind, type LCombatant, type LState } from '../state/index.js';
import { checkSpecific } from './specific.js';
import { checkTarget } from './targets.js';

/** Every "why not" of `act`: the phase and the turn, consciousness, the action budgets, the extra action types. */



/** The first checks of `act`, which do not depend on the action: the phase, the turn, group defense. */
export function actGate(state: LState, c: LCombatant): EngineError | null {
  if (state.clock.phase !== 'action') {
    return ruleError('WRONG_PHASE', 'legends.movement-phase', '"Actions may not occur at any point during the movement phase - not even free actions."');
  }
  if (state.clock.current !== c.id) return ruleError('NOT_YOUR_TURN', 'legends.turns', `It is not ${c.name}'s turn: "Each character takes their turn in the sequence determined by the turn order list."`);
  if (state.rs.overflow.length > 0) {
    return ruleError('ILLEGAL_ACTION', 'legends.group-defense.fallen-defenders', `Too many characters are defended in group ${state.rs.overflow.join(', ')}: "the group must immediately choose who to prioritize and keep defending."`);
  }
  return null;
}

/**
 * Everything that may forbid `act`, in rule order. `partial` skips the checks that depend on the
 * chosen target / item (legalActions lists those as parameters).
 */
export function checkAct(state: LState, a: ActInput, partial = false): EngineError | null {
  const o = opts(state);
  const c = state.combatants[a.combatantId];
  if (!c) return ruleError('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${a.combatantId}".`);
  const gate = actGate(state, c);
  if (gate) return gate;
  const d = findAction(state, c, a.action);
  if (!d) return ruleError('ILLEGAL_ACTION', 'legends.actions', `${c.name} has no action "${a.action}".`);
  const kind: ActionKind = a.as ?? d.kinds[0]!;
  if (!d.kinds.includes(kind)) return ruleError('INVALID_COMMAND', 'legends.actions', `${d.name} is a ${d.kinds.join(' or ')} action, not ${kind}.`);
  const t = c.data.turn;
  if (t.ended) return ruleError('BUDGET_EXHAUSTED', 'legends.major-action', '"After undertaking one major action, your turn is over."');

  // consciousness and physical hindrance
  const down = hasCond(state, c.id, o.unconsciousConditions);
  if (down) return ruleError('ILLEGAL_ACTION', 'legends.purely-mental', `${c.name} is ${down}: purely mental actions "cannot occur when you are unconscious", nor can any other.`);
  const held = hasCond(state, c.id, o.immobilizedConditions);
  if (held && !d.tags.includes('purely-mental')) {
    return ruleError('ILLEGAL_ACTION', 'legends.purely-mental', `${c.name} is ${held}: only purely mental actions "may be performed even if you are pinned, paralyzed, stabilized".`);
  }
  if (c.data.carriedBy && kind === 'major') return ruleError('ILLEGAL_ACTION', 'legends.carrying', '"You may not do any major actions nor make any SPD rolls while being carried"');

  // budgets
  if (kind === 'free') {
    if (t.free.includes(d.key) && !d.repeatable) {
      return ruleError('BUDGET_EXHAUSTED', 'legends.free-actions', `"you cannot do more than one free action of the same type": ${d.name} was already used this turn.`);
    }
    if (o.maxFreeActionsPerTurn !== null && t.free.length >= o.maxFreeActionsPerTurn) {
      return ruleError('BUDGET_EXHAUSTED', 'legends.free-actions', `At most ${o.maxFreeActionsPerTurn} free actions a turn (table option).`);
    }
  } else if (kind === 'minor') {
    if (t.minors.length >= 2) return ruleError('BUDGET_EXHAUSTED', 'legends.double-minor', 'Two minor actions already taken this turn.');
    if (t.minors.length === 1) {
      if (t.major !== null) return ruleError('BUDGET_EXHAUSTED', 'legends.major-action', 'The major action was already taken.');
      if (t.minors[0] === d.key && !d.repeatable) {
        return ruleError('ILLEGAL_ACTION', 'legends.double-minor', `"you cannot use this rule to do two minor actions of the same type": ${d.name} twice.`);
      }
    }
  } else {
    if (t.minors.length >= 2) return ruleError('BUDGET_EXHAUSTED', 'legends.double-minor', '"you may give up your major action to perform a second minor action instead": the major action is gone.');
    if (t.major !== null) return ruleError('BUDGET_EXHAUSTED', 'legends.major-action', 'One major action a turn.');
  }
  if (INVENTORY_CHOICE.includes(d.key)) {
    const used = [...t.free, ...t.minors, ...(t.major ? [t.major] : [])].find((k) => INVENTORY_CHOICE.includes(k));
    if (used && (used !== 'inventory' || d.key !== 'inventory' || kind !== 'major')) {
      return ruleError('ILLEGAL_ACTION', 'legends.inventory.choose-one', '"Drawing or putting away items ... can be either a free, minor, or major action. You must choose one of the three."');
    }
    if (used === 'inventory' && d.key === 'inventory' && kind === 'major') {
      return ruleError('ILLEGAL_ACTION', 'legends.inventory.choose-one', '"You must choose one of the three" (free, minor or major) for inventory actions.');
    }
  }

  // extra action types
  if (d.tags.includes('verbal')) {
    if (t.verbal) return ruleError('BUDGET_EXHAUSTED', 'legends.verbal', '"You can do only one verbal action per turn"');
    const mute = hasCond(state, c.id, ['deafened', 'silenced']);
    if (mute) return ruleError('ILLEGAL_ACTION', 'legends.verbal', `${c.name} is ${mute}: "You cannot use verbal actions if you are deafened or prevented from speaking"`);
  }
  if (d.tags.includes('slowing') && c.data.moveRollRound === state.clock.round) {
    return ruleError('ILLEGAL_ACTION', 'legends.slowing', '"Slowing actions can only be performed if you did not attempt a movement roll during this round\'s movement phase."');
  }
  const needHands = Math.max(d.hands, d.tags.includes('needs-free-hand') ? 1 : 0);
  if (needHands > 0 && freeHands(c) < needHands) {
    return ruleError('ILLEGAL_ACTION', 'legends.free-hands', `${c.name} needs ${needHands} free hand(s): "you must put away or drop an object in order to do something that requires a free hand."`);
  }
  if (d.tags.includes('melee-attack')) {
    if (isProtected(state, c.id)) return ruleError('ILLEGAL_ACTION', 'legends.group-defense.no-melee', '"Protected characters cannot perform melee attacks themselves."');
    if (c.data.noMeleeUntilRound > state.clock.round) {
      return ruleError('ILLEGAL_ACTION', 'legends.group-defense.no-melee', '"If a character voluntarily leaves group defense ... they still cannot perform melee attacks until the next round."');
    }
  }
  // action-specific requirements that do not depend on the chosen target
  const specific = checkSpecific(state, c, d, kind, a, partial);
  if (specific) return specific;
  if (partial) return null;
  return checkTarget(state, c, d, a);
}
