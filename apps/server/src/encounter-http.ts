import type { FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createEncounterBody,
  encounterDetailSchema,
  encounterSummarySchema,
  idReply,
  updateEncounterBody,
  type EncounterSummary,
} from '@fray/protocol';
import { gmView } from '@fray/engine';
import { RuntimeError, unknownRulesetMessage, type EncounterRecordLike } from '@fray/runtime';
import { ApiError, NotOwnerError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import type { GmAccess } from './gm-access.js';
import { bearer, idParams as encounterParams } from './http-common.js';

function summary(r: EncounterRecordLike): EncounterSummary {
  return {
    id: r.id,
    name: r.name,
    ruleset: r.ruleset,
    status: r.status,
    round: r.round,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The GM's encounters: create, list, read, change, archive. */
export function registerEncounterRoutes(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  registerEncounterList(app, ctx, access);
  registerEncounterRead(app, ctx, access);
  registerEncounterChanges(app, ctx, access);
}

/** Create an encounter, and list the GM's. */
function registerEncounterList(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const { store, runtime } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { gm } = access;

  r.post(
    '/encounters',
    {
      schema: {
        summary: 'Create an encounter',
        security: bearer,
        body: createEncounterBody,
        response: { 201: idReply.describe('The new encounter, at version 0'), ...E.gmCreate },
      },
    },
    async (req, reply) => {
      const accountId = await gm(req);
      if (!runtime.ruleset(req.body.ruleset))
        throw new ApiError(
          'NOT_FOUND',
          unknownRulesetMessage(
            req.body.ruleset,
            ctx.rulesetInfos.map((r) => r.id),
          ),
        );
      try {
        const rec = await runtime.create({
          accountId,
          name: req.body.name,
          ruleset: req.body.ruleset,
          options: req.body.options,
          seed: req.body.seed,
        });
        req.log.info({ encounterId: rec.id }, 'encounter created');
        return reply.status(201).send({ id: rec.id, version: 0 });
      } catch (e) {
        if (e instanceof RuntimeError) throw new ApiError(e.code === 'INVALID_OPTIONS' ? 'INVALID_OPTIONS' : e.code, e.message, 422);
        throw e;
      }
    },
  );

  r.get(
    '/encounters',
    {
      schema: {
        summary: "The GM's saved encounters, newest activity first",
        security: bearer,
        querystring: z.object({ archived: z.enum(['true', 'false']).optional() }),
        response: {
          200: z.object({ encounters: z.array(encounterSummarySchema) }).describe("The GM's encounters (archived ones with archived=true)"),
          ...E.gmRead,
        },
      },
    },
    async (req) => {
      const accountId = await gm(req);
      const list = await store.listEncounters(accountId, { includeArchived: req.query.archived === 'true' });
      return { encounters: list.map(summary) };
    },
  );
}

/** One encounter, as the GM sees it. */
function registerEncounterRead(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const { store, runtime } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { owned } = access;

  r.get(
    '/encounters/:id',
    {
      schema: {
        summary: 'One encounter with its full (GM) state and invites',
        security: bearer,
        params: encounterParams,
        response: {
          200: encounterDetailSchema.loose().describe('The encounter, its state as the GM sees it, its invites (without tokens)'),
          ...E.gmEncounter,
        },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      // A read: the live host when this process runs the encounter, else the database (snapshot +
      // log, which holds every acknowledged command), on any process, without taking the lease.
      const host = runtime.peek(rec.id);
      const read = host && !host.closed ? null : await runtime.readState(rec.id);
      if (!read && !host) throw new ApiError('NOT_FOUND', `No encounter "${rec.id}".`);
      const invites = await store.listInvites(rec.id);
      const fresh = (await store.getEncounter(rec.id)) ?? rec;
      return {
        ...summary(fresh),
        version: read ? read.state.version : host!.version,
        options: rec.options,
        seed: rec.seed,
        turnTimerSeconds: read ? read.turnTimerSeconds : host!.turnTimerSeconds,
        state: gmView(read ? read.state : host!.state),
        invites: invites.map((i) => ({ id: i.id, role: i.role, playerId: i.playerId, combatantIds: i.combatantIds, revoked: i.revoked })),
      };
    },
  );
}

/** Rename an encounter, set its turn timer, archive it. */
function registerEncounterChanges(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const { store, runtime } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { owned, live, ownerElsewhere } = access;

  r.patch(
    '/encounters/:id',
    {
      schema: {
        summary: 'Rename, or set the turn timer (seconds, null = off)',
        security: bearer,
        params: encounterParams,
        body: updateEncounterBody,
        response: { 200: z.object({ id: z.string() }).describe('Changed'), ...E.gmChange },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      if (req.body.name) await store.updateEncounterSummary(rec.id, { name: req.body.name });
      if (req.body.turnTimerSeconds !== undefined) {
        const host = await live(rec.id);
        await host.setTurnTimer(req.body.turnTimerSeconds);
      }
      return { id: rec.id };
    },
  );

  r.post(
    '/encounters/:id/archive',
    {
      schema: {
        summary: 'Archive an encounter (kept, read-only)',
        security: bearer,
        params: encounterParams,
        response: { 200: z.object({ id: z.string(), status: z.literal('archived') }).describe('Archived'), ...E.gmAct },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      // the process that runs the encounter must stop taking its commands: archive it there
      const url = await ownerElsewhere(rec.id);
      if (url) throw new NotOwnerError(rec.id, url);
      await runtime.archive(rec.id);
      return { id: rec.id, status: 'archived' };
    },
  );
}
