import { ensure, ruleError, type Effect, type ReactionWindow } from '@fray/engine';
import { RULE } from './catalogue/index.js';
import { checkActNow, checkDelay, checkTurn } from './checks/index.js';
import { emit, patchData, type ArCtx } from './events.js';
import { runDeferred } from './commands/resolve/deferred.js';
import { expireAt, loseAim, resistanceCheck, resistible, setFatigue, type Marker } from './commands/resolve/effects.js';
import { walkPath } from './commands/resolve/path.js';
import { finish, type Resume } from './commands/resolve/windows.js';
import { combatant, cond, isIncapacitated, secondsPerRound, type C, type Data, type State } from './state/index.js';

/** The clock: combat start, turns, rounds, delay, what ends with them, and what resumes after a reaction. */

function phaseName(ctx: ArCtx): string {
  return secondsPerRound(ctx.options) === 6 ? 'combat-round' : 'conflict-round';
}

/** Initiative: d20 + initiative bonus, highest first; ties by bonus, then id. */
export function startCombat(ctx: ArCtx): void {
  const ids = Object.keys(ctx.state.combatants).sort();
  const scores = ids.map((id) => {
    const c = combatant(ctx.state, id);
    const r = ctx.roll(
      c.stats.initiative === 0 ? '1d20' : `1d20${c.stats.initiative > 0 ? '+' : '-'}${Math.abs(c.stats.initiative)}`,
      'initiative',
      { combatantId: id },
    );
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
function beginTurn(ctx: ArCtx, id: string): void {
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
  ensure(s.clock.current !== id ? checkTurn(s, c) : null);
  ensure(
    s.reaction ? ruleError('REACTION_PENDING', RULE.reactions, 'A reaction window is open: the turn ends once it is answered.') : null,
  );
  finishTurn(ctx, id);
  advance(ctx, id);
}

function finishTurn(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  // Resistance checks at the end of the turn "are not considered actions at all".
  for (const e of resistible(s, id)) {
    resistanceCheck(ctx, id, e.id, 'end of turn');
  }
  if (c.data.aim && c.data.aim.maintainedTurn !== c.data.turnsTaken) {
    // "it requires a free action to maintain your aim ... If you are unable to maintain it, you lose its benefit."
    loseAim(ctx, id, 'not maintained');
  }
  patchData(ctx, 'turn-ended', id, { move: null });
  expireAt(ctx, id, 'end');
}

/** Hand the turn to the next in the order (a new round after the last). Incapacitated characters are skipped. */
function advance(ctx: ArCtx, fromId: string): void {
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
  ensure(checkDelay(s, c));
  patchData(ctx, 'delayed', id, { delaying: true, delayedSeq: s.rs.turnSeq });
  // "Beneficial effects lasting until the end of your turn end when you choose to delay, but harmful effects that last
  // until the end of your turn last until after you act."
  expireAt(ctx, id, 'end', (e) => e.data?.['beneficial'] === true);
  advance(ctx, id);
}

/** Take the delayed turn now: "Your initiative moves into the new place in the order where you act." */
export function actNow(ctx: ArCtx, id: string): void {
  const s = ctx.state;
  const c = combatant(s, id);
  ensure(checkActNow(s, c));
  const cur = s.clock.current;
  const order = s.clock.order.filter((x) => x !== id);
  const at = cur === null ? order.length : order.indexOf(cur);
  order.splice(at, 0, id);
  emit(
    ctx,
    'delay-ended',
    { combatantId: id, before: cur },
    { data: { [id]: { delaying: false } }, rs: { interrupted: cur, turnSeq: s.rs.turnSeq + 1 } },
  );
  ctx.emit({ type: 'clock.changed', order, current: id });
}

function isResume(v: unknown): v is Resume {
  return typeof v === 'object' && v !== null && 't' in v;
}

/** A window closed: the provoking action resumes, the path goes on, or readied actions get their turn. */
export function onReactionClosed(ctx: ArCtx, w: ReactionWindow): void {
  const r = w.resume;
  if (!isResume(r)) return;
  switch (r.t) {
    case 'resolve': {
      const c = ctx.state.combatants[r.cmd.combatantId];
      if (!c || isIncapacitated(ctx.state, c))
        return emit(ctx, 'action-lost', { combatantId: r.cmd.combatantId, action: r.action, reason: 'incapacitated by the reaction' });
      return runDeferred(ctx, r);
    }
    case 'path': {
      const c = ctx.state.combatants[r.actorId];
      if (!c || isIncapacitated(ctx.state, c))
        return emit(ctx, 'movement-stopped', { combatantId: r.actorId, reason: 'incapacitated by an opportunity attack' });
      // A character offered the opportunity during this movement is not asked again for the same movement.
      return walkPath(ctx, r.exempt === 'all' ? r : { ...r, exempt: [...r.exempt, ...w.eligible.filter((id) => !r.exempt.includes(id))] });
    }
    case 'after':
      return finish(ctx, r.actorId, r.kinds);
    case 'none':
      return;
  }
}

export function onCombatantAdded(ctx: ArCtx, id: string): void {
  if (ctx.state.status !== 'active') return;
  ctx.emit({ type: 'clock.changed', order: [...ctx.state.clock.order, id] });
}

export function onCombatantRemoved(ctx: ArCtx): void {
  const s = ctx.state;
  if (s.status !== 'active' || s.clock.current !== null || s.clock.order.length === 0) return;
  // The removed combatant was acting: the turn passes to the first in the order who has not yet had this round's turn.
  const max = Math.max(...s.clock.order.map((id) => combatant(s, id).data.turnsTaken));
  const next = s.clock.order.find((id) => combatant(s, id).data.turnsTaken < max);
  if (next) beginTurn(ctx, next);
  else advance(ctx, s.clock.order[s.clock.order.length - 1]!);
}

/** "count" turns of the affected character, the current one included when it is acting now. */
export function effectExpiry(state: State, effect: Effect): Marker | null {
  const d = effect.duration;
  if (!d || d.unit === 'encounter') return null;
  const of = effect.targetId ?? effect.sourceId;
  const c: C | undefined = of ? state.combatants[of] : undefined;
  if (!of || !c) return null;
  const own = state.clock.current === of && d.unit !== 'start-of-turn' ? 1 : 0;
  return { of, at: d.unit === 'start-of-turn' ? 'start' : 'end', turn: c.data.turnsTaken + d.count - own };
}
