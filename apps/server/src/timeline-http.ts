/**
 * The GM's timeline over HTTP (docs/timeline.md): the branches of an encounter's log and a fork.
 * The rewind itself is a command (`timeline.rewind`), sent like any other.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idReply, logEntrySchema, rewindNoteSchema, type RewindNote, type WireLogEntry } from '@fray/protocol';
import { withoutGeneratorState } from '@fray/engine';
import { forkEncounter, rewindsOnPath } from '@fray/runtime';
import type { LogEntry } from '@fray/store';
import { ApiError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import type { GmAccess } from './gm-access.js';

const bearer = [{ bearer: [] }];
const encounterParams = z.object({ id: z.string().min(1).max(64) });

const branchSchema = z.object({
  branch: z.number().int(),
  parent: z.number().int().nullable(),
  fromVersion: z.number().int().nullable(),
  baseVersion: z.number().int(),
  lastVersion: z.number().int(),
  commandId: z.string().nullable(),
  at: z.string().nullable(),
  live: z.boolean(),
});

const forkBody = z.object({ version: z.number().int().min(0), name: z.string().min(1).max(120).optional() }).strict();

/** The log (of any branch), the branches, and a fork. */
export function registerTimelineHttp(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  registerLogRoute(app, ctx, access);
  registerBranchesRoute(app, ctx, access);
  registerForkRoute(app, ctx, access);
}

/** A log entry as the GM reads it over HTTP (without the dice generator's state). */
function wireEntry(e: LogEntry): WireLogEntry {
  return {
    seq: e.seq,
    commandId: e.commandId,
    command: e.command,
    events: withoutGeneratorState(e.events),
    at: e.createdAt?.toISOString() ?? null,
  };
}

/**
 * The rewinds on a branch's path as the GM reads them (the socket `log` answer's `rewinds`, for the
 * GM): the same notes, read from the database, so any process answers without loading the encounter.
 */
async function gmRewinds(store: ServerContext['store'], encounterId: string, branch: number | undefined): Promise<RewindNote[]> {
  const onPath = rewindsOnPath(await store.listBranches(encounterId), branch);
  return Promise.all(
    onPath.map(async ({ branch: b, parent, fromVersion, shown }) => ({
      branch: b.branch,
      fromBranch: b.parent,
      fromVersion,
      toVersion: b.baseVersion,
      at: b.createdAt?.toISOString() ?? null,
      undone: shown > 0 ? (await store.readLog(encounterId, b.baseVersion, shown, parent.branch)).map(wireEntry) : [],
      undoneCount: fromVersion - b.baseVersion,
    })),
  );
}

/** GET /encounters/:id/log: every entry of a branch (the live one by default), read in pages of 1,000. */
function registerLogRoute(app: FastifyInstance, { store }: ServerContext, { owned }: GmAccess): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/encounters/:id/log',
    {
      schema: {
        summary: 'The full command and event log (of a branch: ?branch=N, default the live one)',
        security: bearer,
        params: encounterParams,
        querystring: z.object({ branch: z.coerce.number().int().min(0).optional() }),
        response: {
          200: z
            .object({ encounterId: z.string(), entries: z.array(logEntrySchema), rewinds: z.array(rewindNoteSchema) })
            .describe(
              'Every logged command with its events, oldest first, and the rewinds on the branch’s path (oldest first; each with the first entries it undid)',
            ),
          ...E.gmEncounter,
        },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      const { branch } = req.query;
      if (branch !== undefined && !(await store.listBranches(rec.id)).some((b) => b.branch === branch))
        throw new ApiError('UNKNOWN_BRANCH', `The encounter has no branch ${branch}.`);
      const entries = [];
      let after = 0;
      for (;;) {
        const page = await store.readLog(rec.id, after, 1000, branch);
        entries.push(...page.map(wireEntry));
        if (page.length < 1000) break;
        after = page[page.length - 1]!.seq;
      }
      return { encounterId: rec.id, entries, rewinds: await gmRewinds(store, rec.id, branch) };
    },
  );
}

/** GET /encounters/:id/branches: the branches rewinds made, oldest first. */
function registerBranchesRoute(app: FastifyInstance, { store }: ServerContext, { owned }: GmAccess): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/encounters/:id/branches',
    {
      schema: {
        summary: "The branches of the encounter's log (rewinds), oldest first; the last is live",
        security: bearer,
        params: encounterParams,
        response: {
          200: z.object({ encounterId: z.string(), branches: z.array(branchSchema) }).describe('Every branch, kept'),
          ...E.gmEncounter,
        },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      const branches = await store.listBranches(rec.id);
      return {
        encounterId: rec.id,
        branches: branches.map((b) => ({
          branch: b.branch,
          parent: b.parent,
          fromVersion: b.fromVersion,
          baseVersion: b.baseVersion,
          lastVersion: b.lastVersion,
          commandId: b.commandId,
          at: b.createdAt ? b.createdAt.toISOString() : null,
          live: b.live,
        })),
      };
    },
  );
}

/** POST /encounters/:id/fork: a new encounter from a version of this one. */
function registerForkRoute(app: FastifyInstance, { runtime }: ServerContext, { owned }: GmAccess): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/encounters/:id/fork',
    {
      schema: {
        summary: 'A new encounter whose state equals this one at a version (same ruleset, options, combatants)',
        security: bearer,
        params: encounterParams,
        body: forkBody,
        response: { 201: idReply.describe('The new encounter, at that version'), ...E.gmCreate },
      },
    },
    async (req, reply) => {
      const rec = await owned(req, req.params.id);
      const made = await forkEncounter(runtime, rec, req.body.version, {
        accountId: rec.accountId,
        ...(req.body.name ? { name: req.body.name } : {}),
      });
      if ('error' in made) throw new ApiError(made.error.code, made.error.message, undefined, made.error.rule);
      req.log.info({ forkId: made.id, version: req.body.version }, 'encounter forked');
      return reply.status(201).send({ id: made.id, version: made.version });
    },
  );
}
