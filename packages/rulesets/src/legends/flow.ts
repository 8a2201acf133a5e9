import { expireEffects, type Effect, type EngineError } from '@fray/engine';
import { groupIds, isDown, opts, statRoll, type LCtx, type LState } from './model.js';

/**
 * Rounds, phases, turn order and durations.
 *
 * Phases (clock.phase): `turn-order` (the initial move-down decisions), `movement`,
 * `group-defense` (the end of the movement phase), `reorder` (forfeited turns choose a new
 * place), `action`.
 */

export type Marker =
  | { at: 'turn-start' | 'turn-end'; round: number; anchor: string }
  | { at: 'round-end'; round: number }
  | { at: 'movement'; round: number };

/** the anchor meaning "the end of the action phase" */
export const END = '#end';

// ---------------------------------------------------------------------------------------------
// Turn order roll
// ---------------------------------------------------------------------------------------------

/** Sort ids best margin first; ties broken by d2 rolls (2 beats 1), re-rolled until resolved. */
export function sortByMargin(ctx: LCtx, ids: string[], margins: Record<string, number>): string[] {
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
  ctx.emit({ type: 'legends.turnOrderRolled', margins, order });
  setOrder(ctx, order);
  if (opts(s).initialTurnOrderDecisions && order.length > 1) {
    // "This decision begins with the second-to-last character ... and proceeds up the list"
    const queue = order.slice(0, -1).reverse();
    ctx.emit({ type: 'legends.queue', queue });
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
  ctx.emit({ type: 'legends.orderSet', order });
}

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

export function moveInOrder(ctx: LCtx, id: string, index: number): void {
  const order = ctx.state.clock.order;
  const from = order.indexOf(id);
  const rest = order.filter((x) => x !== id);
  rest.splice(index, 0, id);
  if (rest.join() === order.join()) return;
  // durations keep the original position: re-anchor to whoever followed in the old order
  const successor = order[from + 1] ?? END;
  ctx.emit({ type: 'legends.turnOrderChanged', combatantId: id, from, to: index, order: rest, successor });
  setOrder(ctx, rest);
}

/** after a turn-order / reorder decision: the next decider, or go on */
export function nextDecision(ctx: LCtx): void {
  const q = ctx.state.rs.queue.slice(1);
  ctx.emit({ type: 'legends.queue', queue: q });
  if (q.length > 0) {
    ctx.emit({ type: 'clock.changed', current: q[0] });
    return;
  }
  if (ctx.state.clock.phase === 'turn-order') beginRound(ctx, 1);
  else beginActionPhase(ctx);
}

// ---------------------------------------------------------------------------------------------
// Rounds and phases
// ---------------------------------------------------------------------------------------------

function expireAt(ctx: LCtx, pred: (m: Marker) => boolean): void {
  expireEffects(ctx as never, (e: Effect) => e.expires !== null && typeof e.expires === 'object' && pred(e.expires as Marker));
}

export function beginRound(ctx: LCtx, round: number): void {
  const s = ctx.state;
  ctx.emit({ type: 'legends.roundBegan', round });
  ctx.emit({ type: 'clock.changed', round, phase: 'movement', current: null });
  // "ticks down at the beginning of every movement phase"; stale turn markers go too
  expireAt(ctx, (m) => (m.at === 'movement' && m.round <= round) || (m.at !== 'movement' && m.round < round));
  let movers: string[];
  const order = s.clock.order;
  // carried characters move with their carrier, riders with their mount
  const able = (id: string) => {
    const c = s.combatants[id]!;
    return !c.data.carriedBy && !(c.stats.mountId && s.combatants[c.stats.mountId]) && !isDown(s, id);
  };
  if (round === 1) {
    // "There is no movement phase during the first round of combat ... The only exception ... is
    //  when an entire side is surprised ... the non-surprised side receives a movement phase"
    const sides = [...new Set(order.map((id) => s.combatants[id]!.side))];
    const fully = sides.filter((side) => order.filter((id) => s.combatants[id]!.side === side).every((id) => s.combatants[id]!.data.surprised));
    movers = fully.length > 0 ? order.filter((id) => !fully.includes(s.combatants[id]!.side) && !s.combatants[id]!.data.surprised && able(id)) : [];
  } else {
    movers = order.filter(able);
  }
  ctx.emit({ type: 'legends.movementPhase', round, movers });
  if (movers.length === 0) {
    endMovementPhase(ctx);
    return;
  }
  ctx.emit({ type: 'legends.queue', queue: movers });
  ctx.emit({ type: 'clock.changed', current: movers[0] });
}

/** "Which characters or objects are defended via group defense must be decided at the end of the movement phase." */
export function endMovementPhase(ctx: LCtx): void {
  const s = ctx.state;
  ctx.emit({ type: 'legends.movementEnded' });
  if (Object.keys(s.rs.defense).length > 0 || s.rs.overflow.length > 0) ctx.emit({ type: 'legends.groupDefenseReset' });
  const groups = groupIds(s);
  if (groups.length > 0 && (s.clock.round > 1 || opts(s).firstRoundGroupDefense)) {
    ctx.emit({ type: 'legends.queue', queue: groups });
    ctx.emit({ type: 'clock.changed', phase: 'group-defense', current: null });
    return;
  }
  afterGroupDefense(ctx);
}

export function afterGroupDefense(ctx: LCtx): void {
  const s = ctx.state;
  const forfeits = s.rs.forfeits.filter((id) => s.clock.order.includes(id));
  if (forfeits.length > 0) {
    // "those who were previously earlier in turn order decide last"
    const queue = [...forfeits].sort((a, b) => s.clock.order.indexOf(b) - s.clock.order.indexOf(a));
    ctx.emit({ type: 'legends.queue', queue });
    ctx.emit({ type: 'legends.forfeitsCleared' });
    ctx.emit({ type: 'clock.changed', phase: 'reorder', current: queue[0] });
    return;
  }
  beginActionPhase(ctx);
}

export function beginActionPhase(ctx: LCtx): void {
  ctx.emit({ type: 'legends.queue', queue: [] });
  ctx.emit({ type: 'clock.changed', phase: 'action', current: null });
  startTurnAt(ctx, 0);
}

/** Start the turn of order[index] (skipping those who cannot act); past the end, the round ends. */
export function startTurnAt(ctx: LCtx, index: number): void {
  // nobody left in the order: the round cannot go on (the GM adds someone or ends combat)
  if (ctx.state.clock.order.length === 0) return;
  for (let i = index; ; i++) {
    const s = ctx.state;
    const id = s.clock.order[i];
    if (id === undefined) {
      endRound(ctx);
      return;
    }
    ctx.emit({ type: 'legends.turnBegan', combatantId: id, round: s.clock.round });
    ctx.emit({ type: 'clock.changed', current: id });
    // "ends right before the character's next turn in the action phase"
    expireAt(ctx, (m) => m.at === 'turn-start' && m.anchor === id && m.round <= s.clock.round);
    if (!(opts(s).skipIncapacitatedTurns && isDown(s, id))) return;
    // when nobody at all can act, the turns are not skipped (rounds would follow one another forever)
    if (s.clock.order.every((x) => isDown(s, x))) return;
    finishTurn(ctx, id, 'skipped');
  }
}

/** The end of `id`'s turn: its end-of-turn durations, then the next turn. */
export function endTurn(ctx: LCtx, id: string, reason: string): void {
  finishTurn(ctx, id, reason);
  const i = ctx.state.clock.order.indexOf(id);
  startTurnAt(ctx, i + 1);
}

function finishTurn(ctx: LCtx, id: string, reason: string): void {
  const s = ctx.state;
  expireAt(ctx, (m) => m.at === 'turn-end' && m.anchor === id && m.round <= s.clock.round);
  ctx.emit({ type: 'legends.turnEnded', combatantId: id, reason });
}

export function endRound(ctx: LCtx): void {
  const r = ctx.state.clock.round;
  expireAt(ctx, (m) => (m.at === 'round-end' && m.round <= r) || (m.at === 'turn-start' && m.anchor === END && m.round <= r));
  ctx.emit({ type: 'legends.roundEnded', round: r });
  beginRound(ctx, r + 1);
}

// ---------------------------------------------------------------------------------------------
// Durations
// ---------------------------------------------------------------------------------------------

/**
 * "that countdown starts from the acting character's turn during the action phase, and ticks
 * down when it reaches the same place in turn order next round ... If a duration begins during
 * the movement phase, that countdown starts from the current movement phase, and ticks down at
 * the beginning of every movement phase."
 *
 * Units: round(s) / turn(s) (anchored to the acting character), start-of-turn and end-of-turn
 * (anchored to the effect's target: "the beginning or end of a certain character's turn"),
 * end-of-round, movement-phase(s), second(s) (5 seconds a round). Anything else lasts until removed.
 */
export function effectExpiry(state: LState, effect: Effect): Marker | null {
  const d = effect.duration;
  if (!d) return null;
  const { round, phase, current } = state.clock;
  const n = d.count;
  const unit = d.unit.toLowerCase().replace(/s$/, '');
  const rounds = unit === 'second' ? Math.ceil(n / 5) : n;
  const inTurn = phase === 'action' && current !== null;
  switch (unit) {
    case 'round':
    case 'turn':
    case 'second':
      return inTurn ? { at: 'turn-start', round: round + rounds, anchor: current } : { at: 'movement', round: round + rounds };
    case 'movement-phase':
      return { at: 'movement', round: round + n };
    case 'end-of-round':
      return { at: 'round-end', round: round + n - 1 };
    case 'start-of-turn':
    case 'end-of-turn': {
      const anchor = effect.targetId ?? current;
      if (!anchor) return { at: 'round-end', round: round + n - 1 };
      const c = state.combatants[anchor];
      // has the anchor's turn already begun this round?
      const begun = phase === 'action' && c !== undefined && c.data.turnRound === round;
      const ownTurnNow = current === anchor && phase === 'action';
      if (unit === 'start-of-turn') return { at: 'turn-start', anchor, round: round + n - 1 + (begun ? 1 : 0) };
      const done = begun && !ownTurnNow;
      return { at: 'turn-end', anchor, round: round + n - 1 + (done ? 1 : 0) };
    }
    default:
      return null;
  }
}
