import { commandKit, commandSchema, ensure, idSchema, type Hex } from '@fray/engine';
import { z } from 'zod';
import { ATTACK_IDS, DEFEND_IDS, ROW } from '../catalogue.js';
import { checkBudget, checkStunned, checkTarget, checkTargetList, checkTurn } from '../checks/index.js';
import { declare } from '../flow/actions.js';
import { newJob } from '../mechanics/jobs.js';
import type { OcvPhasesOptions } from '../options.js';
import { st, type RS, type S } from '../state/index.js';
import { enumOf, mod } from './schemas.js';

const command = commandKit<RS, OcvPhasesOptions>();

/** The targets an attack names, each one checked ("adjacent" for melee; range and line of sight for ranged). */
export function attackTargets(
  s: S,
  id: string,
  rowId: string,
  cmd: { targetId?: string | undefined; targetIds?: string[] | undefined; range?: number | undefined },
  from?: Hex,
): string[] {
  const targets = cmd.targetIds ?? (cmd.targetId ? [cmd.targetId] : []);
  const range = cmd.range ?? null;
  ensure(checkTargetList(rowId, targets, range));
  for (const t of targets) ensure(checkTarget(s, id, t, range, from));
  return targets;
}

export const attackCommands = {
  attack: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('attack', {
      combatantId: idSchema,
      manoeuvre: enumOf(ATTACK_IDS),
      targetId: idSchema.optional(),
      targetIds: z.array(idSchema).min(1).max(20).optional(),
      range: z.number().int().min(1).max(10_000).optional(),
      ocvModifier: mod.optional(),
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const row = ROW[cmd.manoeuvre]!;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, row.id));
      ensure(checkBudget(s, id, row.type));
      const targetIds = attackTargets(s, id, row.id, cmd);
      declare(ctx, newJob(id, row.id, 'regular', { targetIds, ranged: cmd.range ?? null, ocvModifier: cmd.ocvModifier ?? 0 }), row.type);
    },
  }),
  defend: command({
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('defend', { combatantId: idSchema, manoeuvre: enumOf(DEFEND_IDS) }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId;
      const row = ROW[cmd.manoeuvre]!;
      ensure(checkTurn(s, id));
      ensure(checkStunned(s, id, row.id));
      ensure(checkBudget(s, id, row.type));
      declare(ctx, newJob(id, row.id, 'regular'), row.type);
    },
  }),
};
