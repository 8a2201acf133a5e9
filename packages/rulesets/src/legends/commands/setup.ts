import { z } from 'zod';
import { commandSchema, idSchema, refuse, requireCombatant } from '@fray/engine';
import { clone, membersOfEngagement, membersOfGroup, opts, posOf, positionSchema, zoneTraitsSchema, type LCombatant, type LCtx, type Position, type Zone } from '../state/index.js';
import { emit } from '../events/index.js';
import { command, gmTool } from './kit.js';
import { checkOverflow } from './consequences.js';

/** Setting the scene (the GM): surprise, zones, groups, engagements, positions. */


function requireSetupZone(ctx: LCtx, zone: string): void {
  if (!ctx.state.rs.zones[zone]) refuse({ code: 'INVALID_COMMAND', rule: 'legends.zones', message: `No zone "${zone}".` });
}

function placeAll(ctx: LCtx, moves: { id: string; to: Position }[], why: string): void {
  emit(ctx, { type: 'legends.placed', combatantId: moves[0]?.id ?? null, moves: clone(moves), reason: why });
  checkOverflow(ctx);
}

const setSurprised = command({
  ...gmTool,
  schema: commandSchema('setSurprised', { combatantId: idSchema, surprised: z.boolean() }),
  handle(ctx: LCtx, cmd) {
    const c = requireCombatant(ctx as never, cmd.combatantId as string);
    if (ctx.state.status !== 'setup') refuse({ code: 'COMBAT_ALREADY_STARTED', rule: 'legends.surprise', message: 'Surprise is marked when combat begins.' });
    // "If a character cannot see any enemy characters when combat begins, they are considered surprised"
    emit(ctx, { type: 'legends.surprised', combatantId: c.id, surprised: cmd.surprised as boolean });
 },
});

const defineZone = command({
  ...gmTool,
  schema: commandSchema('defineZone', {
    zone: z
      .object({
        id: z.string().min(1).max(64),
        name: z.string().min(1).max(120).optional(),
        traits: zoneTraitsSchema.optional(),
        features: z.array(z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(120), description: z.string().max(500).default('') }).strict()).max(50).optional(),
        neighbors: z.array(z.string().min(1).max(64)).max(50).optional(),
 })
      .strict(),
 }),
  handle(ctx: LCtx, cmd) {
    const input = cmd.zone as { id: string; name?: string; traits?: Zone['traits']; features?: Zone['features']; neighbors?: string[] };
    const old = ctx.state.rs.zones[input.id];
    const zone: Zone = {
      id: input.id,
      name: input.name ?? old?.name ?? input.id,
      traits: input.traits ?? old?.traits ?? {},
      features: input.features ?? old?.features ?? [],
      neighbors: input.neighbors ?? old?.neighbors ?? [],
 };
    for (const n of zone.neighbors) if (n === zone.id || !ctx.state.rs.zones[n]) refuse({ code: 'INVALID_COMMAND', rule: 'legends.zones', message: `No neighbouring zone "${n}".` });
    emit(ctx, { type: 'legends.zoneDefined', zone: clone(zone) });
    // neighbours are mutual
    for (const other of Object.values(ctx.state.rs.zones)) {
      if (other.id === zone.id) continue;
      const should = zone.neighbors.includes(other.id);
      const has = other.neighbors.includes(zone.id);
      if (should !== has) {
        emit(ctx, { type: 'legends.zoneDefined', zone: { ...clone(other), neighbors: should ? [...other.neighbors, zone.id] : other.neighbors.filter((x) => x !== zone.id) } });
 }
 }
 },
});

const formGroup = command({
  ...gmTool,
  schema: commandSchema('formGroup', { combatantIds: z.array(idSchema).min(1).max(100), groupId: idSchema.optional() }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const ids = [...new Set(cmd.combatantIds as string[])];
    const cs = ids.map((id) => requireCombatant(ctx as never, id) as unknown as LCombatant);
    const g = (cmd.groupId as string | undefined) ?? ctx.newId('grp');
    const existing = membersOfGroup(s, g).filter((x) => !ids.includes(x.id));
    const all = [...existing, ...cs];
    const first = all[0]!;
    if (all.length < 2) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: '"A group can be as small as 2 characters"' });
    if (all.length > opts(s).maxGroupSize) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: `A group "cannot usually be larger than ${opts(s).maxGroupSize}"; "a larger number of characters should be considered to be more than 1 group."` });
    for (const c of all) {
      if (c.side !== first.side) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: '"Allied characters keeping in close proximity to one another are referred to as grouped-up."' });
      if (posOf(c).zone !== posOf(first).zone) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: 'A group is in one zone.' });
 }
    const fp = posOf(first);
    placeAll(ctx, cs.map((c) => ({ id: c.id, to: { ...posOf(c), area: fp.area, group: g, engagement: posOf(c).engagement ?? fp.engagement } })), 'group formed');
 },
});

const leaveGroup = command({
  ...gmTool,
  schema: commandSchema('leaveGroup', { combatantId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
    placeAll(ctx, [{ id: c.id, to: { ...posOf(c), group: null } }], 'left group');
 },
});

const formEngagement = command({
  ...gmTool,
  schema: commandSchema('formEngagement', { combatantIds: z.array(idSchema).min(1).max(200), engagementId: idSchema.optional() }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const ids = [...new Set(cmd.combatantIds as string[])];
    const cs = ids.map((id) => requireCombatant(ctx as never, id) as unknown as LCombatant);
    const e = (cmd.engagementId as string | undefined) ?? ctx.newId('eng');
    const all = [...membersOfEngagement(s, e).filter((x) => !ids.includes(x.id)), ...cs];
    if (new Set(all.map((c) => c.side)).size < 2) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: 'An engagement is between enemies: "all the characters on either side that are currently able to attack each other".' });
    if (all.length > opts(s).maxEngagementSize) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `"Very large engagements of more than ${opts(s).maxEngagementSize} characters should be split up into different engagements"` });
    const zone = posOf(all[0]!).zone;
    if (all.some((c) => posOf(c).zone !== zone)) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: 'An engagement is in one zone.' });
    const area = posOf(all[0]!).area;
    placeAll(ctx, cs.map((c) => ({ id: c.id, to: { ...posOf(c), area, engagement: e } })), 'engagement formed');
 },
});

const leaveEngagement = command({
  ...gmTool,
  schema: commandSchema('leaveEngagement', { combatantId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
    placeAll(ctx, [{ id: c.id, to: { ...posOf(c), engagement: null } }], 'left engagement');
 },
});

const combatant_place = command({
  ...gmTool,
  schema: commandSchema('combatant.place', { combatantId: idSchema, position: z.unknown() }),
  handle(ctx: LCtx, cmd) {
    const c = requireCombatant(ctx as never, cmd.combatantId as string) as unknown as LCombatant;
    const parsed = positionSchema.safeParse(cmd.position);
    if (!parsed.success) return refuse({ code: 'INVALID_COMMAND', rule: 'legends.position', message: z.prettifyError(parsed.error) });
    const p = parsed.data;
    requireSetupZone(ctx, p.zone);
    const s = ctx.state;
    if (p.group) {
      const others = membersOfGroup(s, p.group).filter((x) => x.id !== c.id);
      if (others.some((x) => x.side !== c.side)) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: 'Groups are of allied characters.' });
      if (others.length + 1 > opts(s).maxGroupSize) refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.grouping', message: `A group "cannot usually be larger than ${opts(s).maxGroupSize}".` });
 }
    if (p.engagement && membersOfEngagement(s, p.engagement).filter((x) => x.id !== c.id).length + 1 > opts(s).maxEngagementSize) {
      refuse({ code: 'ILLEGAL_ACTION', rule: 'legends.engagement', message: `Engagements of more than ${opts(s).maxEngagementSize} characters should be split up.` });
 }
    placeAll(ctx, [{ id: c.id, to: p }], 'placed by the GM');
 },
});

export const setupCommands = { setSurprised, defineZone, formGroup, leaveGroup, formEngagement, leaveEngagement, 'combatant.place': combatant_place };
