import { ruleError, type EngineError } from '@fray/engine';
import type { LState } from '../state/index.js';

/** Turn order changes. */

/**
 * "you cannot move in between the adjacent turns of two enemies". Returns an error or null for
 * moving `id` to `index` of the list without it.
 */
export function checkReorder(state: LState, id: string, index: number, initial: boolean): EngineError | null {
  const order = state.clock.order;
  const from = order.indexOf(id);
  const rest = order.filter((x) => x !== id);
  if (index < 0 || index > rest.length) {
    return { code: 'INVALID_COMMAND', rule: 'legends.turn-order.change', message: `Position ${index} is outside the turn order list.` };
  }
  if (initial && index < from) {
    return {
      code: 'ILLEGAL_ACTION',
      rule: 'legends.turn-order.initial',
      message: 'Immediately after the turn order list is made, characters may only "voluntarily move downward in the list".',
    };
  }
  const me = state.combatants[id]!;
  const before = rest[index - 1];
  const after = rest[index];
  if (before !== undefined && after !== undefined && index !== from) {
    const b = state.combatants[before]!;
    const a = state.combatants[after]!;
    if (b.side !== me.side && a.side !== me.side) {
      return {
        code: 'ILLEGAL_ACTION',
        rule: 'legends.turn-order.adjacent-enemies',
        message: `A change in turn order "cannot be used to interrupt adjacent enemy turns": ${b.name} and ${a.name} are adjacent enemies.`,
      };
    }
  }
  return null;
}

/** `turn.end`: only the acting combatant's own turn in the action phase. */
export function checkEndTurn(s: LState, id: string): EngineError | null {
  if (s.clock.phase !== 'action' || s.clock.current !== id) {
    return ruleError('NOT_YOUR_TURN', 'legends.turns', `It is not ${s.combatants[id]?.name ?? id}'s turn in the action phase.`);
  }
  return null;
}
