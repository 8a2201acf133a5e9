/** The messages between the capacity run (run.ts, setup.ts) and its generator processes (gen.ts), checked on both sides. */
import { z } from 'zod';

const seatSchema = z.object({
  token: z.string().nullable(),
  role: z.enum(['gm', 'player', 'spectator']),
  combatantId: z.string().nullable(),
});
const tableSchema = z.object({ id: z.string(), seats: z.array(seatSchema) });
export type SeatPlan = z.infer<typeof seatSchema>;
export type TablePlan = z.infer<typeof tableSchema>;

/** what the run asks a generator */
export const messageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('connect'),
    target: z.enum(['fray', 'floor']),
    url: z.string(),
    tables: z.array(tableSchema),
    churn: z.array(seatSchema.extend({ encounterId: z.string() })),
  }),
  z.object({
    type: z.literal('phase'),
    seconds: z.number().positive(),
    meanIntervalMs: z.number().positive(),
    malformed: z.number().min(0).max(1),
    churn: z.boolean(),
    seed: z.number(),
  }),
  z.object({ type: z.literal('close') }),
]);
export type GenMessage = z.infer<typeof messageSchema>;

export const connectedSchema = z.object({ type: z.literal('connected'), connected: z.number(), failed: z.number() });
export const closedSchema = z.object({ type: z.literal('closed') });
const counts = z.record(z.string(), z.number());
/** what a phase reports (one generator's share) */
export const phaseReplySchema = z.object({
  type: z.literal('phase'),
  latencies: z.array(z.number()),
  accepted: z.number(),
  refused: counts,
  undelivered: z.number(),
  malformed: z.object({ sent: z.number(), typed: z.number(), other: counts }),
  cpuPercent: z.number(),
  loopDelayMs: z.object({ p99: z.number(), max: z.number() }),
  rssBytes: z.number(),
  churn: z.object({ cycles: z.number(), failures: z.number() }),
});
export type GenPhase = z.infer<typeof phaseReplySchema>;
