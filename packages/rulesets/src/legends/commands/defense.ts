import { z } from 'zod';
import { commandSchema, idSchema, refuse } from '@fray/engine';
import { findItem, hasCond, membersOfGroup, opts, posOf, type GroupDefense, type LCtx } from '../state/index.js';
import { emit } from '../events/index.js';
import { command, gmTool } from './kit.js';
import { afterGroupDefense } from '../flow/rounds.js';
import { defenseLoad } from '../mechanics/defense.js';

/** Group defense: declared at the end of the movement phase, re-prioritized when defenders fall, broken down by the GM. */

function validateDefense(ctx: LCtx, g: string, d: GroupDefense): void {
  const s = ctx.state;
  const members = membersOfGroup(s, g);
  for (const id of d.protected) {
    const m = members.find((x) => x.id === id);
    if (!m) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.group-defense', message: `${s.combatants[id]?.name ?? id} is not in the group.` });
    if (m.data.carriedBy) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.carrying', message: '"You do not count for group defense nor for outnumbering dice" while carried.' });
    // "Characters already in a grapple cannot begin to be defended via group defense"
    if (hasCond(s, id, ['grappled', 'grappling']) && !(s.rs.defense[g]?.protected.includes(id) ?? false)) {
      refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.group-defense.grapple', message: '"Characters already in a grapple cannot begin to be defended via group defense"' });
 }
 }
  const { load, defenders, ratio } = defenseLoad(s, g, d);
  if (load * ratio > defenders * 4) {
    refuse({
      code: 'ILLEGAL_ACTION',
      rule: 'legends.group-defense.ratio',
      message: `"a group can protect 1/3 of its members via group defense (that is, 1 protected character per 2 non-protected characters)": ${defenders} defender(s) at 1:${ratio} cannot protect ${load / 4} character(s).`,
 });
 }
}

const declareGroupDefense = command({
  actor: 'combatant',
  schema: commandSchema('declareGroupDefense', {
    combatantId: idSchema,
    protected: z.array(idSchema).max(10).default([]),
    objects: z
      .array(z.object({ id: idSchema, name: z.string().min(1).max(120).optional(), quarters: z.number().int().min(0).max(40).optional(), area: z.string().min(1).max(140).optional() }).strict())
      .max(10)
      .default([]),
 }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const c = s.combatants[cmd.combatantId as string]!;
    const g = posOf(c).group;
    if (!g) return refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.group-defense', message: `${c.name} is not grouped-up: groups "gain access to group defense".` });
    const reprioritize = s.rs.overflow.includes(g);
    if (!reprioritize && (s.clock.phase !== 'group-defense' || !s.rs.queue.includes(g))) {
      refuse({ code: 'WRONG_PHASE', rule: 'legends.group-defense.timing', message: '"Which characters or objects are defended via group defense must be decided at the end of the movement phase."' });
 }
    if (reprioritize) {
      const before = s.rs.defense[g]!.protected;
      const added = (cmd.protected as string[]).filter((x) => !before.includes(x));
      if (added.length > 0) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.group-defense.fallen-defenders', message: 'After defenders fall the group chooses "who to prioritize and keep defending": nobody new.' });
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
});

const breakGroupDefense = command({
  ...gmTool,
  inSetup: false,
  schema: commandSchema('breakGroupDefense', { group: idSchema }),
  handle(ctx: LCtx, cmd) {
    // "Any lengthy disagreement amongst the group regarding any part of group defense results in group defense breaking down entirely."
    const d = ctx.state.rs.defense[cmd.group as string];
    if (!d) return refuse({ code: 'INVALID_COMMAND', rule: 'legends.group-defense', message: `Group "${String(cmd.group)}" has no group defense.` });
    for (const id of d.protected) emit(ctx, { type: 'legends.groupDefenseLeft', combatantId: id, group: cmd.group });
    emit(ctx, { type: 'legends.groupDefenseBrokenDown', group: cmd.group });
    if (ctx.state.rs.queue.includes(cmd.group as string)) {
      emit(ctx, { type: 'legends.queue', queue: ctx.state.rs.queue.filter((x) => x !== cmd.group) });
      if (ctx.state.rs.queue.length === 0 && ctx.state.clock.phase === 'group-defense') afterGroupDefense(ctx);
 }
 },
});

export const defenseCommands = { declareGroupDefense, breakGroupDefense };
