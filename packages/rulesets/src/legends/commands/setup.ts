import { z } from 'zod';
import { commandSchema, ensure, idSchema } from '@fray/engine';
import { checkEngagement, checkGroup, checkNeighbors, checkPlace, checkSurprise } from '../checks/setup.js';
import {
  clone,
  membersOfEngagement,
  membersOfGroup,
  posOf,
  positionSchema,
  zoneTraitsSchema,
  type LCtx,
  type Position,
  type Zone,
} from '../state/index.js';
import { emit } from '../events/index.js';
import { combatant, command, gmTool } from './kit.js';
import { checkOverflow } from './consequences.js';

/** Setting the scene (the GM): surprise, zones, groups, engagements, positions. */

function placeAll(ctx: LCtx, moves: { id: string; to: Position }[], why: string): void {
  emit(ctx, { type: 'legends.placed', combatantId: moves[0]?.id ?? null, moves: clone(moves), reason: why });
  checkOverflow(ctx);
}

const setSurprised = command({
  ...gmTool,
  schema: commandSchema('setSurprised', { combatantId: idSchema, surprised: z.boolean() }),
  handle(ctx: LCtx, cmd) {
    const c = combatant(ctx, cmd.combatantId);
    ensure(checkSurprise(ctx.state));
    // "If a character cannot see any enemy characters when combat begins, they are considered surprised"
    emit(ctx, { type: 'legends.surprised', combatantId: c.id, surprised: cmd.surprised });
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
        features: z
          .array(
            z
              .object({ id: z.string().min(1).max(64), name: z.string().min(1).max(120), description: z.string().max(500).default('') })
              .strict(),
          )
          .max(50)
          .optional(),
        neighbors: z.array(z.string().min(1).max(64)).max(50).optional(),
      })
      .strict(),
  }),
  handle(ctx: LCtx, cmd) {
    const input = cmd.zone;
    const old = ctx.state.rs.zones[input.id];
    const zone: Zone = {
      id: input.id,
      name: input.name ?? old?.name ?? input.id,
      traits: input.traits ?? old?.traits ?? {},
      features: input.features ?? old?.features ?? [],
      neighbors: input.neighbors ?? old?.neighbors ?? [],
    };
    ensure(checkNeighbors(ctx.state, zone));
    emit(ctx, { type: 'legends.zoneDefined', zone: clone(zone) });
    // neighbours are mutual
    for (const other of Object.values(ctx.state.rs.zones)) {
      if (other.id === zone.id) continue;
      const should = zone.neighbors.includes(other.id);
      const has = other.neighbors.includes(zone.id);
      if (should !== has) {
        emit(ctx, {
          type: 'legends.zoneDefined',
          zone: { ...clone(other), neighbors: should ? [...other.neighbors, zone.id] : other.neighbors.filter((x) => x !== zone.id) },
        });
      }
    }
  },
});

const formGroup = command({
  ...gmTool,
  schema: commandSchema('formGroup', { combatantIds: z.array(idSchema).min(1).max(100), groupId: idSchema.optional() }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const ids = [...new Set(cmd.combatantIds)];
    const cs = ids.map((id) => combatant(ctx, id));
    const g = cmd.groupId ?? ctx.newId('grp');
    const existing = membersOfGroup(s, g).filter((x) => !ids.includes(x.id));
    const all = [...existing, ...cs];
    ensure(checkGroup(s, all));
    const first = all[0]!;
    const fp = posOf(first);
    placeAll(
      ctx,
      cs.map((c) => ({ id: c.id, to: { ...posOf(c), area: fp.area, group: g, engagement: posOf(c).engagement ?? fp.engagement } })),
      'group formed',
    );
  },
});

const leaveGroup = command({
  ...gmTool,
  schema: commandSchema('leaveGroup', { combatantId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const c = combatant(ctx, cmd.combatantId);
    placeAll(ctx, [{ id: c.id, to: { ...posOf(c), group: null } }], 'left group');
  },
});

const formEngagement = command({
  ...gmTool,
  schema: commandSchema('formEngagement', { combatantIds: z.array(idSchema).min(1).max(200), engagementId: idSchema.optional() }),
  handle(ctx: LCtx, cmd) {
    const s = ctx.state;
    const ids = [...new Set(cmd.combatantIds)];
    const cs = ids.map((id) => combatant(ctx, id));
    const e = cmd.engagementId ?? ctx.newId('eng');
    const all = [...membersOfEngagement(s, e).filter((x) => !ids.includes(x.id)), ...cs];
    ensure(checkEngagement(s, all));
    const area = posOf(all[0]!).area;
    placeAll(
      ctx,
      cs.map((c) => ({ id: c.id, to: { ...posOf(c), area, engagement: e } })),
      'engagement formed',
    );
  },
});

const leaveEngagement = command({
  ...gmTool,
  schema: commandSchema('leaveEngagement', { combatantId: idSchema }),
  handle(ctx: LCtx, cmd) {
    const c = combatant(ctx, cmd.combatantId);
    placeAll(ctx, [{ id: c.id, to: { ...posOf(c), engagement: null } }], 'left engagement');
  },
});

const combatant_place = command({
  ...gmTool,
  schema: commandSchema('combatant.place', { combatantId: idSchema, position: z.unknown() }),
  handle(ctx: LCtx, cmd) {
    const c = combatant(ctx, cmd.combatantId);
    ensure(checkPlace(ctx.state, c, cmd.position));
    const p = positionSchema.parse(cmd.position);
    placeAll(ctx, [{ id: c.id, to: p }], 'placed by the GM');
  },
});

export const setupCommands = {
  setSurprised,
  defineZone,
  formGroup,
  leaveGroup,
  formEngagement,
  leaveEngagement,
  'combatant.place': combatant_place,
};
