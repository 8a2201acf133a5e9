import { z } from 'zod';

/** The pieces HTTP and socket.io messages share: ids, roles, patches, commands, deadlines. */
export const idSchema = z.string().min(1).max(64);
/** A client's idempotency key for a command. */
export const commandIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits, . _ : -');
export const viewerRoleSchema = z.enum(['gm', 'player', 'spectator']);
export type ViewerRole = z.infer<typeof viewerRoleSchema>;

/** RFC 6902 JSON Patch operation: each op with the members RFC 6902 gives it. */
export const patchOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.string() }),
  z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('move'), path: z.string(), from: z.string() }),
  z.object({ op: z.literal('copy'), path: z.string(), from: z.string() }),
  z.object({ op: z.literal('test'), path: z.string(), value: z.unknown() }),
]);
export type PatchOp = z.infer<typeof patchOpSchema>;

/** A command as a client sends it: the engine's fields without `by` (the server sets `by`). */
export const clientCommandSchema = z
  .object({ type: z.string().min(1).max(64) })
  .catchall(z.unknown())
  .refine((c) => !('by' in c), { message: '`by` is set by the server from your token; leave it out.' });
export type ClientCommand = z.infer<typeof clientCommandSchema>;

/** Runtime deadlines a client may show as countdowns (epoch milliseconds, server clock). */
export const deadlinesSchema = z.object({
  reaction: z.object({ windowId: z.string(), at: z.number() }).nullable(),
  turn: z.object({ combatantId: z.string(), at: z.number() }).nullable(),
});
export type Deadlines = z.infer<typeof deadlinesSchema>;
