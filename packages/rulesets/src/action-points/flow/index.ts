import { ensure, expireEffects, type Effect, type ReactionWindow } from '@fray/engine';
import { READY_WINDOW } from '../catalogue/index.js';
import { checkInitiative } from '../checks/index.js';
import { spoil } from '../commands/rolls.js';
import { emit } from '../events/index.js';
import { isMarker, nowMarker, reached } from '../mechanics/durations.js';
import { nextSlot, orderOf } from '../mechanics/order.js';
import { PHASES } from '../mechanics/phases.js';
import { mustContinue } from '../mechanics/shape.js';
import { alive, initKey, optsOf, st, stillActing, type C, type Step, type X } from '../state.js';
import { drive, newPending, stepsFor } from './pipeline.js';

/**
 * The clock: the start of combat, rounds ("Most creatures receive 3 action points"), the seven action
 * phases, each creature's place in a phase ("Combatants act in initiative order (highest to lowest)
 * during each phase"), the end of a turn, durations, and what happens after a reaction window.
 */

function startRound(ctx: X, round: number, surprise: boolean): void {
  const s = st(ctx);
  const o = optsOf(s);
  const ap: Record<string, number> = {};
  const initiative: Record<string, number> = {};
  for (const c of Object.values(s.combatants)) {
    initiative[c.id] = c.stats.dexterity + c.stats.initiativeModifier;
    ap[c.id] = surprise ? (c.data.aware ? o.surpriseAp : 0) : o.apPerRound + c.stats.bonusAp;
  }
  // unique tie-breaks: equal initiatives ordered by the roll-off (or name)
  const ids = Object.keys(initiative).sort((a, b) => {
    const ca = s.combatants[a]!;
    const cb = s.combatants[b]!;
    return initiative[b]! - initiative[a]! || cb.data.tieRoll - ca.data.tieRoll || ca.name.localeCompare(cb.name) || a.localeCompare(b);
  });
  const tiebreak: Record<string, number> = {};
  ids.forEach((id, i) => (tiebreak[id] = ids.length - i));
  const regularRound = surprise ? 0 : s.rs.regularRound + 1;
  const combatTurn = surprise ? 1 : Math.ceil(regularRound / o.roundsPerCombatTurn);
  emit(ctx, { type: 'action-points.round-started', round, surprise, regularRound, combatTurn, ap, initiative, tiebreak });
  ctx.emit({ type: 'clock.changed', round, phase: PHASES[0], order: orderOf(st(ctx)), current: null });
  if (!Object.values(st(ctx).combatants).some((c) => stillActing(st(ctx), c))) {
    // nobody can act: the round waits for the GM
    emit(ctx, { type: 'action-points.phase-started', phase: PHASES[0], index: 0 });
    return;
  }
  enterPhase(ctx, 0);
}

/** Enter phase `from` (or the first later phase in which someone acts); end the round when none is left. */
export function enterPhase(ctx: X, from: number): void {
  for (let p = from; ; p++) {
    const s = st(ctx);
    const anyone = Object.values(s.combatants).some((c) => stillActing(s, c));
    if (p >= PHASES.length || !anyone) {
      endRound(ctx);
      startRound(ctx, st(ctx).rs.round + 1, false);
      return;
    }
    emit(ctx, { type: 'action-points.phase-started', phase: PHASES[p]!, index: p });
    ctx.emit({ type: 'clock.changed', phase: PHASES[p], current: null });
    expireDue(ctx);
    const first = nextSlot(st(ctx), p, null);
    if (first) {
      giveSlot(ctx, first);
      return;
    }
  }
}

function giveSlot(ctx: X, c: C): void {
  emit(ctx, { type: 'action-points.turn', combatantId: c.id, initiative: initKey(c) });
  expireDue(ctx);
  const s = st(ctx);
  const me = s.combatants[c.id]!;
  if (me.data.ready && me.data.ready.round < s.rs.round) {
    emit(ctx, {
      type: 'action-points.ready-lost',
      combatantId: me.id,
      reason: '"If you don\'t take the action you readied as a reaction by the start of your round of actions, you lose that reaction."',
    });
  }
}

/** The current combatant's place in this phase is over: the next one in initiative order, or the next phase. */
export function advance(ctx: X): void {
  const s = st(ctx);
  const next = nextSlot(s, s.rs.phaseIdx, s.rs.cursor);
  if (next) giveSlot(ctx, next);
  else enterPhase(ctx, s.rs.phaseIdx + 1);
}

function endRound(ctx: X): void {
  const s = st(ctx);
  const lost: Record<string, number> = {};
  const carried: string[] = [];
  for (const c of Object.values(s.combatants)) {
    if (c.data.ap > 0) lost[c.id] = c.data.ap;
    for (const r of c.data.inProgress) if (r.consecutive) carried.push(r.key);
    if (c.data.ready && c.data.ready.round < s.rs.round) {
      emit(ctx, { type: 'action-points.ready-lost', combatantId: c.id, reason: 'not used by the start of the next round of actions' });
    }
  }
  emit(ctx, { type: 'action-points.round-ended', round: s.rs.round, lost, carried });
}

function expireDue(ctx: X): void {
  const now = nowMarker(st(ctx));
  expireEffects(ctx, (e: Effect) => isMarker(e.expires) && reached(now, e.expires));
}

/** Ends the current slot if the current combatant can no longer act (down, removed). */
export function settle(ctx: X): void {
  const s = st(ctx);
  if (s.reaction || s.status !== 'active') return;
  const cur = s.clock.current;
  if (cur && (!s.combatants[cur] || !alive(s.combatants[cur]!))) advance(ctx);
}

export function startCombat(ctx: X): void {
  const s = st(ctx);
  const o = optsOf(s);
  const all = Object.values(s.combatants);
  if (o.initiativeTies === 'roll') {
    const rolls: Record<string, number> = {};
    for (const c of all) {
      const init = c.stats.dexterity + c.stats.initiativeModifier;
      if (all.some((x) => x.id !== c.id && x.stats.dexterity + x.stats.initiativeModifier === init)) {
        rolls[c.id] = ctx.roll('1d20', `initiative tie-break for ${c.name}`, { combatantId: c.id }).total;
      }
    }
    if (Object.keys(rolls).length) emit(ctx, { type: 'action-points.tie-rolls', rolls });
  }
  const aware = all.filter((c) => c.data.aware).length;
  const surprise = o.surpriseRound && aware > 0 && aware < all.length;
  startRound(ctx, 1, surprise);
}

/** The creature ends its place in this phase (a consecutive advanced action it had to continue is spoiled). */
export function endTurn(ctx: X, id: string): void {
  const s = st(ctx);
  const c = s.combatants[id]!;
  ensure(checkInitiative(s, c));
  const rec = mustContinue(s, c);
  if (rec) spoil(ctx, c, rec, 'not continued: "you must spend an action point (if you have any left) or the action is lost"');
  advance(ctx);
}

/** A creature removed on its own initiative: the next one acts. */
export function onCombatantRemoved(ctx: X): void {
  const s = st(ctx);
  if (s.status === 'active' && !s.reaction && s.clock.current === null && s.rs.cursor !== null) advance(ctx);
}

/** The steps a window's `resume` holds (a copy: `drive` consumes it). */
const queueOf = (resume: unknown): Step[] =>
  typeof resume === 'object' && resume !== null && 'queue' in resume && Array.isArray(resume.queue) ? resume.queue.slice() : [];

/** After a reaction window: the readied actions it triggered first, then the rest of the pipeline it interrupted. */
export function onReactionClosed(ctx: X, w: ReactionWindow): void {
  let queue = queueOf(w.resume);
  if (w.kind === READY_WINDOW) {
    const rq = st(ctx).rs.readyQueue;
    if (rq.length) {
      emit(ctx, { type: 'action-points.ready-queue-cleared' });
      const pre: Step[] = [];
      for (const r of rq) {
        const c = st(ctx).combatants[r.actorId];
        if (!c) continue;
        const pend = newPending(ctx, c, r.action, r.params, r.penalty, null, true, true);
        pre.push(...stepsFor(st(ctx), c, pend, true).filter((x) => x.t !== 'ready' || !x.kinds.includes('acts')));
      }
      queue = [...pre, ...queue];
    }
  }
  drive(ctx, queue);
  settle(ctx);
}
