/**
 * The GM's timeline over HTTP (docs/timeline.md): the branches of an encounter's log and a fork.
 * The rewind itself is a command (`timeline.rewind`), sent like any other.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idReply } from '@fray/protocol';
import { forkEncounter, type EncounterRecordLike, type Runtime } from '@fray/runtime';
import { ApiError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { ServerStore } from './store.js';

const bearer = [{ bearer: [] }];
const encounterParams = z.object({ id: z.string().min(1).max(64) });

export const branchSchema = z.object({
  branch: z.number().int(),
  parent: z.number().int().nullable(),
  fromVersion: z.number().int().nullable(),
  baseVersion: z.number().int(),
  lastVersion: z.number().int(),
  commandId: z.string().nullable(),
  at: z.string().nullable(),
  live: z.boolean(),
});

export const forkBody = z.object({ version: z.number().int().min(0), name: z.string().min(1).max(120).optional() }).strict();

type Owned = (req: FastifyRequest, encounterId: string) => Promise<EncounterRecordLike>;

export function registerTimelineHttp(app: FastifyInstance, ctx: { store: ServerStore; runtime: Runtime }, owned: Owned): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { store, runtime } = ctx;

  r.get('/encounters/:id/branches', { schema: { summary: "The branches of the encounter's log (rewinds), oldest first; the last is live", security: bearer, params: encounterParams, response: { 200: z.object({ encounterId: z.string(), branches: z.array(branchSchema) }).describe('Every branch, kept'), ...E.gmEncounter } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    const branches = await store.listBranches(rec.id);
    return {
      encounterId: rec.id,
      branches: branches.map((b) => ({ branch: b.branch, parent: b.parent, fromVersion: b.fromVersion, baseVersion: b.baseVersion, lastVersion: b.lastVersion, commandId: b.commandId, at: b.createdAt ? b.createdAt.toISOString() : null, live: b.live })),
    };
  });

  r.post('/encounters/:id/fork', { schema: { summary: 'A new encounter whose state equals this one at a version (same ruleset, options, combatants)', security: bearer, params: encounterParams, body: forkBody, response: { 201: idReply.describe('The new encounter, at that version'), ...E.gmCreate } } }, async (req, reply) => {
    const rec = await owned(req, req.params.id);
    const made = await forkEncounter(runtime, rec, req.body.version, { accountId: rec.accountId, ...(req.body.name ? { name: req.body.name } : {}) });
    if ('error' in made) throw new ApiError(made.error.code, made.error.message, undefined, made.error.rule);
    req.log.info({ forkId: made.id, version: req.body.version }, 'encounter forked');
    return reply.status(201).send({ id: made.id, version: made.version });
  });
}
