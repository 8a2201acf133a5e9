import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addCombatantBody, createEncounterBody, encounterDetailSchema, encounterSummarySchema, rulesetInfoSchema, idReply, patchCombatantBody, updateEncounterBody, type EncounterSummary } from '@fray/protocol';
import { gmView } from '@fray/engine';
import { RuntimeError, unknownRulesetMessage, type EncounterRecordLike } from '@fray/runtime';
import { ApiError, NotOwnerError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import { gmAccess, type GmAccess } from './gm-access.js';
import { registerErrorHandling } from './http-errors.js';
import { registerInviteRoutes } from './http-invites.js';
import { registerTimelineHttp } from './timeline-http.js';

const bearer = [{ bearer: [] }];
const encounterParams = z.object({ id: z.string().min(1).max(64) });
const combatantParams = z.object({ id: z.string().min(1).max(64), combatantId: z.string().min(1).max(64) });

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

function shortId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** The rulesets and the GM's encounters: create, list, read, change, archive. */
export function registerEncounterRoutes(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const { store, runtime } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { gm, owned, live, ownerElsewhere } = access;

  r.get('/rulesets', { schema: { summary: 'Rulesets: options (schema, defaults, docs), stats schema, commands, action catalogue', response: { 200: z.object({ rulesets: z.array(rulesetInfoSchema.loose()) }).describe('Every ruleset this server runs'), ...E.open } } }, async () => ({
    rulesets: ctx.rulesetInfos,
  }));

  r.post('/encounters', { schema: { summary: 'Create an encounter', security: bearer, body: createEncounterBody, response: { 201: idReply.describe('The new encounter, at version 0'), ...E.gmCreate } } }, async (req, reply) => {
    const accountId = await gm(req);
    if (!runtime.ruleset(req.body.ruleset)) throw new ApiError('NOT_FOUND', unknownRulesetMessage(req.body.ruleset, ctx.rulesetInfos.map((r) => r.id)));
    try {
      const rec = await runtime.create({ accountId, name: req.body.name, ruleset: req.body.ruleset, options: req.body.options, seed: req.body.seed });
      req.log.info({ encounterId: rec.id }, 'encounter created');
      return reply.status(201).send({ id: rec.id, version: 0 });
    } catch (e) {
      if (e instanceof RuntimeError) throw new ApiError(e.code === 'INVALID_OPTIONS' ? 'INVALID_OPTIONS' : e.code, e.message, 422);
      throw e;
    }
  });

  r.get('/encounters', { schema: { summary: "The GM's saved encounters, newest activity first", security: bearer, querystring: z.object({ archived: z.enum(['true', 'false']).optional() }), response: { 200: z.object({ encounters: z.array(encounterSummarySchema) }).describe("The GM's encounters (archived ones with archived=true)"), ...E.gmRead } } }, async (req) => {
    const accountId = await gm(req);
    const list = await store.listEncounters(accountId, { includeArchived: req.query.archived === 'true' });
    return { encounters: list.map(summary) };
  });

  r.get('/encounters/:id', { schema: { summary: 'One encounter with its full (GM) state and invites', security: bearer, params: encounterParams, response: { 200: encounterDetailSchema.loose().describe('The encounter, its state as the GM sees it, its invites (without tokens)'), ...E.gmEncounter } } }, async (req) => {
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
  });

  r.patch('/encounters/:id', { schema: { summary: 'Rename, or set the turn timer (seconds, null = off)', security: bearer, params: encounterParams, body: updateEncounterBody, response: { 200: z.object({ id: z.string() }).describe('Changed'), ...E.gmChange } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    if (req.body.name) await store.updateEncounterSummary(rec.id, { name: req.body.name });
    if (req.body.turnTimerSeconds !== undefined) {
      const host = await live(rec.id);
      await host.setTurnTimer(req.body.turnTimerSeconds);
    }
    return { id: rec.id };
  });

  r.post('/encounters/:id/archive', { schema: { summary: 'Archive an encounter (kept, read-only)', security: bearer, params: encounterParams, response: { 200: z.object({ id: z.string(), status: z.literal('archived') }).describe('Archived'), ...E.gmAct } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    // the process that runs the encounter must stop taking its commands: archive it there
    const url = await ownerElsewhere(rec.id);
    if (url) throw new NotOwnerError(rec.id, url);
    await runtime.archive(rec.id);
    return { id: rec.id, status: 'archived' };
  });
}

/** A GM's combatants (add, edit, remove). */
export function registerCombatantRoutes(app: FastifyInstance, access: GmAccess): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { owned, gmCommand } = access;

  r.post('/encounters/:id/combatants', { schema: { summary: 'Add a combatant', security: bearer, params: encounterParams, body: addCombatantBody, response: { 201: idReply.describe("The combatant's id and the encounter's new version"), ...E.gmChange } } }, async (req, reply) => {
    const rec = await owned(req, req.params.id);
    const id = req.body.id ?? shortId('c');
    const ack = await gmCommand(req, rec.id, { type: 'combatant.add', combatant: { ...req.body, id } });
    return reply.status(201).send({ id, version: ack.version });
  });

  r.patch('/encounters/:id/combatants/:combatantId', { schema: { summary: 'Edit a combatant', security: bearer, params: combatantParams, body: patchCombatantBody, response: { 200: idReply.describe("The combatant's id and the encounter's new version"), ...E.gmChange } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    const { position, ...changes } = req.body;
    let version = 0;
    if (Object.keys(changes).length > 0) version = (await gmCommand(req, rec.id, { type: 'combatant.update', combatantId: req.params.combatantId, changes })).version;
    if (position !== undefined) version = (await gmCommand(req, rec.id, { type: 'combatant.place', combatantId: req.params.combatantId, position })).version;
    if (version === 0) throw new ApiError('INVALID_REQUEST', 'Nothing to change.');
    return { id: req.params.combatantId, version };
  });

  r.delete('/encounters/:id/combatants/:combatantId', { schema: { summary: 'Remove a combatant', security: bearer, params: combatantParams, response: { 200: idReply.describe("The removed combatant's id and the encounter's new version"), ...E.gmAct } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    const ack = await gmCommand(req, rec.id, { type: 'combatant.remove', combatantId: req.params.combatantId });
    return { id: req.params.combatantId, version: ack.version };
  });
}

export function registerHttp(app: FastifyInstance, ctx: ServerContext): void {
  registerErrorHandling(app, ctx);
  const access = gmAccess(ctx);
  registerEncounterRoutes(app, ctx, access);
  registerCombatantRoutes(app, access);
  registerInviteRoutes(app, ctx, access);
  registerTimelineHttp(app, ctx, access);
  ctx.logger.debug({}, 'http routes registered');
}
