import { ruleError, type EngineError } from '@fray/engine';
import { RULE, type ActionDef } from '../catalogue/index.js';
import { checkActNow, checkDelay, checkReadiedTrigger, checkReaction, checkSlam, checkSpendWhileDown, checkTalk } from '../checks/index.js';
import { variableRuling } from '../mechanics/rulings.js';
import { isSlot, type View } from './view.js';

/** What an action's type asks before anything else: the reaction window, the turn, the budget, the reaction. */

const OFF_TURN_FREE = new Set([
  'talk',
  'spend-coup',
  'spend-edit-scene',
  'spend-improve-roll',
  'spend-inspiration',
  'spend-recover',
  'spend-stunt',
]);
const TRIGGERED = new Set(['opportunity-attack', 'counter-stunt', 'readied']);
const ON_OWN_CHECK = new Set(['smash', 'slam', 'raise', 'hunch']);

/** While a reaction window is open, only the commands it asks of this combatant. */
export function windowBlock(v: View, command: string): EngineError | null {
  const w = v.w;
  if (!w || (w.allowed.includes(command) && w.responses[v.c.id] === 'pending')) return null;
  return ruleError('REACTION_PENDING', RULE.reactions, `Waiting for reactions (${w.kind}).`);
}

function reactionBlock(v: View, def: ActionDef): EngineError | null {
  const { s, o, c, w } = v;
  if (TRIGGERED.has(def.id)) {
    if (w && w.allowed.includes(def.command) && w.responses[c.id] === 'pending') return null;
    if (def.id === 'readied') return checkReadiedTrigger(s, c);
    const rule = def.id === 'opportunity-attack' ? RULE.opportunityAttack : RULE.counterStunt;
    return ruleError('ILLEGAL_ACTION', rule, 'Only when triggered: "you react in response to something else happening".');
  }
  const r = checkReaction(s, o, c) ?? (ON_OWN_CHECK.has(def.id) ? v.turn : null);
  return r ?? (def.id === 'slam' ? checkSlam(s, c) : null);
}

/** The turn, the budget and the reaction: what the action's type asks. */
export function budgetBlock(v: View, def: ActionDef): EngineError | null {
  const { s, o, c } = v;
  const t = def.type;
  if (isSlot(t)) {
    const b = v.budget[t];
    return v.continuing === def.id && b?.code === 'BUDGET_EXHAUSTED' ? null : b;
  }
  if (t === 'free') {
    if (def.id === 'talk') return checkTalk(s, c);
    if (OFF_TURN_FREE.has(def.id)) return checkSpendWhileDown(s, c, def.id.slice('spend-'.length));
    return v.budget.free;
  }
  if (t === 'reaction') return reactionBlock(v, def);
  if (def.id === 'delay') return checkDelay(s, c);
  if (def.id === 'act-now') return checkActNow(s, c);
  if (def.id === 'resistance-check') return v.turn;
  if (t === 'varies') {
    const vt = def.id === 'load' ? o.variableActionDefault : variableRuling(s, o, def.id === 'use-skill' ? 'skill:*' : 'tool:*').type;
    return v.turn ?? (isSlot(vt) ? v.budget[vt] : null);
  }
  return null;
}
