import { check, type ArCtx } from './checks.js';
import { addEffect, combatant, cond, emit, expireAt, isIncapacitated, patchData, raise, err, secondsPerRound, setFatigue, type Marker } from './rules.js';
import type { Data } from './state.js';

export function phaseName(ctx: ArCtx): string {
  return secondsPerRound(ctx.options) === 6 ? 'combat-round' : 'conflict-round';
}

/** Initiative: d20 + initiative bonus, highest first; ties by bonus, then id. */
export function startCombat(ctx: ArCtx): void {
  const ids = Object.keys(ctx.state.combatants).sort();
  const scores = ids.map((id) => {
    const c = combatant(ctx.state, id);
    const r = ctx.roll(c.stats.initiative === 0 ? '1d20' : `1d20${c.stats.initiative > 0 ? '+' : '-'}${Math.abs(c.stats.initiative)}`, 'initiative', { combatantId: id });
    return { id, score: r.total, bonus: c.stats.initiative };
  });
  scores.sort((a, b) => b.score - a.score || b.bonus - a.bonus || (a.id < b.id ? -1 : 1));
  const seconds = secondsPerRound(ctx.options);
  emit(ctx, 'combat-began', { roundSeconds: seconds, initiative: scores }, { rs: { roundSeconds: seconds } });
  ctx.emit({ type: 'clock.changed', round: 1, phase: phaseName(ctx), order: scores.map((s) => s.id), current: null });
  const first = scores[0];
  if (first) beginTurn(ctx, first.id);
}

/** The start of a combatant's turn: fresh budget, and everything that ends or begins "at the start of your next turn". */
export function beginTurn(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  if (c.data.delaying) {
    // "If you do not act before your initiative comes up in the next round, your turn ends, you
    // lose your delayed turn, and your initiative remains where it is."
    patchData(ctx, 'delay-lost', id, { delaying: false });
  }
  const round = s.clock.round;
  const turnsTaken = c.data.turnsTaken + 1;
  const patch: Partial<Data> = {
    turnsTaken,
    slots: { standard: 1 + c.data.extraStandard, move: 1, quick: 1 },
    extraStandard: 0,
    free: 0,
    acted: false,
    attackedThisTurn: false,
    standardTaken: false,
    move: null,
    quickUsedThisTurn: false,
    quickInReaction: false,
    activeDefense: null,
    stance: null,
  };
  if (c.data.movedRound !== round) {
    patch.moved = 0;
    patch.movedRound = round;
  }
  emit(ctx, 'turn-started', { combatantId: id, round, turn: turnsTaken }, { data: { [id]: patch }, rs: { turnSeq: s.rs.turnSeq + 1 } });
  if (s.clock.current !== id) ctx.emit({ type: 'clock.changed', current: id });
  if (c.data.readied) {
    // "If you come to your next turn and have not yet performed your readied action, you don’t get to take the readied action, you just lose that action."
    patchData(ctx, 'readied-lost', id, { readied: null }, { action: c.data.readied.action });
  }
  if (c.data.surgePending) {
    if (cond(s, id, 'compelled') || cond(s, id, 'controlled')) {
      // "If you’re compelled or controlled, the fatigue from Surge doesn’t affect you until you’re free of the effect"
      patchData(ctx, 'surge-fatigue-deferred', id, { surgeDeferred: true });
    } else {
      // "At the start of the turn immediately after using a Surge, the character becomes fatigued. A fatigued character who
      // uses a Surge becomes exhausted and an exhausted character who uses a Surge is incapacitated."
      patchData(ctx, 'surge-fatigue', id, { surgePending: false, surgeDeferred: false });
      setFatigue(ctx, id, c.data.fatigue + 1, 'surge');
    }
  }
  expireAt(ctx, id, 'start');
}

/** End of a turn: resistance checks (no action), end-of-turn expiries, unmaintained aim, then the next turn. */
export function endTurn(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  if (s.clock.current !== id) raise(ctx, err('NOT_YOUR_TURN', 'turns', `It is not ${c.name}'s turn.`));
  if (s.reaction) raise(ctx, err('REACTION_PENDING', 'turns', 'A reaction window is open.'));
  finishTurn(ctx, id);
  advance(ctx, id);
}

export function finishTurn(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  // Resistance checks at the end of the turn "are not considered actions at all".
  for (const e of s.effects.filter((x) => x.targetId === id && (x.data as { resist?: unknown } | undefined)?.resist)) {
    resistanceCheck(ctx, id, e.id, 'end of turn');
  }
  if (c.data.aim && c.data.aim.maintainedTurn !== c.data.turnsTaken) {
    // "it requires a free action to maintain your aim ... If you are unable to maintain it, you lose its benefit."
    loseAim(ctx, id, 'not maintained');
  }
  patchData(ctx, 'turn-ended', id, { move: null });
  expireAt(ctx, id, 'end');
}

export function resistanceCheck(ctx: ArCtx, id: string, effectId: string, why: string): boolean {
  const e = ctx.state.effects.find((x) => x.id === effectId);
  if (!e) return false;
  const r = (e.data as { resist: { save: 'fortitude' | 'reflex' | 'will' | 'toughness'; dc: number } }).resist;
  const c = combatant(ctx.state, id);
  const res = check(ctx, { who: id, bonus: c.stats[r.save], dc: r.dc, purpose: `${r.save} resistance check vs ${e.name} (${why})`, kind: 'resistance', record: false });
  if (res.success) ctx.emit({ type: 'effect.removed', effectId, reason: 'resisted' });
  return res.success;
}

export function loseAim(ctx: ArCtx, id: string, reason: string): void {
  const c = combatant(ctx.state, id);
  patchData(ctx, 'aim-lost', id, { aim: null }, { reason });
  for (const e of ctx.state.effects.filter((x) => x.targetId === c.id && (x.data as { kind?: string } | undefined)?.kind === 'aim-vulnerable')) {
    ctx.emit({ type: 'effect.removed', effectId: e.id, reason: 'aim ended' });
  }
}

/** Hand the turn to the next in the order (a new round after the last). Incapacitated characters are skipped. */
export function advance(ctx: ArCtx, fromId: string): void {
  for (let guard = 0; guard < 2 * ctx.state.clock.order.length + 2; guard++) {
    const s = ctx.state;
    const order = s.clock.order;
    if (order.length === 0) return;
    const i = order.indexOf(fromId);
    const nextIndex = i + 1;
    let next: string;
    if (nextIndex >= order.length) {
      next = order[0]!;
      const round = s.clock.round + 1;
      emit(ctx, 'round-started', { round, elapsedSeconds: (round - 1) * s.rs.roundSeconds }, { rs: { areaPowerUsed: [] } });
      ctx.emit({ type: 'clock.changed', round });
    } else {
      next = order[nextIndex]!;
    }
    if (s.rs.interrupted === next) {
      emit(ctx, 'turn-resumed', { combatantId: next }, { rs: { interrupted: null, turnSeq: s.rs.turnSeq + 1 } });
      ctx.emit({ type: 'clock.changed', current: next });
      return;
    }
    beginTurn(ctx, next);
    const c = combatant(ctx.state, next);
    if (!isIncapacitated(ctx.state, c)) return;
    emit(ctx, 'turn-skipped', { combatantId: next, reason: 'incapacitated' });
    finishTurn(ctx, next);
    fromId = next;
  }
}

/** DELAY [No action]. */
export function delay(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  if (s.clock.current !== id) raise(ctx, err('NOT_YOUR_TURN', 'delay', `Only the acting character can delay.`));
  if (c.data.acted) raise(ctx, err('ILLEGAL_ACTION', 'delay', 'You cannot delay if you have already taken an action on your turn. "You must delay your entire turn."'));
  if (isIncapacitated(s, c)) raise(ctx, err('ILLEGAL_ACTION', 'delay', 'You cannot delay if you are unable to take actions.'));
  patchData(ctx, 'delayed', id, { delaying: true, delayedSeq: s.rs.turnSeq });
  // "Beneficial effects lasting until the end of your turn end when you choose to delay, but harmful effects that last
  // until the end of your turn last until after you act."
  expireAt(ctx, id, 'end', (e) => (e.data as { beneficial?: boolean } | undefined)?.beneficial === true);
  advance(ctx, id);
}

/** Take the delayed turn now: "Your initiative moves into the new place in the order where you act." */
export function actNow(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  if (!c.data.delaying) raise(ctx, err('ILLEGAL_ACTION', 'delay', `${c.name} is not delaying.`));
  const cur = s.clock.current;
  const delayedSeq = c.data.delayedSeq;
  if (cur !== null && combatant(s, cur).data.acted) {
    raise(ctx, err('ILLEGAL_ACTION', 'delay', `${combatant(s, cur).name} is in the middle of a turn: take your delayed turn after it ends.`));
  }
  if (s.rs.turnSeq <= delayedSeq + 1 && cur !== null) {
    raise(ctx, err('ILLEGAL_ACTION', 'delay', 'You may take your turn "at any point after any other character in the conflict has acted": no one has acted since you delayed.'));
  }
  const order = s.clock.order.filter((x) => x !== id);
  const at = cur === null ? order.length : order.indexOf(cur);
  order.splice(at, 0, id);
  emit(ctx, 'delay-ended', { combatantId: id, before: cur }, { data: { [id]: { delaying: false } }, rs: { interrupted: cur, turnSeq: s.rs.turnSeq + 1 } });
  ctx.emit({ type: 'clock.changed', order, current: id });
}

export { addEffect, type Marker };
