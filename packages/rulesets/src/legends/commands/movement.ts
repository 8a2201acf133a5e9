import { z } from 'zod';
import { commandSchema, ensure, idSchema, refuse } from '@fray/engine';
import {
  checkFinishMove,
  checkGrouped,
  checkGroupStillToMove,
  checkOwnMove,
  checkPrepareRush,
  checkRush,
  checkWatch,
  checkWatchStillToMove,
  noPreparedReaction,
} from '../checks/movement.js';
import { clone, membersOfGroup, posOf, type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command } from './kit.js';
import { breakoutSchema, stepsBetween } from '../mechanics/space.js';
import { continueMovement, watchedBy } from '../flow/rounds.js';
import {
  arrivals,
  destinationSchema,
  doRush,
  openGroupMoveOf,
  prepareFields,
  reachedPosition,
  reachOf,
  requireMovementDecider,
  resolveDestination,
  rollMovement,
  settle,
  shiftQueue,
} from './moving.js';
import type { PendingMove } from '../state/index.js';

/** The movement phase: a movement roll, rushing, staying, reactive movement, grouped-up movement. */

const move = command({
  actor: 'combatant',
  schema: commandSchema('move', {
    combatantId: idSchema,
    destination: destinationSchema,
    breakout: breakoutSchema.optional(),
    uncontested: z.boolean().optional(),
  }),
  handle(ctx: LCtx, cmd) {
    const c = requireMovementDecider(ctx, cmd.combatantId);
    ensure(checkOwnMove(openGroupMoveOf(ctx.state, c) !== undefined, cmd.by, cmd.uncontested));
    const r = resolveDestination(ctx, c, cmd.destination);
    shiftQueue(ctx, [c.id]);
    rollMovement(ctx, c, r, cmd.breakout, false, null, Boolean(cmd.uncontested));
    continueMovement(ctx);
  },
});

const finishMove = command({
  actor: 'combatant',
  schema: commandSchema('finishMove', {
    combatantId: idSchema,
    rush: z.enum(['none', 'self', 'external']).default('none'),
    keepTogether: z.boolean().default(true),
    prepareRush: z.object(prepareFields).strict().optional(),
  }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const id = cmd.combatantId;
    const p = s.rs.pending.find((x) => x.combatantId === id && !x.finished);
    ensure(checkFinishMove(s, id, p));
    if (!p) return;
    const c = s.combatants[id]!;
    const rush = cmd.rush;
    let margin = p.margin;
    if (rush !== 'none') {
      ensure(checkRush(c, rush));
      // "apply a reactive +TN equal to your SPD to the movement roll"
      margin += doRush(ctx, c, rush);
    }
    const reach = reachOf(ctx.options, margin, rush !== 'none');
    if (cmd.prepareRush) {
      const pr = cmd.prepareRush;
      // "If your roll result in normal movement is such that you would be able to rush for increased distance (but you did not rush), you may prepare a rush as reactive movement"
      ensure(checkPrepareRush(s, c, p, rush));
      ensure(checkWatch(s, [id], pr.watch));
      emit(ctx, {
        type: 'legends.reactionPrepared',
        combatantId: id,
        reaction: { id: ctx.newId('rx'), by: [id], watch: pr.watch, anticipate: pr.anticipate, kind: 'rush', margin: p.margin },
        gmOnly: c.controller === null || undefined,
      });
    }
    const done: PendingMove = { ...p, finished: { reach, keep: cmd.keepTogether } };
    emit(ctx, { type: 'legends.moveUpdated', combatantId: id, pending: clone(done), rush, reach });
    settle(ctx, done);
    continueMovement(ctx);
  },
});

const stay = command({
  actor: 'combatant',
  schema: commandSchema('stay', { combatantId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const c = requireMovementDecider(ctx, cmd.combatantId);
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
});

const prepareReaction = command({
  actor: 'combatant',
  schema: commandSchema('prepareReaction', { combatantId: idSchema, ...prepareFields, asGroup: z.boolean().default(false) }),
  handle(ctx: LCtx, cmd) {
    const c = requireMovementDecider(ctx, cmd.combatantId);
    const s = ctx.state;
    let by = [c.id];
    if (cmd.asGroup) {
      const g = posOf(c).group;
      ensure(checkGrouped(c, false));
      by = membersOfGroup(s, g!)
        .filter((m) => s.rs.queue.includes(m.id))
        .map((m) => m.id);
    }
    ensure(checkWatch(s, by, cmd.watch));
    ensure(checkWatchStillToMove(s, cmd.watch));
    // an NPC's prepared reaction is the GM's secret
    const secret = c.controller === null || undefined;
    emit(ctx, {
      type: 'legends.reactionPrepared',
      combatantId: c.id,
      reaction: { id: ctx.newId('rx'), by, watch: cmd.watch, anticipate: cmd.anticipate, kind: 'move' },
      gmOnly: secret,
    });
    shiftQueue(ctx, by);
    continueMovement(ctx);
  },
});

const react = command({
  actor: 'combatant',
  reaction: true,
  schema: commandSchema('react', {
    combatantId: idSchema,
    destination: destinationSchema,
    rush: z.enum(['self', 'external']).default('self'),
  }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const w = s.reaction;
    const id = cmd.combatantId;
    const c = s.combatants[id]!;
    const watched = w ? (watchedBy(w) ?? [w.trigger.combatantId]) : [];
    const rx = w && s.rs.reactions.find((r) => watched.includes(r.watch) && r.by.includes(id));
    if (!w || w.kind !== 'legends.reactive-movement' || !rx) return refuse(noPreparedReaction(s, c, w));
    emit(ctx, { type: 'legends.reactionUsed', combatantId: id, reactionId: rx.id });
    const r = resolveDestination(ctx, c, cmd.destination);
    if (rx.kind === 'move') {
      rollMovement(ctx, c, r, undefined, true, null, false);
      return;
    }
    // a prepared rush: "You do not suffer the effects and cost of a rush until you actually use it."
    const rush = cmd.rush;
    ensure(checkRush(c, rush));
    doRush(ctx, c, rush);
    const from = posOf(c);
    const steps = stepsBetween(s, from, r.to);
    const to = reachedPosition(s, from, r.to, steps, 1);
    const fake: PendingMove = {
      combatantId: id,
      destination: r.to,
      steps,
      die: 12,
      tn: 0,
      total: 0,
      margin: rx.margin ?? 0,
      success: true,
      escaping: false,
      reactive: true,
      group: null,
      rollId: '',
      join: r.join,
      mode: r.mode,
    };
    emit(ctx, {
      type: 'legends.moved',
      combatantId: id,
      from: clone(from),
      to: clone(to),
      moves: clone(arrivals(ctx, [id], fake, to, steps <= 1)),
      reach: 1,
      steps,
      preparedRush: true,
    });
  },
});

const groupMove = command({
  actor: 'combatant',
  schema: commandSchema('groupMove', { combatantId: idSchema, destination: destinationSchema, breakout: breakoutSchema.optional() }),
  handle(ctx: LCtx, cmd) {
    const c = requireMovementDecider(ctx, cmd.combatantId);
    const s = ctx.state;
    const g = posOf(c).group;
    ensure(checkGrouped(c, true));
    if (!g) return;
    let gm = openGroupMoveOf(s, c);
    const r = resolveDestination(ctx, c, cmd.destination);
    if (!gm) {
      const members = membersOfGroup(s, g)
        .filter((m) => !m.data.carriedBy && s.rs.movers.includes(m.id))
        .map((m) => m.id);
      ensure(checkGroupStillToMove(s, members));
      emit(ctx, {
        type: 'legends.groupMoveDeclared',
        combatantId: c.id,
        groupMove: clone({ group: g, input: cmd.destination, destination: r.to, members, agreed: [], rolled: false }),
      });
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
        rollMovement(
          ctx,
          mc,
          { to: clone(now.destination), join: r.join, mode: r.mode },
          m === c.id ? cmd.breakout : undefined,
          false,
          g,
          false,
        );
      }
    }
    continueMovement(ctx);
  },
});

export const movementCommands = { move, finishMove, stay, prepareReaction, react, groupMove };
