import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { MOVE_IDS, ROW } from '../catalogue.js';
import { checkBudget, checkCrawl, checkMoveTarget, checkPath, checkStep, checkStunned, checkTurn } from '../checks/index.js';
import { declare, negation } from '../flow/actions.js';
import { newJob } from '../mechanics/jobs.js';
import type { OcvPhasesOptions } from '../options.js';
import { hexSchema, st, type RS } from '../state/index.js';
import { enumOf, mod, path, provokeFields } from './schemas.js';

const command = commandKit<RS, OcvPhasesOptions>();

export const movementCommands = {
  move: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('move', {
      combatantId: idSchema,
      mode: enumOf(MOVE_IDS.filter((m) => m !== 'step')),
      path,
      targetId: idSchema.optional(),
      ocvModifier: mod.optional(),
      ...provokeFields,
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const row = ROW[cmd.mode]!;
      const p = cmd.path;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, row.id));
      ensure(checkBudget(s, id, row.type));
      ensure(checkCrawl(row.id, p));
      ensure(checkPath(s, id, row.id, p));
      ensure(checkMoveTarget(s, row.id, cmd.targetId));
      const targetIds = cmd.targetId && (row.id === 'move-by' || row.id === 'move-through') ? [cmd.targetId] : [];
      const noProvoke = negation(ctx, id, row, cmd);
      declare(ctx, newJob(id, row.id, 'regular', { path: p, targetIds, noProvoke, ocvModifier: cmd.ocvModifier ?? 0 }), row.type);
    },
  }),
  step: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('step', { combatantId: idSchema, to: hexSchema }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, 'step'));
      ensure(checkStep(s, id, cmd.to));
      declare(ctx, newJob(id, 'step', 'regular', { path: [cmd.to] }), 'none');
    },
  }),
};
