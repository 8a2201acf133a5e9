import { z } from 'zod';
import { commandSchema, ensure, idSchema } from '@fray/engine';
import { checkBreakDefense, checkDeclareDefense, checkDefense } from '../checks/defense.js';
import { findItem, opts, posOf, type GroupDefense, type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command, gmTool } from './kit.js';
import { afterGroupDefense } from '../flow/rounds.js';

/** Group defense: declared at the end of the movement phase, re-prioritized when defenders fall, broken down by the GM. */

const declareGroupDefense = command({
  actor: 'combatant',
  schema: commandSchema('declareGroupDefense', {
    combatantId: idSchema,
    protected: z.array(idSchema).max(100).default([]),
    objects: z
      .array(
        z
          .object({
            id: idSchema,
            name: z.string().min(1).max(120).optional(),
            quarters: z.number().int().min(0).max(40).optional(),
            area: z.string().min(1).max(140).optional(),
          })
          .strict(),
      )
      .max(10)
      .default([]),
  }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const c = s.combatants[cmd.combatantId]!;
    const g = posOf(c).group;
    const reprioritize = g !== null && s.rs.overflow.includes(g);
    const before = g === null ? [] : (s.rs.defense[g]?.protected ?? []);
    ensure(
      checkDeclareDefense(
        s,
        c,
        g,
        cmd.protected.filter((x) => !before.includes(x)),
      ),
    );
    if (g === null) return;
    const o = opts(s);
    const objects = cmd.objects.map((ob) => {
      const it = findItem(s, ob.id);
      // "such a defended location may count as more or less than 1 character": the GM gives quarters (default 1 character)
      const quarters = ob.quarters ?? (it ? o.itemWeightQuarters : 4);
      return { id: ob.id, name: ob.name ?? it?.item.name ?? ob.id, quarters, ...(ob.area ? { area: ob.area } : {}) };
    });
    const d: GroupDefense = { protected: [...new Set(cmd.protected)], objects };
    ensure(checkDefense(s, g, d));
    if (reprioritize) {
      for (const id of before) if (!d.protected.includes(id)) emit(ctx, { type: 'legends.groupDefenseLeft', combatantId: id, group: g });
    }
    emit(ctx, { type: 'legends.groupDefenseDeclared', combatantId: c.id, group: g, protected: d.protected, objects: d.objects });
    if (!reprioritize) {
      emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => x !== g) });
      if (ctx.state.rs.queue.length === 0) afterGroupDefense(ctx);
    }
  },
});

const breakGroupDefense = command({
  ...gmTool,
  inSetup: false,
  schema: commandSchema('breakGroupDefense', { group: idSchema }),
  handle(ctx: LCtx, cmd) {
    // "Any lengthy disagreement amongst the group regarding any part of group defense results in group defense breaking down entirely."
    ensure(checkBreakDefense(ctx.state, cmd.group));
    const d = ctx.state.rs.defense[cmd.group]!;
    for (const id of d.protected) emit(ctx, { type: 'legends.groupDefenseLeft', combatantId: id, group: cmd.group });
    emit(ctx, { type: 'legends.groupDefenseBrokenDown', group: cmd.group });
    if (ctx.state.rs.queue.includes(cmd.group)) {
      emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => x !== cmd.group) });
      if (ctx.state.rs.queue.length === 0 && ctx.state.clock.phase === 'group-defense') afterGroupDefense(ctx);
    }
  },
});

export const defenseCommands = { declareGroupDefense, breakGroupDefense };
