import { commandKit, commandSchema, ensure, idSchema } from '@fray/engine';
import { z } from 'zod';
import { ACTION_IDS } from '../catalogue/index.js';
import { checkDeclare, checkDelay, checkStop } from '../checks/commands.js';
import { emit } from '../events/index.js';
import { advance } from '../flow/index.js';
import { PHASES, phaseIndex } from '../mechanics/phases.js';
import { mustContinue } from '../mechanics/shape.js';
import { st, type RS } from '../state.js';
import type { Options } from '../options.js';
import { spoil } from './rolls.js';

/** A creature's own turn: declaring an intent, stopping for the round, delaying to a later phase. */

const command = commandKit<RS, Options>();

/** "During this phase all of the players declare what actions they intend their characters to take." */
const declare = command({
  actor: 'combatant',
  schema: commandSchema('declare', {
    combatantId: idSchema,
    intent: z.string().min(1).max(500),
    action: z.enum(ACTION_IDS).optional(),
    targetId: idSchema.optional(),
  }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const c = s.combatants[cmd.combatantId]!;
    ensure(checkDeclare(s, c));
    emit(ctx, {
      type: 'action-points.intent-declared',
      combatantId: c.id,
      intent: cmd.intent,
      ...(cmd.action ? { action: cmd.action } : {}),
      ...(cmd.targetId ? { targetId: cmd.targetId } : {}),
    });
  },
});

/** "The combat round ends when all combatants have spent their available action points or have chosen to make no further expenditures of AP." */
const stop = command({
  actor: 'combatant',
  schema: commandSchema('stop', { combatantId: idSchema }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const c = s.combatants[cmd.combatantId]!;
    ensure(checkStop(s, c));
    for (const r of c.data.inProgress.filter((x) => x.consecutive)) {
      if (c.data.ap > 0) spoil(ctx, c, r, 'stopped: "If you stop spending AP on such an action, it never comes to completion"');
    }
    emit(ctx, { type: 'action-points.stopped', combatantId: c.id, apLost: c.data.ap });
    if (st(ctx).clock.current === c.id) advance(ctx);
  },
});

/** "If a creature completed an action during the previous phase it may perform another action now or delay until the next phase." */
const delay = command({
  actor: 'combatant',
  schema: commandSchema('delay', { combatantId: idSchema, untilPhase: z.enum(PHASES) }),
  handle(ctx, cmd) {
    const s = st(ctx);
    const c = s.combatants[cmd.combatantId]!;
    const until = phaseIndex(cmd.untilPhase);
    ensure(checkDelay(s, c, until));
    const rec = mustContinue(s, c);
    if (rec) spoil(ctx, c, rec, 'delayed instead of continuing it');
    emit(ctx, { type: 'action-points.delayed', combatantId: c.id, until, phase: cmd.untilPhase });
    advance(ctx);
  },
});

export const turnCommands = { declare, stop, delay };
