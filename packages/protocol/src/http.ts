import { z } from 'zod';
import { idSchema } from './common.js';

/** The HTTP bodies and replies. */
export const createEncounterBody = z
  .object({
    name: z.string().min(1).max(120),
    ruleset: z.string().min(1).max(64),
    options: z.record(z.string(), z.unknown()).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  })
  .strict();

export const encounterStatusSchema = z.enum(['setup', 'active', 'ended', 'archived']);
export const encounterSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  ruleset: z.string(),
  status: encounterStatusSchema,
  round: z.number(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EncounterSummary = z.infer<typeof encounterSummarySchema>;

/** An invite as the GM sees it (never its token: the server keeps only a hash). */
const inviteInfoSchema = z.object({
  id: z.string(),
  role: z.enum(['player', 'spectator']),
  playerId: z.string().nullable(),
  combatantIds: z.array(z.string()),
  revoked: z.boolean(),
});
export type InviteInfo = z.infer<typeof inviteInfoSchema>;

export const encounterDetailSchema = encounterSummarySchema.extend({
  options: z.unknown(),
  seed: z.number(),
  state: z.unknown(),
  turnTimerSeconds: z.number().nullable(),
  invites: z.array(inviteInfoSchema),
});
export type EncounterDetail = z.infer<typeof encounterDetailSchema>;

export const updateEncounterBody = z
  .object({
    name: z.string().min(1).max(120).optional(),
    /** the GM's turn timer: a turn ends by itself after this many seconds; null = off */
    turnTimerSeconds: z.number().int().min(5).max(3600).nullable().optional(),
  })
  .strict();

const itemBody = z.object({
  id: idSchema,
  name: z.string().min(1).max(120),
  location: z.enum(['left-hand', 'right-hand', 'both-hands', 'carried', 'ground']),
  tags: z.array(z.string().max(64)).max(32).optional(),
  props: z.record(z.string(), z.unknown()).optional(),
});

export const addCombatantBody = z
  .object({
    id: idSchema.optional(),
    name: z.string().min(1).max(120),
    side: z.string().min(1).max(64),
    hidden: z.boolean().optional(),
    secretStats: z.array(z.string().max(64)).max(64).optional(),
    stats: z.record(z.string(), z.unknown()),
    position: z.unknown().optional(),
    items: z.array(itemBody).max(100).optional(),
  })
  .strict();

export const patchCombatantBody = z
  .object({
    name: z.string().min(1).max(120).optional(),
    side: z.string().min(1).max(64).optional(),
    hidden: z.boolean().optional(),
    secretStats: z.array(z.string().max(64)).max(64).optional(),
    stats: z.record(z.string(), z.unknown()).optional(),
    items: z.array(itemBody).max(100).optional(),
    position: z.unknown().optional(),
  })
  .strict();

export const createInviteBody = z.discriminatedUnion('role', [
  z.object({ role: z.literal('player'), combatantIds: z.array(idSchema).min(1).max(50) }).strict(),
  z.object({ role: z.literal('spectator') }).strict(),
]);
export const createInviteReply = z.object({
  id: z.string(),
  token: z.string(),
  role: z.enum(['player', 'spectator']),
  playerId: z.string().nullable(),
});

export const idReply = z.object({ id: z.string(), version: z.number().optional() });

/** DELETE /encounters/:id: the encounter is gone (its log, snapshots, invites and replay links with it). */
export const deleteEncounterReply = z
  .object({
    id: z.string(),
    deleted: z.literal(true),
    deletedAt: z.string().describe('When, ISO 8601'),
  })
  .describe('Deleted');
export type DeleteEncounterReply = z.infer<typeof deleteEncounterReply>;
export type CreateInviteReply = z.infer<typeof createInviteReply>;

export const logEntrySchema = z.object({
  seq: z.number(),
  commandId: z.string(),
  command: z.unknown().optional(),
  events: z.array(z.unknown()),
  at: z.string().nullable(),
});
export type WireLogEntry = z.infer<typeof logEntrySchema>;

/** A rewind on the path of the branch read (docs/timeline.md, "Reading"; the socket's `RewindNote`). */
export const rewindNoteSchema = z.object({
  branch: z.number().int(),
  fromBranch: z.number().int(),
  fromVersion: z.number().int(),
  toVersion: z.number().int(),
  at: z.string().nullable(),
  undone: z.array(logEntrySchema),
  undoneCount: z.number().int(),
});

export const rulesetInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.string(),
  options: z.object({ schema: z.unknown(), defaults: z.unknown(), docs: z.record(z.string(), z.string()) }),
  stats: z.object({ schema: z.unknown(), docs: z.record(z.string(), z.string()) }),
  position: z.object({ schema: z.unknown() }),
  commands: z.array(z.string()),
  /** per command type: who may send it and its fields as JSON Schema (without `type` and `by`), for forms */
  commandInfo: z.record(z.string(), z.object({ actor: z.enum(['gm', 'combatant', 'any']), reaction: z.boolean(), schema: z.unknown() })),
  /** the battle map's space: squares, hexes or zones (and where the zones are in the state) */
  space: z.object({ kind: z.enum(['squares', 'hexes', 'zones']), zones: z.string().optional(), terrain: z.string().optional() }).nullable(),
  catalogue: z.array(z.unknown()),
  /** how the ruleset is shown: vitals, stat labels and groups, internal fields, event sentences (engine's RulesetDisplay) */
  display: z.unknown(),
});
export type RulesetInfo = z.infer<typeof rulesetInfoSchema>;
