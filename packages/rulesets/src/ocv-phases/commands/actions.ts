import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { ACT_IDS, FREE_IDS, ROW, ROWS } from '../catalogue.js';
import { checkActPrerequisite, checkBudget, checkFullActionNamed, checkItem, checkStunned, checkTurn } from '../checks/index.js';
import { declare, negation } from '../flow/actions.js';
import { newJob } from '../mechanics/jobs.js';
import type { OcvPhasesOptions } from '../options.js';
import { st, type RS } from '../state/index.js';
import { enumOf, provokeFields } from './schemas.js';

const command = commandKit<RS, OcvPhasesOptions>();

/** The other rows of the table: move and full-phase actions that are not movement, and free actions. */
export const actionCommands = {
  act: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('act', {
      combatantId: idSchema,
      action: enumOf(ACT_IDS),
      itemId: idSchema.optional(),
      fullAction: enumOf(ROWS.filter((r) => r.type === 'full' && r.via === 'act').map((r) => r.id)).optional(),
      ...provokeFields,
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const row = ROW[cmd.action]!;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, row.id));
      ensure(checkBudget(s, id, row.type));
      ensure(checkActPrerequisite(s, id, row.id));
      ensure(checkFullActionNamed(row.id, cmd.fullAction));
      ensure(checkItem(s, id, row.id, cmd.itemId));
      const noProvoke = negation(ctx, id, row, cmd);
      declare(ctx, newJob(id, row.id, 'regular', { itemId: cmd.itemId ?? null, noProvoke, fullAction: cmd.fullAction ?? null }), row.type);
    },
  }),
  free: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('free', { combatantId: idSchema, action: enumOf(FREE_IDS), itemId: idSchema.optional() }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const row = ROW[cmd.action]!;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, row.id));
      ensure(checkBudget(s, id, 'free'));
      declare(ctx, newJob(id, row.id, 'regular', { itemId: cmd.itemId ?? null }), 'free');
    },
  }),
};
