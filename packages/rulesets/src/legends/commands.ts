import { outnumberedDice } from './defense.js';
import { z } from 'zod';
import { commandSchema, effectApplySchema, idSchema, makeEffect, requireCombatant, type Command, type CommandSpec, type EngineEvent, type Effect, type EngineError, type Ruleset } from '@fray/engine';
import { actFields, addDisadvantage, applyBreakout, findItem, performAct, type ActInput, type DroppedInfo } from './actions.js';
import {
  afterGroupDefense,
  beginActionPhase,
  beginRound,
  checkReorder,
  effectExpiry,
  endMovementPhase,
  endTurn,
  moveInOrder,
  nextDecision,
  startTurnAt,
} from './flow.js';
import {
  actionDefSchema,
  approachArea,
  breakoutDegrees,
  breakoutSchema,
  clone,
  defenseLoad,
  defenseOverflows,
  groupIds,
  hasCond,
  inHand,
  isDown,
  isEnemy,
  membersOfEngagement,
  membersOfGroup,
  opts,
  posOf,
  positionSchema,
  statRoll,
  stepsBetween,
  zoneTraitsSchema,
  type Breakout,
  type GroupDefense,
  type LCombatant,
  type LCtx,
  type LRS,
  type LState,
  type PendingMove,
  type Position,
  type Zone,
} from './model.js';
import type { LegendsOptions } from './options.js';

type Spec = CommandSpec<LRS, LegendsOptions>;
type LSpec = Omit<Spec, 'handle'> & { handle(ctx: LCtx, cmd: Command & Record<string, unknown>): void };
/**
 * Events must not hold pieces of the draft state (they outlive the command): the few events that
 * carry objects read from the state copy them (clone) where they are built.
 */
function emit(ctx: LCtx, e: EngineEvent): void {
  ctx.emit(e);
}

function fail(ctx: LCtx, e: EngineError): never {
  return ctx.fail(e.code, e.rule, e.message);
}
const EXPIRY = { effectExpiry } as unknown as Ruleset;

// ---------------------------------------------------------------------------------------------
// Destinations
// ---------------------------------------------------------------------------------------------

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

interface Resolved {
  to: Position;
  join: string | null;
  mode: 'group' | 'engage' | 'near' | null;
}

function resolveDestination(ctx: LCtx, c: LCombatant, d: Destination): Resolved {
  const s = ctx.state;
  if (d.zone !== undefined) {
    if (!s.rs.zones[d.zone]) fail(ctx, { code: 'INVALID_COMMAND', rule: 'legends.zones', message: `No zone "${d.zone}".` });
    return { to: { zone: d.zone, area: d.area ?? null, group: null, engagement: null }, join: null, mode: null };
  }
  const t = s.combatants[d.join!];
  if (!t || t.id === c.id) return fail(ctx, { code: 'UNKNOWN_TARGET', rule: 'legends.movement', message: `No one "${d.join}" to move to.` });
  const tp = posOf(t);
  const mode = d.mode ?? (isEnemy(c, t) ? 'engage' : 'group');
  if (mode === 'engage') {
    if (!isEnemy(c, t)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `${t.name} is not an enemy.` });
    return { to: { zone: tp.zone, area: tp.area, group: null, engagement: tp.engagement ?? ctx.newId('eng') }, join: t.id, mode };
  }
  if (mode === 'group') {
    if (isEnemy(c, t)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: '"Allied characters keeping in close proximity to one another are referred to as grouped-up."' });
    return { to: { zone: tp.zone, area: tp.area, group: tp.group ?? ctx.newId('grp'), engagement: tp.engagement }, join: t.id, mode };
  }
  return { to: { zone: tp.zone, area: tp.area, group: null, engagement: null }, join: t.id, mode };
}

function zoneDie(state: LState, zone: string): number {
  return state.rs.zones[zone]?.traits.movementDie ?? opts(state).movementDie;
}

/** the place a mover reaches with `reach` short-range steps toward `to` */
function reachedPosition(state: LState, from: Position, to: Position, steps: number, reach: number): Position {
  if (reach >= steps) return to;
  if (reach <= 0) return from;
  const target = from.zone === to.zone ? (to.area ?? '') : `zone:${to.zone}`;
  return { zone: from.zone, area: approachArea(from.area, target), group: null, engagement: null };
}

/** who else enters the new group / engagement the mover creates, and the size limits */
function arrivals(ctx: LCtx, movers: string[], p: PendingMove, to: Position, arrived: boolean): { id: string; to: Position }[] {
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
    if (size > o.maxGroupSize) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: `A group "cannot usually be larger than ${o.maxGroupSize}".` });
  }
  if (to.engagement) {
    const size = new Set([...membersOfEngagement(s, to.engagement).map((x) => x.id), ...out.filter((x) => x.to.engagement === to.engagement).map((x) => x.id)]).size;
    if (size > o.maxEngagementSize) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `"Very large engagements of more than ${o.maxEngagementSize} characters should be split up"` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Movement phase
// ---------------------------------------------------------------------------------------------

function requireMovementDecider(ctx: LCtx, id: string): LCombatant {
  const s = ctx.state;
  if (s.clock.phase !== 'movement') fail(ctx, { code: 'WRONG_PHASE', rule: 'legends.movement-phase', message: 'Movement happens in the movement phase.' });
  if (s.rs.pending.length > 0) fail(ctx, { code: 'NOT_YOUR_TURN', rule: 'legends.movement', message: `Waiting for ${s.combatants[s.rs.pending[0]!.combatantId]?.name} to finish their movement.` });
  if (s.rs.queue[0] !== id) {
    const why = s.rs.movers.includes(id)
      ? '"all characters (beginning with the topmost in turn order and proceeding down the list) decide whether or not to move"'
      : 'this character has no movement this phase ("There is no movement phase during the first round of combat" unless an entire side is surprised; carried and fallen characters do not move on their own).';
    fail(ctx, { code: 'NOT_YOUR_TURN', rule: 'legends.movement.order', message: `It is not ${s.combatants[id]?.name}'s movement decision: ${why}` });
  }
  return s.combatants[id]!;
}

function shiftQueue(ctx: LCtx, ids: string[]): void {
  emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => !ids.includes(x)) });
}

export function continueMovement(ctx: LCtx): void {
  const s = ctx.state;
  if (s.reaction || s.clock.phase !== 'movement') return;
  const next = s.rs.pending.find((p) => !p.finished)?.combatantId ?? s.rs.queue[0];
  if (next !== undefined) {
    if (s.clock.current !== next) emit(ctx, { type: 'clock.changed', current: next });
    return;
  }
  endMovementPhase(ctx);
}

function openGroupMoveOf(state: LState, c: LCombatant) {
  const g = posOf(c).group;
  return g ? state.rs.groupMoves.find((m) => m.group === g) : undefined;
}

function rollMovement(ctx: LCtx, c: LCombatant, r: Resolved, breakout: Breakout | undefined, reactive: boolean, group: string | null, uncontested: boolean): void {
  const s = ctx.state;
  const from = posOf(c);
  const steps = stepsBetween(s, from, r.to);
  if (steps === 0) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.movement', message: '"You do not need to roll dice or observe any rules for minor movements, such as darting between grouped-up allies or engaged enemies."' });
  if (!Number.isFinite(steps)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.movement.range', message: 'That is more than a medium-range movement away ("Long range ... describes distances at least 1 zone apart").' });
  if (c.data.carriedBy) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.carrying', message: '"You may not do any major actions nor make any SPD rolls while being carried"' });
  // "If the enemy is using group defense to ... prevent access to an area, bypassing group defense allows you to ... move into the blocked area during the next round's movement phase."
  const area = r.to.area;
  if (area !== null) {
    for (const [g, d] of Object.entries(s.rs.defense)) {
      const m = membersOfGroup(s, g)[0];
      if (!m || !isEnemy(c, m) || posOf(m).zone !== r.to.zone || !d.objects.some((o) => o.area === area)) continue;
      if (c.data.bypassedRound !== s.clock.round - 1) {
        fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.group-defense.area', message: `${m.name}'s group prevents access to ${area}: bypass their group defense in the action phase first.` });
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
    fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.breakout', message: 'Breakout tactics apply only to rolls affected by outnumbering dice.' });
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

function reachOf(o: LegendsOptions, margin: number, rushed: boolean): number {
  if (margin < 0) return 0;
  return rushed && margin >= o.rushMediumMargin ? 2 : 1;
}

function rushCheck(ctx: LCtx, c: LCombatant, rush: 'self' | 'external'): void {
  // "You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."
  if (c.stats.encumbrance >= 2) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.rushing', message: '"You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."' });
  if (c.stats.mobilityInjury > 0) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.rushing', message: '"You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."' });
  if (rush === 'external' && c.stats.externalSPD <= 0) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.rushing', message: 'No SPD from an outside source to rush with.' });
}

/** rushing: fatigue (unless on external SPD only), Low Stealth; returns the +TN */
function doRush(ctx: LCtx, c: LCombatant, rush: 'self' | 'external'): number {
  const o = ctx.options;
  // "You receive 6 fatigue ... decreased by Sprinting Focus (Athletics), and increased by 1 degree of encumbrance."
  const fatigue = rush === 'external' ? 0 : Math.max(0, o.rushFatigue - c.stats.sprintingFocus * o.sprintingFocusFatigueReduction + (c.stats.encumbrance === 1 ? o.encumbranceRushFatigue : 0));
  const plusTn = rush === 'external' ? c.stats.externalSPD : c.stats.SPD;
  emit(ctx, { type: 'legends.rushed', combatantId: c.id, fatigue, plusTn, source: rush });
  return plusTn;
}

const prepareFields = { watch: idSchema, anticipate: z.string().min(1).max(200) };

function checkWatch(ctx: LCtx, ids: string[], watch: string): void {
  const s = ctx.state;
  const order = s.clock.order;
  const last = Math.max(...ids.map((id) => order.indexOf(id)));
  const w = order.indexOf(watch);
  // "The other character must be below you in turn order" / "Groups may prepare reactive movement in relation to characters later than their last character"
  if (w < 0 || w <= last) {
    fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.reactive-movement', message: '"You cannot prepare reactive movement in relation to characters earlier than you in turn order (in other words, you cannot react to reactive movement)."' });
  }
}

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
function settle(ctx: LCtx, p: PendingMove): void {
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

function dedupe(moves: { id: string; to: Position }[]): { id: string; to: Position }[] {
  const m = new Map<string, Position>();
  for (const x of moves) m.set(x.id, x.to);
  return [...m.entries()].map(([id, to]) => ({ id, to }));
}

// ---------------------------------------------------------------------------------------------
// Group defense
// ---------------------------------------------------------------------------------------------

export function checkOverflow(ctx: LCtx): void {
  const s = ctx.state;
  if (s.status !== 'active') return;
  for (const [g, d] of Object.entries(s.rs.defense)) {
    if (!s.rs.overflow.includes(g) && defenseOverflows(s, g, d)) emit(ctx, { type: 'legends.groupDefenseOverflow', group: g });
  }
}

function validateDefense(ctx: LCtx, g: string, d: GroupDefense): void {
  const s = ctx.state;
  const members = membersOfGroup(s, g);
  for (const id of d.protected) {
    const m = members.find((x) => x.id === id);
    if (!m) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.group-defense', message: `${s.combatants[id]?.name ?? id} is not in the group.` });
    if (m.data.carriedBy) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.carrying', message: '"You do not count for group defense nor for outnumbering dice" while carried.' });
    // "Characters already in a grapple cannot begin to be defended via group defense"
    if (hasCond(s, id, ['grappled', 'grappling']) && !(s.rs.defense[g]?.protected.includes(id) ?? false)) {
      fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.group-defense.grapple', message: '"Characters already in a grapple cannot begin to be defended via group defense"' });
    }
  }
  const { load, defenders, ratio } = defenseLoad(s, g, d);
  if (load * ratio > defenders * 4) {
    fail(ctx, {
      code: 'ILLEGAL_ACTION',
      rule: 'legends.group-defense.ratio',
      message: `"a group can protect 1/3 of its members via group defense (that is, 1 protected character per 2 non-protected characters)": ${defenders} defender(s) at 1:${ratio} cannot protect ${load / 4} character(s).`,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const gmTool = { actor: 'gm' as const, inSetup: true, duringReaction: true };

function requireSetupZone(ctx: LCtx, zone: string): void {
  if (!ctx.state.rs.zones[zone]) fail(ctx, { code: 'INVALID_COMMAND', rule: 'legends.zones', message: `No zone "${zone}".` });
}

function placeAll(ctx: LCtx, moves: { id: string; to: Position }[], why: string): void {
  emit(ctx, { type: 'legends.placed', combatantId: moves[0]?.id ?? null, moves: clone(moves), reason: why });
  checkOverflow(ctx);
}

export function legendsCommands(): Record<string, Spec> {
  const specs: Record<string, LSpec> = {
    // ---- setup and GM tools -----------------------------------------------------------------
    setSurprised: {
      ...gmTool,
      schema: commandSchema('setSurprised', { combatantId: idSchema, surprised: z.boolean() }),
      handle(ctx, cmd) {
        const c = requireCombatant(ctx as never, cmd.combatantId as string);
        if (ctx.state.status !== 'setup') fail(ctx, { code: 'COMBAT_ALREADY_STARTED', rule: 'legends.surprise', message: 'Surprise is marked when combat begins.' });
        // "If a character cannot see any enemy characters when combat begins, they are considered surprised"
        emit(ctx, { type: 'legends.surprised', combatantId: c.id, surprised: cmd.surprised as boolean });
      },
    },
    defineZone: {
      ...gmTool,
      schema: commandSchema('defineZone', {
        zone: z
          .object({
            id: z.string().min(1).max(64),
            name: z.string().min(1).max(120).optional(),
            traits: zoneTraitsSchema.optional(),
            features: z.array(z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(120), description: z.string().max(500).default('') }).strict()).max(50).optional(),
            neighbors: z.array(z.string().min(1).max(64)).max(50).optional(),
          })
          .strict(),
      }),
      handle(ctx, cmd) {
        const input = cmd.zone as { id: string; name?: string; traits?: Zone['traits']; features?: Zone['features']; neighbors?: string[] };
        const old = ctx.state.rs.zones[input.id];
        const zone: Zone = {
          id: input.id,
          name: input.name ?? old?.name ?? input.id,
          traits: input.traits ?? old?.traits ?? {},
          features: input.features ?? old?.features ?? [],
          neighbors: input.neighbors ?? old?.neighbors ?? [],
        };
        for (const n of zone.neighbors) if (n === zone.id || !ctx.state.rs.zones[n]) fail(ctx, { code: 'INVALID_COMMAND', rule: 'legends.zones', message: `No neighbouring zone "${n}".` });
        emit(ctx, { type: 'legends.zoneDefined', zone: clone(zone) });
        // neighbours are mutual
        for (const other of Object.values(ctx.state.rs.zones)) {
          if (other.id === zone.id) continue;
          const should = zone.neighbors.includes(other.id);
          const has = other.neighbors.includes(zone.id);
          if (should !== has) {
            emit(ctx, { type: 'legends.zoneDefined', zone: { ...clone(other), neighbors: should ? [...other.neighbors, zone.id] : other.neighbors.filter((x) => x !== zone.id) } });
          }
        }
      },
    },
    formGroup: {
      ...gmTool,
      schema: commandSchema('formGroup', { combatantIds: z.array(idSchema).min(1).max(100), groupId: idSchema.optional() }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const ids = [...new Set(cmd.combatantIds as string[])];
        const cs = ids.map((id) => requireCombatant(ctx as never, id) as unknown as LCombatant);
        const g = (cmd.groupId as string | undefined) ?? ctx.newId('grp');
        const existing = membersOfGroup(s, g).filter((x) => !ids.includes(x.id));
        const all = [...existing, ...cs];
        const first = all[0]!;
        if (all.length < 2) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: '"A group can be as small as 2 characters"' });
        if (all.length > opts(s).maxGroupSize) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: `A group "cannot usually be larger than ${opts(s).maxGroupSize}"; "a larger number of characters should be considered to be more than 1 group."` });
        for (const c of all) {
          if (c.side !== first.side) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: '"Allied characters keeping in close proximity to one another are referred to as grouped-up."' });
          if (posOf(c).zone !== posOf(first).zone) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: 'A group is in one zone.' });
        }
        const fp = posOf(first);
        placeAll(ctx, cs.map((c) => ({ id: c.id, to: { ...posOf(c), area: fp.area, group: g, engagement: posOf(c).engagement ?? fp.engagement } })), 'group formed');
      },
    },
    leaveGroup: {
      ...gmTool,
      schema: commandSchema('leaveGroup', { combatantId: idSchema }),
      handle(ctx, cmd) {
        const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
        placeAll(ctx, [{ id: c.id, to: { ...posOf(c), group: null } }], 'left group');
      },
    },
    formEngagement: {
      ...gmTool,
      schema: commandSchema('formEngagement', { combatantIds: z.array(idSchema).min(1).max(200), engagementId: idSchema.optional() }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const ids = [...new Set(cmd.combatantIds as string[])];
        const cs = ids.map((id) => requireCombatant(ctx as never, id) as unknown as LCombatant);
        const e = (cmd.engagementId as string | undefined) ?? ctx.newId('eng');
        const all = [...membersOfEngagement(s, e).filter((x) => !ids.includes(x.id)), ...cs];
        if (new Set(all.map((c) => c.side)).size < 2) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: 'An engagement is between enemies: "all the characters on either side that are currently able to attack each other".' });
        if (all.length > opts(s).maxEngagementSize) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `"Very large engagements of more than ${opts(s).maxEngagementSize} characters should be split up into different engagements"` });
        const zone = posOf(all[0]!).zone;
        if (all.some((c) => posOf(c).zone !== zone)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: 'An engagement is in one zone.' });
        const area = posOf(all[0]!).area;
        placeAll(ctx, cs.map((c) => ({ id: c.id, to: { ...posOf(c), area, engagement: e } })), 'engagement formed');
      },
    },
    leaveEngagement: {
      ...gmTool,
      schema: commandSchema('leaveEngagement', { combatantId: idSchema }),
      handle(ctx, cmd) {
        const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
        placeAll(ctx, [{ id: c.id, to: { ...posOf(c), engagement: null } }], 'left engagement');
      },
    },
    'combatant.place': {
      ...gmTool,
      schema: commandSchema('combatant.place', { combatantId: idSchema, position: z.unknown() }),
      handle(ctx, cmd) {
        const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
        const parsed = positionSchema.safeParse(cmd.position);
        if (!parsed.success) return fail(ctx, { code: 'INVALID_COMMAND', rule: 'legends.position', message: z.prettifyError(parsed.error) });
        const p = parsed.data;
        requireSetupZone(ctx, p.zone);
        const s = ctx.state;
        if (p.group) {
          const others = membersOfGroup(s, p.group).filter((x) => x.id !== c.id);
          if (others.some((x) => x.side !== c.side)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: 'Groups are of allied characters.' });
          if (others.length + 1 > opts(s).maxGroupSize) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: `A group "cannot usually be larger than ${opts(s).maxGroupSize}".` });
        }
        if (p.engagement && membersOfEngagement(s, p.engagement).filter((x) => x.id !== c.id).length + 1 > opts(s).maxEngagementSize) {
          fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `Engagements of more than ${opts(s).maxEngagementSize} characters should be split up.` });
        }
        placeAll(ctx, [{ id: c.id, to: p }], 'placed by the GM');
      },
    },
    'effect.apply': {
      ...gmTool,
      schema: effectApplySchema,
      handle(ctx, cmd) {
        const target = cmd.targetId ? (requireCombatant(ctx as never, cmd.targetId as string) as unknown as LCombatant) : null;
        const effect: Effect = makeEffect(ctx as never, EXPIRY, {
          name: cmd.name as string,
          condition: cmd.condition as string | undefined,
          targetId: target?.id ?? null,
          sourceId: (cmd.sourceId as string | null) ?? null,
          duration: (cmd.duration as Effect['duration']) ?? null,
          gmOnly: cmd.gmOnly as boolean | undefined,
          data: cmd.data as Record<string, unknown> | undefined,
        });
        emit(ctx, { type: 'effect.applied', effect, gmOnly: effect.gmOnly || undefined });
        if (target && effect.condition && opts(ctx.state).dropItemsConditions.includes(effect.condition)) fall(ctx, target.id);
        checkOverflow(ctx);
      },
    },
    dropItem: {
      ...gmTool,
      inSetup: false,
      schema: commandSchema('dropItem', { combatantId: idSchema, itemId: idSchema, asPreviousTurn: z.boolean().default(true) }),
      handle(ctx, cmd) {
        // "Items dropped due to Hand/Arm Injuries fall under the rules above, as if you had dropped them on your previous turn."
        const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
        const it = c.items.find((i) => i.id === cmd.itemId);
        if (!it || !inHand(it)) return fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.dropped-items', message: `${c.name} holds no "${String(cmd.itemId)}".` });
        const p = posOf(c);
        // the last turn it began counts as its "previous turn"; asPreviousTurn false: dropped now, in no turn of its own
        const turnN = cmd.asPreviousTurn ? c.data.turn.n : c.data.turn.n - 1;
        const dropped: DroppedInfo = { by: c.id, round: ctx.state.clock.round, turnN, zone: p.zone, area: p.area, engagement: p.engagement, group: p.group };
        emit(ctx, { type: 'legends.itemMoved', combatantId: c.id, fromId: c.id, toId: c.id, itemId: it.id, location: 'ground', dropped });
      },
    },
    breakGroupDefense: {
      ...gmTool,
      inSetup: false,
      schema: commandSchema('breakGroupDefense', { group: idSchema }),
      handle(ctx, cmd) {
        // "Any lengthy disagreement amongst the group regarding any part of group defense results in group defense breaking down entirely."
        const d = ctx.state.rs.defense[cmd.group as string];
        if (!d) return fail(ctx, { code: 'INVALID_COMMAND', rule: 'legends.group-defense', message: `Group "${String(cmd.group)}" has no group defense.` });
        for (const id of d.protected) emit(ctx, { type: 'legends.groupDefenseLeft', combatantId: id, group: cmd.group });
        emit(ctx, { type: 'legends.groupDefenseBrokenDown', group: cmd.group });
        if (ctx.state.rs.queue.includes(cmd.group as string)) {
          emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => x !== cmd.group) });
          if (ctx.state.rs.queue.length === 0 && ctx.state.clock.phase === 'group-defense') afterGroupDefense(ctx);
        }
      },
    },
    setFatigue: {
      ...gmTool,
      schema: commandSchema('setFatigue', { combatantId: idSchema, fatigue: z.number().int().min(0).max(1000) }),
      handle(ctx, cmd) {
        const c = requireCombatant(ctx as never, cmd.combatantId as string);
        emit(ctx, { type: 'legends.fatigueChanged', combatantId: c.id, fatigue: cmd.fatigue });
      },
    },
    defineAction: {
      ...gmTool,
      schema: commandSchema('defineAction', { action: actionDefSchema }),
      handle(ctx, cmd) {
        emit(ctx, { type: 'legends.actionDefined', action: cmd.action });
      },
    },
    removeAction: {
      ...gmTool,
      schema: commandSchema('removeAction', { key: z.string().min(1).max(48) }),
      handle(ctx, cmd) {
        if (!ctx.state.rs.customActions[cmd.key as string]) fail(ctx, { code: 'INVALID_COMMAND', rule: 'legends.actions', message: `No GM-defined action "${String(cmd.key)}".` });
        emit(ctx, { type: 'legends.actionRemoved', key: cmd.key });
      },
    },
    advancePhase: {
      actor: 'gm',
      schema: commandSchema('advancePhase', {}),
      handle(ctx) {
        const s = ctx.state;
        switch (s.clock.phase) {
          case 'turn-order':
            emit(ctx, { type: 'legends.queue', queue: [] });
            beginRound(ctx, 1);
            return;
          case 'movement':
            for (const p of s.rs.pending) emit(ctx, { type: 'legends.moveFinished', combatantId: p.combatantId });
            emit(ctx, { type: 'legends.queue', queue: [] });
            endMovementPhase(ctx);
            return;
          case 'group-defense':
            emit(ctx, { type: 'legends.queue', queue: [] });
            afterGroupDefense(ctx);
            return;
          case 'reorder':
            emit(ctx, { type: 'legends.queue', queue: [] });
            beginActionPhase(ctx);
            return;
          default:
            if (s.clock.current) endTurn(ctx, s.clock.current, 'ended by the GM');
            else startTurnAt(ctx, 0);
        }
      },
    },

    // ---- turn order --------------------------------------------------------------------------
    changeTurnOrder: {
      actor: 'combatant',
      schema: commandSchema('changeTurnOrder', { combatantId: idSchema, index: z.number().int().min(0).max(500).optional() }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const id = cmd.combatantId as string;
        const phase = s.clock.phase;
        if (phase !== 'turn-order' && phase !== 'reorder') {
          fail(ctx, {
            code: 'WRONG_PHASE',
            rule: 'legends.turn-order.change',
            message: '"After the initial decisions about turn order, a character can only change their position in the list by completely forfeiting one turn in the action phase."',
          });
        }
        if (s.rs.queue[0] !== id) {
          fail(ctx, {
            code: 'NOT_YOUR_TURN',
            rule: phase === 'turn-order' ? 'legends.turn-order.initial' : 'legends.turn-order.change',
            message:
              phase === 'turn-order'
                ? '"This decision begins with the second-to-last character ... and proceeds up the list"'
                : '"those who were previously earlier in turn order decide last"',
          });
        }
        if (cmd.index !== undefined) {
          const e = checkReorder(s, id, cmd.index as number, phase === 'turn-order');
          if (e) fail(ctx, e);
          moveInOrder(ctx, id, cmd.index as number);
        } else {
          emit(ctx, { type: 'legends.turnOrderKept', combatantId: id });
        }
        nextDecision(ctx);
      },
    },
    forfeitTurn: {
      actor: 'combatant',
      schema: commandSchema('forfeitTurn', { combatantId: idSchema }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const c = s.combatants[cmd.combatantId as string]!;
        if (s.clock.phase !== 'action' || s.clock.current !== c.id) fail(ctx, { code: 'NOT_YOUR_TURN', rule: 'legends.turns', message: `It is not ${c.name}'s turn.` });
        // "No character may change their turn order in this way during the first round of combat."
        if (s.clock.round === 1) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.turn-order.change', message: '"No character may change their turn order in this way during the first round of combat."' });
        if (c.data.turn.seq.length > 0) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.turn-order.change', message: 'Changing turn order means "completely forfeiting one turn": no actions may be taken in it.' });
        emit(ctx, { type: 'legends.forfeited', combatantId: c.id, round: s.clock.round });
        endTurn(ctx, c.id, 'forfeited to change turn order');
      },
    },

    // ---- movement phase ----------------------------------------------------------------------
    move: {
      actor: 'combatant',
      schema: commandSchema('move', { combatantId: idSchema, destination: destinationSchema, breakout: breakoutSchema.optional(), uncontested: z.boolean().optional() }),
      handle(ctx, cmd) {
        const c = requireMovementDecider(ctx, cmd.combatantId as string);
        if (openGroupMoveOf(ctx.state, c)) {
          fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouped-movement', message: 'Your group is moving together: agree (groupMove) or stay ("If there is any lengthy disagreement about the group\'s movement choices, the entire group fails to move").' });
        }
        if (cmd.uncontested && cmd.by.role === 'player') fail(ctx, { code: 'NOT_AUTHORIZED', rule: 'legends.outnumbering', message: 'Only the GM says the enemy does not wish to interfere.' });
        const r = resolveDestination(ctx, c, cmd.destination as Destination);
        shiftQueue(ctx, [c.id]);
        rollMovement(ctx, c, r, cmd.breakout as Breakout | undefined, false, null, Boolean(cmd.uncontested));
        continueMovement(ctx);
      },
    },
    finishMove: {
      actor: 'combatant',
      schema: commandSchema('finishMove', {
        combatantId: idSchema,
        rush: z.enum(['none', 'self', 'external']).default('none'),
        keepTogether: z.boolean().default(true),
        prepareRush: z.object(prepareFields).strict().optional(),
      }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const id = cmd.combatantId as string;
        const p = s.rs.pending.find((x) => x.combatantId === id && !x.finished);
        if (!p) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.movement', message: `${s.combatants[id]!.name} has no movement roll to finish.` });
        if (!p.group && s.rs.pending.find((x) => !x.finished)?.combatantId !== id) fail(ctx, { code: 'NOT_YOUR_TURN', rule: 'legends.movement', message: 'Another movement is being finished first.' });
        const c = s.combatants[id]!;
        const rush = cmd.rush as 'none' | 'self' | 'external';
        let margin = p.margin;
        if (rush !== 'none') {
          rushCheck(ctx, c, rush);
          // "apply a reactive +TN equal to your SPD to the movement roll"
          margin += doRush(ctx, c, rush);
        }
        const reach = reachOf(ctx.options, margin, rush !== 'none');
        if (cmd.prepareRush) {
          const pr = cmd.prepareRush as { watch: string; anticipate: string };
          // "If your roll result in normal movement is such that you would be able to rush for increased distance (but you did not rush), you may prepare a rush as reactive movement"
          if (rush !== 'none' || p.margin + c.stats.SPD < ctx.options.rushMediumMargin || p.reactive) {
            fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.reactive-movement', message: 'A rush can be prepared only when you could have rushed for increased distance but did not.' });
          }
          rushCheck(ctx, c, 'self');
          checkWatch(ctx, [id], pr.watch);
          emit(ctx, { type: 'legends.reactionPrepared', combatantId: id, reaction: { id: ctx.newId('rx'), by: [id], watch: pr.watch, anticipate: pr.anticipate, kind: 'rush', margin: p.margin }, gmOnly: c.controller === null || undefined });
        }
        const done: PendingMove = { ...p, finished: { reach, keep: cmd.keepTogether as boolean } };
        emit(ctx, { type: 'legends.moveUpdated', combatantId: id, pending: clone(done), rush, reach });
        settle(ctx, done);
        continueMovement(ctx);
      },
    },
    stay: {
      actor: 'combatant',
      schema: commandSchema('stay', { combatantId: idSchema }),
      handle(ctx, cmd) {
        const c = requireMovementDecider(ctx, cmd.combatantId as string);
        const gm = openGroupMoveOf(ctx.state, c);
        if (gm) {
          // "If there is any lengthy disagreement about the group's movement choices, the entire group fails to move."
          emit(ctx, { type: 'legends.groupMoveFailed', combatantId: c.id, group: gm.group });
          emit(ctx, { type: 'legends.groupMoveEnded', group: gm.group });
          shiftQueue(ctx, gm.members);
        }
        emit(ctx, { type: 'legends.movementDeclined', combatantId: c.id, reason: 'stays' });
        shiftQueue(ctx, [c.id]);
        continueMovement(ctx);
      },
    },
    prepareReaction: {
      actor: 'combatant',
      schema: commandSchema('prepareReaction', { combatantId: idSchema, ...prepareFields, asGroup: z.boolean().default(false) }),
      handle(ctx, cmd) {
        const c = requireMovementDecider(ctx, cmd.combatantId as string);
        const s = ctx.state;
        let by = [c.id];
        if (cmd.asGroup) {
          const g = posOf(c).group;
          if (!g) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouped-movement', message: `${c.name} is not grouped-up.` });
          by = membersOfGroup(s, g).filter((m) => s.rs.queue.includes(m.id)).map((m) => m.id);
        }
        checkWatch(ctx, by, cmd.watch as string);
        if (!s.rs.queue.includes(cmd.watch as string)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.reactive-movement', message: 'Reactive movement answers "a later character\'s movement": that character has no movement decision left.' });
        // an NPC's prepared reaction is the GM's secret
        const secret = c.controller === null || undefined;
        emit(ctx, { type: 'legends.reactionPrepared', combatantId: c.id, reaction: { id: ctx.newId('rx'), by, watch: cmd.watch, anticipate: cmd.anticipate, kind: 'move' }, gmOnly: secret });
        shiftQueue(ctx, by);
        continueMovement(ctx);
      },
    },
    react: {
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('react', { combatantId: idSchema, destination: destinationSchema, rush: z.enum(['self', 'external']).default('self') }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const w = s.reaction;
        const id = cmd.combatantId as string;
        const c = s.combatants[id]!;
        const watched = w ? ((w.resume as { watch?: string[] } | null)?.watch ?? [w.trigger.combatantId]) : [];
        const rx = w && s.rs.reactions.find((r) => watched.includes(r.watch) && r.by.includes(id));
        if (!w || w.kind !== 'legends.reactive-movement' || !rx) {
          return fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.reactive-movement', message: `${c.name} prepared no reactive movement for this.` });
        }
        emit(ctx, { type: 'legends.reactionUsed', combatantId: id, reactionId: rx.id });
        const r = resolveDestination(ctx, c, cmd.destination as Destination);
        if (rx.kind === 'move') {
          rollMovement(ctx, c, r, undefined, true, null, false);
          return;
        }
        // a prepared rush: "You do not suffer the effects and cost of a rush until you actually use it."
        const rush = cmd.rush as 'self' | 'external';
        rushCheck(ctx, c, rush);
        doRush(ctx, c, rush);
        const from = posOf(c);
        const steps = stepsBetween(s, from, r.to);
        const to = reachedPosition(s, from, r.to, steps, 1);
        const fake: PendingMove = { combatantId: id, destination: r.to, steps, die: 12, tn: 0, total: 0, margin: rx.margin ?? 0, success: true, escaping: false, reactive: true, group: null, rollId: '', join: r.join, mode: r.mode };
        emit(ctx, { type: 'legends.moved', combatantId: id, from: clone(from), to: clone(to), moves: clone(arrivals(ctx, [id], fake, to, steps <= 1)), reach: 1, steps, preparedRush: true });
      },
    },
    groupMove: {
      actor: 'combatant',
      schema: commandSchema('groupMove', { combatantId: idSchema, destination: destinationSchema, breakout: breakoutSchema.optional() }),
      handle(ctx, cmd) {
        const c = requireMovementDecider(ctx, cmd.combatantId as string);
        const s = ctx.state;
        const g = posOf(c).group;
        if (!g) return fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouped-movement', message: '"Characters who are grouped-up can move together, if all agree to do so."' });
        let gm = openGroupMoveOf(s, c);
        const r = resolveDestination(ctx, c, cmd.destination as Destination);
        if (!gm) {
          const members = membersOfGroup(s, g).filter((m) => !m.data.carriedBy && s.rs.movers.includes(m.id)).map((m) => m.id);
          if (members.some((m) => !s.rs.queue.includes(m))) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.grouped-movement', message: 'Some members already decided their movement this phase.' });
          emit(ctx, { type: 'legends.groupMoveDeclared', combatantId: c.id, groupMove: clone({ group: g, input: cmd.destination, destination: r.to, members, agreed: [], rolled: false }) });
          gm = ctx.state.rs.groupMoves.find((m) => m.group === g)!;
        } else if (JSON.stringify(gm.input) !== JSON.stringify(cmd.destination)) {
          emit(ctx, { type: 'legends.groupMoveFailed', combatantId: c.id, group: g, reason: 'disagreement' });
          emit(ctx, { type: 'legends.groupMoveEnded', group: g });
          shiftQueue(ctx, gm.members);
          continueMovement(ctx);
          return;
        }
        emit(ctx, { type: 'legends.groupMoveAgreed', combatantId: c.id, group: g });
        shiftQueue(ctx, [c.id]);
        const now = ctx.state.rs.groupMoves.find((m) => m.group === g)!;
        if (now.members.every((m) => now.agreed.includes(m))) {
          // "all characters' movement rolls are delayed to happen simultaneously with that of the last character"
          emit(ctx, { type: 'legends.groupMoveRolled', group: g });
          for (const m of now.members) {
            const mc = ctx.state.combatants[m]!;
            rollMovement(ctx, mc, { to: clone(now.destination), join: r.join, mode: r.mode }, m === c.id ? (cmd.breakout as Breakout | undefined) : undefined, false, g, false);
          }
        }
        continueMovement(ctx);
      },
    },

    // ---- end of the movement phase: group defense --------------------------------------------
    declareGroupDefense: {
      actor: 'combatant',
      schema: commandSchema('declareGroupDefense', {
        combatantId: idSchema,
        protected: z.array(idSchema).max(10).default([]),
        objects: z
          .array(z.object({ id: idSchema, name: z.string().min(1).max(120).optional(), quarters: z.number().int().min(0).max(40).optional(), area: z.string().min(1).max(140).optional() }).strict())
          .max(10)
          .default([]),
      }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const c = s.combatants[cmd.combatantId as string]!;
        const g = posOf(c).group;
        if (!g) return fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.group-defense', message: `${c.name} is not grouped-up: groups "gain access to group defense".` });
        const reprioritize = s.rs.overflow.includes(g);
        if (!reprioritize && (s.clock.phase !== 'group-defense' || !s.rs.queue.includes(g))) {
          fail(ctx, { code: 'WRONG_PHASE', rule: 'legends.group-defense.timing', message: '"Which characters or objects are defended via group defense must be decided at the end of the movement phase."' });
        }
        if (reprioritize) {
          const before = s.rs.defense[g]!.protected;
          const added = (cmd.protected as string[]).filter((x) => !before.includes(x));
          if (added.length > 0) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.group-defense.fallen-defenders', message: 'After defenders fall the group chooses "who to prioritize and keep defending": nobody new.' });
        }
        const o = opts(s);
        const objects = (cmd.objects as { id: string; name?: string; quarters?: number; area?: string }[]).map((ob) => {
          const it = findItem(s, ob.id);
          // "such a defended location may count as more or less than 1 character": the GM gives quarters (default 1 character)
          const quarters = ob.quarters ?? (it ? o.itemWeightQuarters : 4);
          return { id: ob.id, name: ob.name ?? it?.item.name ?? ob.id, quarters, ...(ob.area ? { area: ob.area } : {}) };
        });
        const d: GroupDefense = { protected: [...new Set(cmd.protected as string[])], objects };
        validateDefense(ctx, g, d);
        if (reprioritize) {
          const before = s.rs.defense[g]!.protected;
          for (const id of before) if (!d.protected.includes(id)) emit(ctx, { type: 'legends.groupDefenseLeft', combatantId: id, group: g });
        }
        emit(ctx, { type: 'legends.groupDefenseDeclared', combatantId: c.id, group: g, protected: d.protected, objects: d.objects });
        if (!reprioritize) {
          emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => x !== g) });
          if (ctx.state.rs.queue.length === 0) afterGroupDefense(ctx);
        }
      },
    },

    // ---- action phase ------------------------------------------------------------------------
    act: {
      actor: 'combatant',
      schema: commandSchema('act', actFields),
      handle(ctx, cmd) {
        performAct(ctx, cmd as unknown as ActInput);
      },
    },
    offerItem: {
      actor: 'combatant',
      schema: commandSchema('offerItem', { combatantId: idSchema, itemId: idSchema, toId: idSchema }),
      handle(ctx, cmd) {
        const s = ctx.state;
        const c = s.combatants[cmd.combatantId as string]!;
        const to = s.combatants[cmd.toId as string];
        if (s.clock.phase !== 'action') fail(ctx, { code: 'WRONG_PHASE', rule: 'legends.giving', message: 'Items change hands in the action phase.' });
        if (!to || to.id === c.id) return fail(ctx, { code: 'UNKNOWN_TARGET', rule: 'legends.giving', message: `No one "${String(cmd.toId)}" to give to.` });
        const it = c.items.find((i) => i.id === cmd.itemId);
        // "Offering the item does not require an action on your part, so long as the item is in your hand when the other character takes it."
        if (!it || !inHand(it)) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.giving', message: `${c.name} holds no "${String(cmd.itemId)}" (offer items from inventory with act offer-from-inventory).` });
        const pc = posOf(c);
        if (!pc.group || pc.group !== posOf(to).group) fail(ctx, { code: 'ILLEGAL_ACTION', rule: 'legends.giving', message: '"You must be grouped-up with the other character."' });
        emit(ctx, { type: 'legends.offered', combatantId: c.id, offer: { id: ctx.newId('o'), from: c.id, to: to.id, itemId: it!.id, kind: 'hand' } });
      },
    },
  };
  return specs as unknown as Record<string, Spec>;
}

/** incapacitated or paralyzed: "you will technically drop any item(s) in your hands"; a carrier that falls drops who they carry */
export function fall(ctx: LCtx, id: string): void {
  const s = ctx.state;
  const c = s.combatants[id]!;
  const p = posOf(c);
  for (const it of c.items.filter(inHand)) {
    const dropped: DroppedInfo = { by: id, round: s.clock.round, turnN: c.data.turn.n, zone: p.zone, area: p.area, engagement: p.engagement, group: p.group, fallen: true };
    emit(ctx, { type: 'legends.itemMoved', combatantId: id, fromId: id, toId: id, itemId: it.id, location: 'ground', dropped });
  }
  for (const x of Object.values(s.combatants)) {
    if (x.data.carriedBy !== id) continue;
    // "You suffer a knockdown if the character carrying you drops you involuntarily."
    emit(ctx, { type: 'legends.carryEnded', combatantId: id, targetId: x.id, voluntary: false });
    const knock = makeEffect(ctx as never, EXPIRY, { name: 'Knocked down (dropped while carried)', condition: 'knocked-down', targetId: x.id, sourceId: id, duration: null });
    emit(ctx, { type: 'effect.applied', effect: knock });
  }
}

export { addDisadvantage, groupIds, statRoll };
