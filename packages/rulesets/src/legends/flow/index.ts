import type { ReactionWindow, RollRecord } from '@fray/engine';
import { checkOverflow } from '../commands/consequences.js';
import { emit } from '../events/index.js';
import { judge, statRoll } from '../mechanics/dice.js';
import { clone, opts, type LCombatant, type LCtx } from '../state/index.js';
import { END } from './durations.js';
import { endTurn, beginActionPhase, beginRound, continueMovement, startTurnAt, watchedBy } from './rounds.js';
import { setOrder } from './order.js';
import { ensure } from '@fray/engine';
import { checkOwnTurn } from '../checks/turns.js';

export { effectExpiry } from './durations.js';
export { rollTurnOrder as startCombat, adjacentInOrder } from './order.js';

/** The acting combatant (or the GM for it) ends its turn (`turn.end`). */
export function endTurnCommand(ctx: LCtx, id: string): void {
  ensure(checkOwnTurn(ctx.state, id));
  endTurn(ctx, id, 'ended');
}

/** A late arrival makes its turn order roll and takes its place by margin. */
export function onCombatantAdded(ctx: LCtx, id: string): void {
  const s = ctx.state;
  if (s.status !== 'active') return;
  const margin = statRoll(ctx, { combatantId: id, stat: 'DEX', purpose: 'turn order roll (d12 on DEX), joining combat' }).margin;
  emit(ctx, { type: 'legends.turnOrderRolled', margins: { [id]: margin }, order: null });
  const order = s.clock.order.filter((x) => x !== id);
  let at = order.findIndex((x) => s.combatants[x]!.data.surprised || (s.rs.turnRolls[x] ?? 0) < margin);
  if (at < 0) at = order.length;
  order.splice(at, 0, id);
  setOrder(ctx, order);
}

/** Someone left: durations anchored to them move to their successor, and the phase goes on without them. */
export function onCombatantRemoved(ctx: LCtx, removed: LCombatant): void {
  const s = ctx.state;
  if (s.status !== 'active') return;
  const last = s.rs.lastOrder;
  const i = last.indexOf(removed.id);
  const successor = last.slice(i + 1).find((x) => s.clock.order.includes(x)) ?? END;
  emit(ctx, { type: 'legends.reanchored', from: removed.id, to: successor });
  emit(ctx, { type: 'legends.orderSet', order: [...s.clock.order] });
  const hadQueue = s.rs.queue.length > 0;
  emit(ctx, { type: 'legends.queue', queue: s.rs.queue.filter((x) => x !== removed.id) });
  for (const p of s.rs.pending.filter((x) => x.combatantId === removed.id))
    emit(ctx, { type: 'legends.moveFinished', combatantId: p.combatantId });
  emit(ctx, { type: 'legends.normalized' });
  const phase = s.clock.phase;
  if (phase === 'action' && s.clock.current === null)
    startTurnAt(ctx, successor === END ? s.clock.order.length : s.clock.order.indexOf(successor));
  else if (phase === 'movement') continueMovement(ctx);
  else if ((phase === 'turn-order' || phase === 'reorder') && hadQueue && s.rs.queue.length === 0) {
    if (phase === 'turn-order') beginRound(ctx, 1);
    else beginActionPhase(ctx);
  } else if ((phase === 'turn-order' || phase === 'reorder') && s.rs.queue[0]) ctx.emit({ type: 'clock.changed', current: s.rs.queue[0] });
  checkOverflow(ctx);
}

/** The GM changed a roll: a pending movement roll's margin follows; a turn order roll remakes the list if nobody decided yet. */
export function onRollOverridden(ctx: LCtx, roll: RollRecord, previousTotal: number): void {
  const s = ctx.state;
  const o = opts(s);
  const p = s.rs.pending.find((x) => x.rollId === roll.id && !x.finished);
  if (p) {
    const delta = roll.total - previousTotal;
    const margin = o.rollMechanic === 'roll-under' ? p.margin - delta : p.margin + delta;
    emit(ctx, {
      type: 'legends.moveUpdated',
      combatantId: p.combatantId,
      pending: { ...clone(p), total: roll.total, margin, success: margin >= 0 },
      overridden: true,
    });
    return;
  }
  // a turn order roll, before anyone decided anything: the list is made again (ties keep their d2 order)
  if (roll.purpose.startsWith('turn order roll') && roll.combatantId && s.clock.round === 1 && s.clock.phase === 'turn-order') {
    const c = s.combatants[roll.combatantId];
    if (!c || s.rs.queue.length !== Math.max(0, s.clock.order.length - 1)) return;
    const margin = judge(o, c.stats.DEX, roll.total, 0, 0).margin;
    const margins = { ...s.rs.turnRolls, [c.id]: margin };
    const old = s.clock.order;
    const order = [...old].sort((a, b) => {
      const sa = s.combatants[a]!.data.surprised ? 1 : 0;
      const sb = s.combatants[b]!.data.surprised ? 1 : 0;
      return sa - sb || margins[b]! - margins[a]! || old.indexOf(a) - old.indexOf(b);
    });
    emit(ctx, { type: 'legends.turnOrderRolled', margins: { [c.id]: margin }, order });
    setOrder(ctx, order);
    const queue = order.slice(0, -1).reverse();
    emit(ctx, { type: 'legends.queue', queue });
    ctx.emit({ type: 'clock.changed', current: queue[0] ?? null });
  }
}

/** The reactive movement window closed: the prepared reactions it answered are spent, and the movement phase goes on. */
export function onReactionClosed(ctx: LCtx, w: ReactionWindow): void {
  if (w.kind !== 'legends.reactive-movement') return;
  for (const watch of watchedBy(w) ?? []) emit(ctx, { type: 'legends.reactionsSpent', watch });
  continueMovement(ctx);
}
