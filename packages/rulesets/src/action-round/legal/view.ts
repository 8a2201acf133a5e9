import type { ActionOption, EngineError, ParamSpec, ReactionWindow } from '@fray/engine';
import { checkBudget, checkTurn } from '../checks/index.js';
import { threatenersOf } from '../mechanics/threat.js';
import type { Options } from '../options.js';
import { optionsOf, slotFor, type C, type Slot, type State } from '../state/index.js';

/** What every option of one combatant shares, found once a `legalActions` call, and the helpers the options use. */

export type Provokes = ActionOption['provokes'];
/** What every option of one combatant shares. */
export interface View {
  s: State;
  o: Options;
  c: C;
  w: ReactionWindow | null;
  others: C[];
  /** the ids of those who threaten this combatant's square */
  threateners: string[];
  movementProvokes: Provokes;
  oaProvokes: Provokes;
  /** an open move action of this mode continues without a new slot */
  continuing: string | null;
  /** checkTurn, asked once a call: every action on one's turn shares it */
  turn: EngineError | null;
  /** checkBudget for each slot and free, asked once a call */
  budget: Record<Slot | 'free', EngineError | null>;
}
/** An option's answer once its type allows it: what blocks it, whom it provokes, its parameters. */
export interface Shape {
  blocked: EngineError | null;
  provokes: Provokes;
  params: ParamSpec[] | undefined;
}

export const names = (xs: { id: string }[]): string[] => xs.map((x) => x.id);
export const isSlot = (t: string): t is 'standard' | 'move' | 'quick' => t === 'standard' || t === 'move' || t === 'quick';

/** One action of the type, as a cost (a fresh object with a literal key: an object with a computed key is slow to build). */
function unitCost(type: string): Record<string, number> | undefined {
  switch (type) {
    case 'standard':
      return { standard: 1 };
    case 'move':
      return { move: 1 };
    case 'quick':
      return { quick: 1 };
    case 'free':
      return { free: 1 };
    case 'reaction':
      return { reaction: 1 };
  }
  return undefined;
}

export function costOf(c: C, type: string): Record<string, number> | undefined {
  return unitCost(isSlot(type) ? (slotFor(c.data, type) ?? type) : type);
}

/** The budget of each slot and of a free action, the turn first: what `checkBudget` answers, once a call. */
function budgets(s: State, c: C, turn: EngineError | null): View['budget'] {
  if (turn) return { standard: turn, move: turn, quick: turn, free: turn };
  return {
    standard: checkBudget(s, c, 'standard'),
    move: checkBudget(s, c, 'move'),
    quick: checkBudget(s, c, 'quick'),
    free: checkBudget(s, c, 'free'),
  };
}

/** The view of `c` on `s`: who threatens it, what its options share, the turn and budget answers. */
export function viewOf(s: State, c: C): View {
  const o = optionsOf(s);
  const from = names(threatenersOf(s, o, c));
  const move = c.data.move;
  const turn = checkTurn(s, c);
  return {
    s,
    o,
    c,
    w: s.reaction,
    others: Object.values(s.combatants).filter((x) => x.id !== c.id),
    threateners: from,
    movementProvokes: from.length ? { from, reason: 'leaving a threatened square' } : null,
    oaProvokes: from.length ? { from, reason: 'an [OA] action in a threatened square' } : null,
    continuing: move && move.remaining > 0 && !move.afterStandard ? `move-${move.mode}` : null,
    turn,
    budget: budgets(s, c, turn),
  };
}
