import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { z } from 'zod';
import { ROW, ROWS, RULE } from '../catalogue.js';
import {
  checkAbort,
  checkAbortAction,
  checkAbortOffered,
  checkAooManoeuvre,
  checkAooOffered,
  checkCanAoo,
  checkPath,
  checkPathGiven,
  checkReadiedAction,
  checkReadiedStepWithMove,
  checkStep,
  checkStunned,
  checkTakeReadied,
  checkTarget,
} from '../checks/index.js';
import { emit } from '../events.js';
import { negation, runJob } from '../flow/actions.js';
import { attackRoll } from '../flow/attack.js';
import { useOf } from '../mechanics/combat-values.js';
import { newJob } from '../mechanics/jobs.js';
import { abortCost, nextUp } from '../mechanics/opportunity.js';
import type { OcvPhasesOptions } from '../options.js';
import { hexSchema, st, type C, type Job, type RS } from '../state/index.js';
import { attackTargets } from './attack.js';
import { enumOf, mod, path, provokeFields } from './schemas.js';

const command = commandKit<RS, OcvPhasesOptions>();

/** An open "before the action" window that offers this character a response. */
function offeredWindow(ctx: C, id: string) {
  const w = st(ctx).reaction;
  return w && w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending' ? w : null;
}

const takeReadiedSchema = commandSchema('takeReadied', {
  combatantId: idSchema,
  action: z.string().min(1).max(64).optional(),
  targetId: idSchema.optional(),
  path: path.optional(),
  range: z.number().int().min(1).max(10_000).optional(),
  step: hexSchema.optional(),
  itemId: idSchema.optional(),
  ocvModifier: mod.optional(),
  ...provokeFields,
});

/** The job a readied action runs: its step, its targets or path, checked. */
function readiedJob(ctx: C, cmd: z.output<typeof takeReadiedSchema>, rowId: string | null): Job {
  const s = st(ctx);
  const id = cmd.combatantId;
  const step = cmd.step ?? null;
  let job = newJob(id, rowId ?? 'step', 'readied', { step: rowId ? step : null, path: rowId || !step ? [] : [step] });
  if (rowId === null) return job;
  const row = ROW[rowId]!;
  ensure(checkStunned(s, id, row.id));
  if (row.via === 'attack') {
    const targetIds = attackTargets(s, id, row.id, cmd, step ?? undefined);
    job = { ...job, targetIds, ranged: cmd.range ?? null, ocvModifier: cmd.ocvModifier ?? 0 };
  }
  if (row.via === 'move') {
    ensure(checkPathGiven(cmd.path, RULE.ready, 'readied move'));
    const p = cmd.path ?? [];
    ensure(checkPath(s, id, row.id, p));
    job = { ...job, path: p, noProvoke: negation(ctx, id, row, cmd) };
    ensure(checkReadiedStepWithMove(step));
  }
  if (row.via === 'free') job = { ...job, itemId: cmd.itemId ?? null };
  return job;
}

/** "Then, any time before your next action, you may take the readied action in response to that condition." */
function takeReadied(ctx: C, cmd: z.output<typeof takeReadiedSchema>): void {
  const s = st(ctx);
  const id = cmd.combatantId;
  ensure(checkTakeReadied(s, id));
  const h = s.combatants[id]!.data.hold;
  const rowId = cmd.action ?? (h?.kind === 'ready' ? h.action : null);
  const step = cmd.step ?? null;
  if (step) ensure(checkStep(s, id, step, true));
  ensure(checkReadiedAction(s, id, rowId, step));
  const job = readiedJob(ctx, cmd, rowId);
  const w = offeredWindow(ctx, id);
  const before = w ? w.trigger.combatantId : (s.clock.current ?? nextUp(s));
  // "you act immediately ahead of the character whose action triggered your readied action"
  emit(ctx, { type: 'ocv-phases.hold-taken', combatantId: id, kind: 'ready', before });
  const row = ROW[job.row]!;
  emit(ctx, {
    type: 'ocv-phases.declared',
    combatantId: id,
    row: job.row,
    actionType: row.type,
    via: 'readied',
    use: row.via === 'attack' || row.via === 'defend' ? useOf(s, job.row) : undefined,
  });
  if (w) {
    emit(ctx, { type: 'ocv-phases.intent', combatantId: id, intent: { windowId: w.id, combatantId: id, job, before, kind: 'readied' } });
    ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'reacted' });
  } else {
    runJob(ctx, { ...job, stage: 'provoke' });
  }
}

export const reactionCommands = {
  takeReadied: command({ actor: 'combatant', duringReaction: true, schema: takeReadiedSchema, handle: takeReadied }),
  abort: command({
    actor: 'combatant',
    duringReaction: true,
    // any row: "You can abort to any defensive attack or move action" is refused by its rule (checkAbortAction)
    schema: commandSchema('abort', {
      combatantId: idSchema,
      action: enumOf(ROWS.map((r) => r.id)),
      path: path.optional(),
      ...provokeFields,
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      ensure(checkAbortAction(cmd.action));
      ensure(checkAbort(s, id));
      ensure(checkAbortOffered(s, id));
      const w = offeredWindow(ctx, id);
      const row = ROW[cmd.action]!;
      let job = newJob(id, row.id, 'abort');
      if (row.moves) {
        ensure(checkPathGiven(cmd.path, RULE.abort, 'move'));
        const p = cmd.path ?? [];
        ensure(checkPath(s, id, row.id, p));
        job = { ...job, path: p, noProvoke: negation(ctx, id, row, cmd) };
      }
      const cost = abortCost(s, id);
      emit(ctx, { type: 'ocv-phases.aborted', combatantId: id, action: row.id, givesUp: cost.givesUp, lock: cost.lock });
      emit(ctx, {
        type: 'ocv-phases.declared',
        combatantId: id,
        row: row.id,
        actionType: row.type,
        via: 'abort',
        use: row.via === 'defend' ? useOf(s, row.id) : undefined,
      });
      if (w) {
        if (row.moves)
          emit(ctx, {
            type: 'ocv-phases.intent',
            combatantId: id,
            intent: { windowId: w.id, combatantId: id, job, before: null, kind: 'abort' },
          });
        ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'reacted' });
      } else {
        runJob(ctx, { ...job, stage: 'provoke' });
      }
    },
  }),
  opportunityAttack: command({
    actor: 'combatant',
    duringReaction: true,
    // any manoeuvre: "any manoeuvre that requires an attack roll" is refused by its rule (checkAooManoeuvre)
    schema: commandSchema('opportunityAttack', {
      combatantId: idSchema,
      manoeuvre: enumOf(ROWS.map((r) => r.id)).default('strike'),
      ocvModifier: mod.optional(),
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      ensure(checkAooManoeuvre(cmd.manoeuvre));
      ensure(checkCanAoo(s, id));
      ensure(checkAooOffered(s, id));
      const target = s.reaction!.trigger.combatantId!;
      ensure(checkTarget(s, id, target, null));
      attackRoll(ctx, id, target, cmd.manoeuvre, { ocvModifier: cmd.ocvModifier ?? 0, ranged: false, aoo: true, interrupt: true });
      ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'reacted' });
    },
  }),
};
