import { z } from 'zod';
import { checkRemoveHindrance } from '../checks/defense.js';
import { ensure, idSchema } from '@fray/engine';
import { checkArrivalSizes, checkBreakoutUse, checkJoin, checkMovementDecider, checkMovementRoll, checkZone } from '../checks/movement.js';
import { emit } from '../events/index.js';
import { statRoll } from '../mechanics/dice.js';
import { outnumberedDice } from '../mechanics/defense.js';
import { approachArea, stepsBetween, type Breakout } from '../mechanics/space.js';
import type { LegendsOptions } from '../options.js';
import {
  clone,
  isDown,
  isEnemy,
  membersOfGroup,
  opts,
  posOf,
  type LCombatant,
  type LCtx,
  type LState,
  type PendingMove,
  type Position,
} from '../state/index.js';
import { applyBreakout } from './consequences.js';

/** The steps of a movement: where to, the roll, rushing, the arrival (new groups and engagements), reactive movement. */

export const destinationSchema = z
  .object({
    /** join a character: their group (ally), their engagement (enemy), or just their place */
    join: idSchema.optional(),
    mode: z.enum(['group', 'engage', 'near']).optional(),
    /** or go to a zone / area, leaving groups and engagements */
    zone: z.string().min(1).max(64).optional(),
    area: z.string().min(1).max(140).nullable().optional(),
  })
  .strict()
  .refine((d) => (d.join !== undefined) !== (d.zone !== undefined), 'Give join (+ mode) or zone (+ area).');

export type Destination = z.infer<typeof destinationSchema>;

export interface Resolved {
  to: Position;
  join: string | null;
  mode: 'group' | 'engage' | 'near' | null;
}

export function resolveDestination(ctx: LCtx, c: LCombatant, d: Destination): Resolved {
  const s = ctx.state;
  if (d.zone !== undefined) {
    ensure(checkZone(s, d.zone));
    return { to: { zone: d.zone, area: d.area ?? null, group: null, engagement: null }, join: null, mode: null };
  }
  const t = d.join === undefined ? undefined : s.combatants[d.join];
  const mode = d.mode ?? (t && isEnemy(c, t) ? 'engage' : 'group');
  ensure(checkJoin(c, t, d.join, mode));
  const tp = posOf(t!);
  if (mode === 'engage')
    return { to: { zone: tp.zone, area: tp.area, group: null, engagement: tp.engagement ?? ctx.newId('eng') }, join: t!.id, mode };
  if (mode === 'group')
    return { to: { zone: tp.zone, area: tp.area, group: tp.group ?? ctx.newId('grp'), engagement: tp.engagement }, join: t!.id, mode };
  return { to: { zone: tp.zone, area: tp.area, group: null, engagement: null }, join: t!.id, mode };
}

function zoneDie(state: LState, zone: string): number {
  return state.rs.zones[zone]?.traits.movementDie ?? opts(state).movementDie;
}

/** the place a mover reaches with `reach` short-range steps toward `to` */
export function reachedPosition(state: LState, from: Position, to: Position, steps: number, reach: number): Position {
  if (reach >= steps) return to;
  if (reach <= 0) return from;
  const target = from.zone === to.zone ? (to.area ?? '') : `zone:${to.zone}`;
  return { zone: from.zone, area: approachArea(from.area, target), group: null, engagement: null };
}

/** who else enters the new group / engagement the mover creates, and the size limits */
export function arrivals(ctx: LCtx, movers: string[], p: PendingMove, to: Position, arrived: boolean): { id: string; to: Position }[] {
  const s = ctx.state;
  const out: { id: string; to: Position }[] = movers.map((id) => ({ id, to }));
  const t = p.join ? s.combatants[p.join] : undefined;
  if (t && arrived) {
    const tp = posOf(t);
    if (p.mode === 'engage' && !tp.engagement && to.engagement) {
      // the enemy (and the allies grouped-up with them) are now engaged
      const theirs = tp.group ? membersOfGroup(s, tp.group) : [t];
      for (const x of theirs) if (!movers.includes(x.id)) out.push({ id: x.id, to: { ...posOf(x), engagement: to.engagement } });
    }
    if (p.mode === 'group' && !tp.group && to.group) out.push({ id: t.id, to: { ...tp, group: to.group } });
  }
  ensure(checkArrivalSizes(s, to, out));
  return out;
}

export function requireMovementDecider(ctx: LCtx, id: string): LCombatant {
  ensure(checkMovementDecider(ctx.state, id));
  return ctx.state.combatants[id]!;
}

export function shiftQueue(ctx: LCtx, ids: string[]): void {
  emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => !ids.includes(x)) });
}

export function openGroupMoveOf(state: LState, c: LCombatant) {
  const g = posOf(c).group;
  return g ? state.rs.groupMoves.find((m) => m.group === g) : undefined;
}

export function rollMovement(
  ctx: LCtx,
  c: LCombatant,
  r: Resolved,
  breakout: Breakout | undefined,
  reactive: boolean,
  group: string | null,
  uncontested: boolean,
): void {
  const s = ctx.state;
  const from = posOf(c);
  const steps = stepsBetween(s, from, r.to);
  ensure(checkMovementRoll(s, c, r.to, steps));
  // "If you intend to move into a neighboring zone which calls for larger movement roll dice, you must roll the larger die."
  const die = Math.max(zoneDie(s, from.zone), zoneDie(s, r.to.zone));
  const escaping = from.engagement !== null && r.to.engagement !== from.engagement;
  let hindrance = 0;
  let easing = 0;
  if (escaping) {
    // "you must add 2 Hindrance to any movement roll that requires you to leave an engagement. Outnumbering dice also apply to this roll"
    ensure(checkRemoveHindrance(s, c, 2, breakout, uncontested));
    ({ hindrance, easing } = outnumberedDice(s, c, 2, breakout, uncontested));
  } else ensure(checkBreakoutUse(escaping, breakout));
  applyBreakout(ctx, c.id, breakout, 'movement');
  const roll = statRoll(ctx, {
    combatantId: c.id,
    stat: 'SPD',
    die,
    hindrance,
    easing,
    purpose: `movement roll on SPD (d${die})${escaping ? ', escaping an engagement' : ''}`,
  });
  const pending: PendingMove = {
    combatantId: c.id,
    destination: r.to,
    steps,
    die,
    tn: roll.tn,
    total: roll.total,
    margin: roll.margin,
    success: roll.success,
    escaping,
    reactive,
    group,
    rollId: roll.rollId,
    join: r.join,
    mode: r.mode,
  };
  emit(ctx, { type: 'legends.moveRolled', combatantId: c.id, pending: clone(pending), hindrance, easing });
}

export function reachOf(o: LegendsOptions, margin: number, rushed: boolean): number {
  if (margin < 0) return 0;
  return rushed && margin >= o.rushMediumMargin ? 2 : 1;
}

/** rushing: fatigue (unless on external SPD only), Low Stealth; returns the +TN */
export function doRush(ctx: LCtx, c: LCombatant, rush: 'self' | 'external'): number {
  const o = ctx.options;
  // "You receive 6 fatigue ... decreased by Sprinting Focus (Athletics), and increased by 1 degree of encumbrance."
  const fatigue =
    rush === 'external'
      ? 0
      : Math.max(
          0,
          o.rushFatigue -
            c.stats.sprintingFocus * o.sprintingFocusFatigueReduction +
            (c.stats.encumbrance === 1 ? o.encumbranceRushFatigue : 0),
        );
  const plusTn = rush === 'external' ? c.stats.externalSPD : c.stats.SPD;
  emit(ctx, { type: 'legends.rushed', combatantId: c.id, fatigue, plusTn, source: rush });
  return plusTn;
}

export const prepareFields = { watch: idSchema, anticipate: z.string().min(1).max(200) };

/** the movers (one character, or a group moving together) finished: offer the prepared reactive movement */
function triggerReactions(ctx: LCtx, movers: string[]): void {
  const s = ctx.state;
  const watching = s.rs.reactions.filter((r) => movers.includes(r.watch));
  const eligible = [...new Set(watching.flatMap((r) => r.by))].filter((id) => s.combatants[id] && !isDown(s, id) && !movers.includes(id));
  if (eligible.length === 0) {
    for (const m of movers) if (watching.some((r) => r.watch === m)) emit(ctx, { type: 'legends.reactionsSpent', watch: m });
    return;
  }
  const first = watching[0]!.watch;
  ctx.openReaction({
    kind: 'legends.reactive-movement',
    trigger: { combatantId: first, action: 'move', description: `${movers.map((m) => s.combatants[m]!.name).join(', ')} moved` },
    eligible,
    allowed: ['react'],
    resume: { watch: movers },
  });
}

/** apply finished moves: one mover, or a whole group once every member decided */
export function settle(ctx: LCtx, p: PendingMove): void {
  const s = ctx.state;
  if (p.group) {
    const mates = s.rs.pending.filter((x) => x.group === p.group);
    if (mates.some((x) => !x.finished)) return;
    const keep = mates.every((x) => x.finished!.keep);
    const minReach = Math.min(...mates.map((x) => x.finished!.reach));
    const moves: { id: string; to: Position }[] = [];
    const best = Math.max(...mates.map((x) => x.finished!.reach));
    for (const m of mates) {
      const c = s.combatants[m.combatantId]!;
      const reach = keep ? minReach : m.finished!.reach;
      const arrived = reach >= m.steps;
      let to: Position;
      // a group that joins a lone ally takes them in under its own name
      const lone = m.mode === 'group' && m.join !== null && !posOf(s.combatants[m.join]!).group;
      if (arrived) to = { ...m.destination, group: lone ? p.group : (m.destination.group ?? p.group) };
      else if (reach > 0)
        to = { ...reachedPosition(s, posOf(c), m.destination, m.steps, reach), group: keep || reach === best ? p.group : null };
      // slower members hold the group; otherwise those who fall behind leave it
      else to = keep ? { ...posOf(c) } : { ...posOf(c), group: null };
      moves.push(...arrivals(ctx, [c.id], m, to, arrived));
    }
    emit(ctx, {
      type: 'legends.moved',
      combatantId: mates[0]!.combatantId,
      moves: clone(dedupe(moves)),
      group: p.group,
      keepTogether: keep,
    });
    for (const m of mates) emit(ctx, { type: 'legends.moveFinished', combatantId: m.combatantId });
    emit(ctx, { type: 'legends.groupMoveEnded', group: p.group });
    // a group's movement is watched through each member
    if (!mates[0]!.reactive)
      triggerReactions(
        ctx,
        mates.map((m) => m.combatantId),
      );
    return;
  }
  const c = s.combatants[p.combatantId]!;
  const to = reachedPosition(s, posOf(c), p.destination, p.steps, p.finished!.reach);
  const from = posOf(c);
  if (to !== from) {
    const moves = arrivals(ctx, [c.id], p, to, p.finished!.reach >= p.steps);
    emit(ctx, {
      type: 'legends.moved',
      combatantId: c.id,
      from: clone(from),
      to: clone(to),
      moves: clone(moves),
      reach: p.finished!.reach,
      steps: p.steps,
    });
  } else {
    emit(ctx, { type: 'legends.movementDeclined', combatantId: c.id, reason: 'failed movement roll' });
  }
  emit(ctx, { type: 'legends.moveFinished', combatantId: c.id });
  if (!p.reactive) triggerReactions(ctx, [c.id]);
}

function dedupe(moves: { id: string; to: Position }[]): { id: string; to: Position }[] {
  const m = new Map<string, Position>();
  for (const x of moves) m.set(x.id, x.to);
  return [...m.entries()].map(([id, to]) => ({ id, to }));
}
