import { opts, type LCtx, type LState } from '../state/index.js';
import { emit } from '../events/index.js';
import { statRoll } from '../mechanics/dice.js';
import { beginActionPhase, beginRound } from './rounds.js';
import { END } from './durations.js';

/** The turn order: the d12 roll on DEX, ties by d2, and the decisions to move down in it. */

/** Sort ids best margin first; ties broken by d2 rolls (2 beats 1), re-rolled until resolved. */
function sortByMargin(ctx: LCtx, ids: string[], margins: Record<string, number>): string[] {
  const byMargin = new Map<number, string[]>();
  for (const id of ids) {
    const m = margins[id]!;
    const list = byMargin.get(m) ?? [];
    list.push(id);
    byMargin.set(m, list);
  }
  const out: string[] = [];
  for (const m of [...byMargin.keys()].sort((a, b) => b - a)) out.push(...breakTies(ctx, byMargin.get(m)!));
  return out;
}

function breakTies(ctx: LCtx, tied: string[]): string[] {
  if (tied.length < 2) return tied;
  let groups: string[][] = [tied];
  for (let guard = 0; guard < 20 && groups.some((g) => g.length > 1); guard++) {
    const next: string[][] = [];
    for (const g of groups) {
      if (g.length === 1) {
        next.push(g);
        continue;
      }
      const rolls = g.map((id) => ({ id, d: ctx.roll('1d2', 'turn order tie (d2)', { combatantId: id }).total }));
      const hi = rolls.filter((r) => r.d === 2).map((r) => r.id);
      const lo = rolls.filter((r) => r.d === 1).map((r) => r.id);
      if (hi.length > 0) next.push(hi);
      if (lo.length > 0) next.push(lo);
    }
    groups = next;
  }
  return groups.flat();
}

export function rollTurnOrder(ctx: LCtx): void {
  const s = ctx.state;
  const ids = Object.keys(s.combatants).sort();
  const margins: Record<string, number> = {};
  for (const id of ids) {
    // "all characters roll a d12 on DEX ... The reactive +TN from using Willpower cannot be used"
    margins[id] = statRoll(ctx, { combatantId: id, stat: 'DEX', purpose: 'turn order roll (d12 on DEX)' }).margin;
  }
  const awake = ids.filter((id) => !s.combatants[id]!.data.surprised);
  const surprised = ids.filter((id) => s.combatants[id]!.data.surprised);
  // "surprised characters are moved below all non-surprised characters in turn order.
  //  They still make turn order rolls to determine the order amongst themselves."
  const order = [...sortByMargin(ctx, awake, margins), ...sortByMargin(ctx, surprised, margins)];
  emit(ctx, { type: 'legends.turnOrderRolled', margins, order });
  setOrder(ctx, order);
  if (opts(s).initialTurnOrderDecisions && order.length > 1) {
    // "This decision begins with the second-to-last character ... and proceeds up the list"
    const queue = order.slice(0, -1).reverse();
    emit(ctx, { type: 'legends.queue', queue });
    ctx.emit({ type: 'clock.changed', round: 1, phase: 'turn-order', current: queue[0] ?? null });
  } else {
    beginRound(ctx, 1);
  }
}

/** "Characters are adjacent in turn order if no other characters are between them in the turn order list." */
export function adjacentInOrder(state: LState, a: string, b: string): boolean {
  const i = state.clock.order.indexOf(a);
  const j = state.clock.order.indexOf(b);
  return i >= 0 && j >= 0 && Math.abs(i - j) === 1;
}

export function setOrder(ctx: LCtx, order: string[]): void {
  ctx.emit({ type: 'clock.changed', order });
  emit(ctx, { type: 'legends.orderSet', order });
}

export function moveInOrder(ctx: LCtx, id: string, index: number): void {
  const order = ctx.state.clock.order;
  const from = order.indexOf(id);
  const rest = order.filter((x) => x !== id);
  rest.splice(index, 0, id);
  if (rest.join() === order.join()) return;
  // durations keep the original position: re-anchor to whoever followed in the old order
  const successor = order[from + 1] ?? END;
  emit(ctx, { type: 'legends.turnOrderChanged', combatantId: id, from, to: index, order: rest, successor });
  setOrder(ctx, rest);
}

/** after a turn-order / reorder decision: the next decider, or go on */
export function nextDecision(ctx: LCtx): void {
  const q = ctx.state.rs.queue.slice(1);
  emit(ctx, { type: 'legends.queue', queue: q });
  if (q.length > 0) {
    ctx.emit({ type: 'clock.changed', current: q[0] });
    return;
  }
  if (ctx.state.clock.phase === 'turn-order') beginRound(ctx, 1);
  else beginActionPhase(ctx);
}
