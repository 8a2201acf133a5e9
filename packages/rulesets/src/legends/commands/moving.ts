import { z } from 'zod';
import { idSchema, refuse } from '@fray/engine';
import { emit } from '../events/index.js';
import { statRoll } from '../mechanics/dice.js';
import { outnumberedDice } from '../mechanics/defense.js';
import { approachArea, breakoutDegrees, stepsBetween, type Breakout } from '../mechanics/space.js';
import type { LegendsOptions } from '../options.js';
import { clone, isDown, isEnemy, membersOfEngagement, membersOfGroup, opts, posOf, type LCombatant, type LCtx, type LState, type PendingMove, type Position } from '../state/index.js';
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
    if (!s.rs.zones[d.zone]) refuse({ code: 'INVALID_COMMAND', rule: 'legends.zones', message: `No zone "${d.zone}".` });
    return { to: { zone: d.zone, area: d.area ?? null, group: null, engagement: null }, join: null, mode: null };
 }
  const t = s.combatants[d.join!];
  if (!t || t.id === c.id) return refuse({ code: 'UNKNOWN_TARGET', rule: 'legends.movement', message: `No one "${d.join}" to move to.` });
  const tp = posOf(t);
  const mode = d.mode ?? (isEnemy(c, t) ? 'engage' : 'group');
  if (mode === 'engage') {
    if (!isEnemy(c, t)) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `${t.name} is not an enemy.` });
    return { to: { zone: tp.zone, area: tp.area, group: null, engagement: tp.engagement ?? ctx.newId('eng') }, join: t.id, mode };
 }
  if (mode === 'group') {
    if (isEnemy(c, t)) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: '"Allied characters keeping in close proximity to one another are referred to as grouped-up."' });
    return { to: { zone: tp.zone, area: tp.area, group: tp.group ?? ctx.newId('grp'), engagement: tp.engagement }, join: t.id, mode };
 }
  return { to: { zone: tp.zone, area: tp.area, group: null, engagement: null }, join: t.id, mode };
}

export function zoneDie(state: LState, zone: string): number {
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
  const o = opts(s);
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
  if (to.group) {
    const size = new Set([...membersOfGroup(s, to.group).map((x) => x.id), ...out.filter((x) => x.to.group === to.group).map((x) => x.id)]).size;
    if (size > o.maxGroupSize) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: `A group "cannot usually be larger than ${o.maxGroupSize}".` });
 }
  if (to.engagement) {
    const size = new Set([...membersOfEngagement(s, to.engagement).map((x) => x.id), ...out.filter((x) => x.to.engagement === to.engagement).map((x) => x.id)]).size;
    if (size > o.maxEngagementSize) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `"Very large engagements of more than ${o.maxEngagementSize} characters should be split up"` });
 }
  return out;
}

export function requireMovementDecider(ctx: LCtx, id: string): LCombatant {
  const s = ctx.state;
  if (s.clock.phase !== 'movement') refuse({ code: 'WRONG_PHASE', rule: 'legends.movement-phase', message: 'Movement happens in the movement phase.' });
  if (s.rs.pending.length > 0) refuse({ code: 'NOT_YOUR_TURN', rule: 'legends.movement', message: `Waiting for ${s.combatants[s.rs.pending[0]!.combatantId]?.name} to finish their movement.` });
  if (s.rs.queue[0] !== id) {
    const why = s.rs.movers.includes(id)
      ? '"all characters (beginning with the topmost in turn order and proceeding down the list) decide whether or not to move"'
      : 'this character has no movement this phase ("There is no movement phase during the first round of combat" unless an entire side is surprised; carried and fallen characters do not move on their own).';
    refuse({ code: 'NOT_YOUR_TURN', rule: 'legends.movement.order', message: `It is not ${s.combatants[id]?.name}'s movement decision: ${why}` });
 }
  return s.combatants[id]!;
}

export function shiftQueue(ctx: LCtx, ids: string[]): void {
  emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => !ids.includes(x)) });
}

export function openGroupMoveOf(state: LState, c: LCombatant) {
  const g = posOf(c).group;
  return g ? state.rs.groupMoves.find((m) => m.group === g) : undefined;
}

export function rollMovement(ctx: LCtx, c: LCombatant, r: Resolved, breakout: Breakout | undefined, reactive: boolean, group: string | null, uncontested: boolean): void {
  const s = ctx.state;
  const from = posOf(c);
  const steps = stepsBetween(s, from, r.to);
  if (steps === 0) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.movement', message: '"You do not need to roll dice or observe any rules for minor movements, such as darting between grouped-up allies or engaged enemies."' });
  if (!Number.isFinite(steps)) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.movement.range', message: 'That is more than a medium-range movement away ("Long range ... describes distances at least 1 zone apart").' });
  if (c.data.carriedBy) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.carrying', message: '"You may not do any major actions nor make any SPD rolls while being carried"' });
  // "If the enemy is using group defense to ... prevent access to an area, bypassing group defense allows you to ... move into the blocked area during the next round's movement phase."
  const area = r.to.area;
  if (area !== null) {
    for (const [g, d] of Object.entries(s.rs.defense)) {
      const m = membersOfGroup(s, g)[0];
      if (!m || !isEnemy(c, m) || posOf(m).zone !== r.to.zone || !d.objects.some((o) => o.area === area)) continue;
      if (c.data.bypassedRound !== s.clock.round - 1) {
        refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.group-defense.area', message: `${m.name}'s group prevents access to ${area}: bypass their group defense in the action phase first.` });
 }
 }
 }
  // "If you intend to move into a neighboring zone which calls for larger movement roll dice, you must roll the larger die."
  const die = Math.max(zoneDie(s, from.zone), zoneDie(s, r.to.zone));
  const escaping = from.engagement !== null && r.to.engagement !== from.engagement;
  let hindrance = 0;
  let easing = 0;
  if (escaping) {
    // "you must add 2 Hindrance to any movement roll that requires you to leave an engagement. Outnumbering dice also apply to this roll"
    ({ hindrance, easing } = outnumberedDice(ctx, c, 2, breakout, uncontested));
 } else if (breakoutDegrees(breakout) > 0) {
    refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.breakout', message: 'Breakout tactics apply only to rolls affected by outnumbering dice.' });
 }
  applyBreakout(ctx, c.id, breakout, 'movement');
  const roll = statRoll(ctx, { combatantId: c.id, stat: 'SPD', die, hindrance, easing, purpose: `movement roll on SPD (d${die})${escaping ? ', escaping an engagement' : ''}` });
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

export function rushCheck(ctx: LCtx, c: LCombatant, rush: 'self' | 'external'): void {
  // "You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."
  if (c.stats.encumbrance >= 2) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.rushing', message: '"You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."' });
  if (c.stats.mobilityInjury > 0) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.rushing', message: '"You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."' });
  if (rush === 'external' && c.stats.externalSPD <= 0) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.rushing', message: 'No SPD from an outside source to rush with.' });
}

/** rushing: fatigue (unless on external SPD only), Low Stealth; returns the +TN */
export function doRush(ctx: LCtx, c: LCombatant, rush: 'self' | 'external'): number {
  const o = ctx.options;
  // "You receive 6 fatigue ... decreased by Sprinting Focus (Athletics), and increased by 1 degree of encumbrance."
  const fatigue = rush === 'external' ? 0 : Math.max(0, o.rushFatigue - c.stats.sprintingFocus * o.sprintingFocusFatigueReduction + (c.stats.encumbrance === 1 ? o.encumbranceRushFatigue : 0));
  const plusTn = rush === 'external' ? c.stats.externalSPD : c.stats.SPD;
  emit(ctx, { type: 'legends.rushed', combatantId: c.id, fatigue, plusTn, source: rush });
  return plusTn;
}

export const prepareFields = { watch: idSchema, anticipate: z.string().min(1).max(200) };

export function checkWatch(ctx: LCtx, ids: string[], watch: string): void {
  const s = ctx.state;
  const order = s.clock.order;
  const last = Math.max(...ids.map((id) => order.indexOf(id)));
  const w = order.indexOf(watch);
  // "The other character must be below you in turn order" / "Groups may prepare reactive movement in relation to characters later than their last character"
  if (w < 0 || w <= last) {
    refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.reactive-movement', message: '"You cannot prepare reactive movement in relation to characters earlier than you in turn order (in other words, you cannot react to reactive movement)."' });
 }
}

/** the movers (one character, or a group moving together) finished: offer the prepared reactive movement */
export function triggerReactions(ctx: LCtx, movers: string[]): void {
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
      else if (reach > 0) to = { ...reachedPosition(s, posOf(c), m.destination, m.steps, reach), group: keep || reach === best ? p.group : null };
      // slower members hold the group; otherwise those who fall behind leave it
      else to = keep ? { ...posOf(c) } : { ...posOf(c), group: null };
      moves.push(...arrivals(ctx, [c.id], m, to, arrived));
 }
    emit(ctx, { type: 'legends.moved', combatantId: mates[0]!.combatantId, moves: clone(dedupe(moves)), group: p.group, keepTogether: keep });
    for (const m of mates) emit(ctx, { type: 'legends.moveFinished', combatantId: m.combatantId });
    emit(ctx, { type: 'legends.groupMoveEnded', group: p.group });
    // a group's movement is watched through each member
    if (!mates[0]!.reactive) triggerReactions(ctx, mates.map((m) => m.combatantId));
    return;
 }
  const c = s.combatants[p.combatantId]!;
  const to = reachedPosition(s, posOf(c), p.destination, p.steps, p.finished!.reach);
  const from = posOf(c);
  if (to !== from) {
    const moves = arrivals(ctx, [c.id], p, to, p.finished!.reach >= p.steps);
    emit(ctx, { type: 'legends.moved', combatantId: c.id, from: clone(from), to: clone(to), moves: clone(moves), reach: p.finished!.reach, steps: p.steps });
 } else {
    emit(ctx, { type: 'legends.movementDeclined', combatantId: c.id, reason: 'failed movement roll' });
 }
  emit(ctx, { type: 'legends.moveFinished', combatantId: c.id });
  if (!p.reactive) triggerReactions(ctx, [c.id]);
}

export function dedupe(moves: { id: string; to: Position }[]): { id: string; to: Position }[] {
  const m = new Map<string, Position>();
  for (const x of moves) m.set(x.id, x.to);
  return [...m.entries()].map(([id, to]) => ({ id, to }));
}
