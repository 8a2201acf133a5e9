import { z } from 'zod';
import { emit } from '../events/index.js';
import { commandSchema, ensure, idSchema } from '@fray/engine';
import { checkPendingAttack } from '../checks/gm.js';
import { type LCtx } from '../state/index.js';
import { endIfOneSideStands, standingSides, wound } from './consequences.js';
import { command } from './kit.js';

/**
 * The outcome of an attack (option `attackOutcome`, default on; docs/rulesets/legends.md, "Attack outcomes"): the GM
 * confirms or changes the hit and the damage the server rolled.
 */

const resolveAttack = command({
  actor: 'gm',
  inSetup: false,
  duringReaction: true,
  schema: commandSchema('resolveAttack', {
    attackId: idSchema,
    /** the GM's ruling on the hit (default: the roll's) */
    hit: z.boolean().optional(),
    /** the damage dealt on a hit (default: the damage rolled) */
    damage: z.number().int().min(0).max(1000).optional(),
  }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    ensure(checkPendingAttack(s, cmd.attackId));
    const a = s.rs.attacks.find((x) => x.id === cmd.attackId)!;
    const hit = cmd.hit ?? a.hit;
    const damage = hit ? (cmd.damage ?? a.damage) : 0;
    const changed = hit !== a.hit || damage !== a.damage;
    emit(ctx, {
      type: 'legends.attackResolved',
      attackId: a.id,
      combatantId: a.by,
      targetId: a.target,
      hit,
      damage,
      changed: changed || undefined,
    });
    const t = s.combatants[a.target];
    if (!t || !hit || damage === 0) return;
    const before = standingSides(s);
    wound(ctx, t.id, damage, `hit by ${s.combatants[a.by]?.name ?? a.by}`);
    endIfOneSideStands(ctx, before);
  },
});

export const attackCommands = { resolveAttack };
