import { expireEffects, type Effect, type ReactionWindow } from '@fray/engine';
import { emit } from '../events/index.js';
import { groupIds, isDown, opts, type LCtx } from '../state/index.js';
import { END, type Marker, isMarker } from './durations.js';

/**
 * Rounds and phases. Phases (clock.phase): `turn-order` (the initial move-down decisions), `movement`,
 * `group-defense` (the end of the movement phase), `reorder` (forfeited turns choose a new place), `action`.
 */

function expireAt(ctx: LCtx, pred: (m: Marker) => boolean): void {
  expireEffects(ctx, (e: Effect) => isMarker(e.expires) && pred(e.expires));
}

export function beginRound(ctx: LCtx, round: number): void {
  const s = ctx.state;
  emit(ctx, { type: 'legends.roundBegan', round });
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
    const fully = sides.filter((side) =>
      order.filter((id) => s.combatants[id]!.side === side).every((id) => s.combatants[id]!.data.surprised),
    );
    movers =
      fully.length > 0
        ? order.filter((id) => !fully.includes(s.combatants[id]!.side) && !s.combatants[id]!.data.surprised && able(id))
        : [];
  } else {
    movers = order.filter(able);
  }
  emit(ctx, { type: 'legends.movementPhase', round, movers });
  if (movers.length === 0) {
    endMovementPhase(ctx);
    return;
  }
  emit(ctx, { type: 'legends.queue', queue: movers });
  ctx.emit({ type: 'clock.changed', current: movers[0] });
}

/** "Which characters or objects are defended via group defense must be decided at the end of the movement phase." */
export function endMovementPhase(ctx: LCtx): void {
  const s = ctx.state;
  emit(ctx, { type: 'legends.movementEnded' });
  if (Object.keys(s.rs.defense).length > 0 || s.rs.overflow.length > 0) emit(ctx, { type: 'legends.groupDefenseReset' });
  const groups = groupIds(s);
  if (groups.length > 0 && (s.clock.round > 1 || opts(s).firstRoundGroupDefense)) {
    emit(ctx, { type: 'legends.queue', queue: groups });
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
    emit(ctx, { type: 'legends.queue', queue });
    emit(ctx, { type: 'legends.forfeitsCleared' });
    ctx.emit({ type: 'clock.changed', phase: 'reorder', current: queue[0] });
    return;
  }
  beginActionPhase(ctx);
}

export function beginActionPhase(ctx: LCtx): void {
  emit(ctx, { type: 'legends.queue', queue: [] });
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
    emit(ctx, { type: 'legends.turnBegan', combatantId: id, round: s.clock.round });
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
  emit(ctx, { type: 'legends.turnEnded', combatantId: id, reason });
}

function endRound(ctx: LCtx): void {
  const r = ctx.state.clock.round;
  expireAt(ctx, (m) => (m.at === 'round-end' && m.round <= r) || (m.at === 'turn-start' && m.anchor === END && m.round <= r));
  emit(ctx, { type: 'legends.roundEnded', round: r });
  beginRound(ctx, r + 1);
}

export function continueMovement(ctx: LCtx): void {
  const s = ctx.state;
  if (s.reaction || s.clock.phase !== 'movement') return;
  const next = s.rs.pending.find((p) => !p.finished)?.combatantId ?? s.rs.queue[0];
  if (next !== undefined) {
    if (s.clock.current !== next) ctx.emit({ type: 'clock.changed', current: next });
    return;
  }
  endMovementPhase(ctx);
}

/** The movers a reactive movement window answers (its `resume`, set by triggerReactions). */
export function watchedBy(w: ReactionWindow): string[] | null {
  const r = w.resume;
  return typeof r === 'object' && r !== null && 'watch' in r && Array.isArray(r.watch) ? r.watch : null;
}
