import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { z } from 'zod';
import { checkActNow, checkBudget, checkDelay, checkDelayBefore, checkReadyAction, checkStunned, checkTurn } from '../checks/index.js';
import { emit } from '../events.js';
import { declare } from '../flow/actions.js';
import { advance } from '../flow/clock.js';
import { newJob } from '../mechanics/jobs.js';
import { nextUp } from '../mechanics/opportunity.js';
import type { OcvPhasesOptions } from '../options.js';
import { phaseKey, st, type Hold, type RS } from '../state/index.js';

const command = commandKit<RS, OcvPhasesOptions>();

/** Delay and ready: "two ways to change when you act during combat by altering your place in the initiative order". */
export const initiativeCommands = {
  delay: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('delay', { combatantId: idSchema, before: idSchema.optional() }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const before = cmd.before ?? null;
      ensure(checkTurn(s, id));
      ensure(checkDelay(s, id));
      ensure(checkDelayBefore(s, id, before));
      emit(ctx, { type: 'ocv-phases.held', combatantId: id, hold: { kind: 'delay', key: phaseKey(s.rs), before } });
      emit(ctx, { type: 'ocv-phases.current', combatantId: null });
      advance(ctx);
    },
  }),
  actNow: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('actNow', { combatantId: idSchema }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      ensure(checkActNow(s, id));
      const cur = s.clock.current;
      const before = nextUp(s);
      if (cur) {
        emit(ctx, { type: 'ocv-phases.slot-yielded', combatantId: cur });
        emit(ctx, { type: 'ocv-phases.current', combatantId: null });
      }
      emit(ctx, { type: 'ocv-phases.hold-taken', combatantId: id, kind: 'delay', before });
    },
  }),
  ready: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('ready', {
      combatantId: idSchema,
      actionType: z.enum(['attack', 'move', 'free']),
      action: z.string().min(1).max(64),
      trigger: z.object({
        on: z.enum(['attacks', 'moves', 'acts', 'enters-reach', 'manual']),
        by: idSchema.optional(),
        description: z.string().min(1).max(300),
      }),
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const t = cmd.trigger;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, 'ready'));
      ensure(checkBudget(s, id, 'attack'));
      ensure(checkReadyAction(s, cmd.actionType, cmd.action, t.by));
      declare(ctx, newJob(id, 'ready', 'regular'), 'attack');
      const hold: Hold = {
        kind: 'ready',
        key: phaseKey(s.rs),
        actionType: cmd.actionType,
        action: cmd.action,
        trigger: { on: t.on, by: t.by ?? null, description: t.description },
      };
      emit(ctx, { type: 'ocv-phases.held', combatantId: id, hold });
    },
  }),
};
