import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addCombatantBody,
  createEncounterBody,
  createInviteBody,
  createInviteReply,
  encounterDetailSchema,
  encounterSummarySchema,
  logEntrySchema,
  rulesetInfoSchema,
  idReply,
  patchCombatantBody,
  updateEncounterBody,
  type CommandAck,
  type EncounterSummary,
} from '@fray/protocol';
import { gmView, withoutGeneratorState } from '@fray/engine';
import { RuntimeError, unknownRulesetMessage, type EncounterHost, type EncounterRecordLike } from '@fray/runtime';
import { hashToken, newToken } from './auth.js';
import { ApiError, NotOwnerError, toWireError } from './errors.js';
import { authenticateGm, limiterKey, SessionEndedError } from './gm-auth.js';
import { errorsOf as E } from './openapi.js';
import { noteOutcome } from './request-log.js';
import { ownerUrlOf, type ServerContext } from './server.js';
import { clearSessionCookie } from './web-session.js';

const bearer = [{ bearer: [] }];
const encounterParams = z.object({ id: z.string().min(1).max(64) });
const combatantParams = z.object({ id: z.string().min(1).max(64), combatantId: z.string().min(1).max(64) });
const inviteParams = z.object({ id: z.string().min(1).max(64), inviteId: z.string().min(1).max(64) });

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

export function registerHttp(app: FastifyInstance, ctx: ServerContext): void {
  const { store, runtime, auth, logger } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Every error is { error: { code, message } } with its status, and one warn line with the reason.
  app.setErrorHandler((err, req, reply) => {
    let status: number;
    let code: string;
    let message: string;
    const fe = err as { code?: string; statusCode?: number; message: string };
    if (hasZodFastifySchemaValidationErrors(err)) {
      status = 422;
      code = 'INVALID_REQUEST';
      message = err.message;
    } else if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      code = 'PAYLOAD_TOO_LARGE';
      message = `The body is larger than ${ctx.limits.maxHttpBodyBytes} bytes.`;
    } else if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      code = 'UNSUPPORTED_MEDIA_TYPE';
      message = 'Send application/json.';
    } else if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fe.statusCode === 400 && err instanceof SyntaxError) || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      status = 400;
      code = 'INVALID_JSON';
      message = 'The body is not valid JSON.';
    } else {
      const w = toWireError(err);
      if (w.internal) {
        noteOutcome(req, { code: w.wire.code, reason: err instanceof Error ? err.message : String(err), err });
        return reply.status(500).send({ error: w.wire });
      }
      status = err instanceof ApiError ? err.status : statusOf(w.wire.code);
      code = w.wire.code;
      message = w.wire.message;
    }
    noteOutcome(req, { code, reason: message });
    if (err instanceof SessionEndedError) clearSessionCookie(reply, ctx.cookies);
    if (err instanceof ApiError && err.retryAfter !== undefined) void reply.header('retry-after', String(err.retryAfter));
    // NOT_OWNER carries the owner's URL (several processes, docs/scaling.md)
    if (err instanceof NotOwnerError) return reply.status(status).send({ error: err.toWire() });
    if (err instanceof ApiError && err.retryAfter !== undefined) return reply.status(status).send({ error: err.toWire() });
    return reply.status(status).send({ error: { code, message } });
  });
  app.setNotFoundHandler((req, reply) => {
    noteOutcome(req, { code: 'NOT_FOUND', reason: `no route ${req.method} ${req.url}` });
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}.` } });
  });

  // Per account (or per address without a token) rate limit.
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/docs')) return;
    if (!ctx.httpLimiter.take(limiterKey(req, ctx))) throw new ApiError('RATE_LIMITED', 'Too many requests; slow down.');
  });

  /** The GM's account id: a bearer token (account or API token) or the session cookie with its CSRF token. */
  async function gm(req: FastifyRequest): Promise<string> {
    return (await authenticateGm(ctx, req)).accountId;
  }

  async function owned(req: FastifyRequest, encounterId: string): Promise<EncounterRecordLike> {
    const accountId = await gm(req);
    const rec = await store.getEncounter(encounterId);
    if (!rec) throw new ApiError('NOT_FOUND', `No encounter "${encounterId}".`);
    if (rec.accountId !== accountId) throw new ApiError('FORBIDDEN', 'This encounter belongs to another GM.');
    req.log = req.log.child({ encounterId });
    return rec;
  }

  /**
   * The URL of the other live process that runs an encounter (it holds an unexpired lease and
   * advertised a URL), or null: nobody else runs it (or it advertised nothing).
   */
  async function ownerElsewhere(encounterId: string): Promise<string | null> {
    if (runtime.peek(encounterId) || !store.getLease) return null;
    const lease = await store.getLease(encounterId);
    if (!lease || lease.ownerId === runtime.options.ownerId || lease.expiresAt.getTime() <= Date.now()) return null;
    return ownerUrlOf(lease.ownerId);
  }

  /**
   * The live host of an encounter, for the routes that change it (commands, the turn timer):
   * loaded here when no process runs it; 409 NOT_OWNER with the owner's URL when another
   * process does (ENCOUNTER_BUSY when that process advertised no URL). Nothing is forwarded.
   */
  async function live(encounterId: string): Promise<EncounterHost> {
    try {
      return await runtime.open(encounterId);
    } catch (e) {
      if (!(e instanceof RuntimeError && e.code === 'ENCOUNTER_BUSY')) throw e;
      const url = await ownerElsewhere(encounterId);
      if (!url) throw e;
      throw new NotOwnerError(encounterId, url);
    }
  }

  async function gmCommand(req: FastifyRequest, encounterId: string, command: Record<string, unknown>): Promise<Extract<CommandAck, { ok: true }>> {
    const host = await live(encounterId);
    const commandId = `http:${randomUUID()}`;
    req.log.debug({ commandId, type: command.type }, 'command');
    const ack = await host.submit({ commandId, command, by: { role: 'gm' } }, { role: 'gm' });
    if (!ack.ok) throw new ApiError(ack.error.code, ack.error.message, undefined, ack.error.rule);
    return ack;
  }

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

  r.post('/encounters/:id/invites', { schema: { summary: 'Invite a player (bound to combatants) or a spectator; returns the token once', security: bearer, params: encounterParams, body: createInviteBody, response: { 201: createInviteReply.describe('The invite and its token (shown once)'), ...E.gmChange } } }, async (req, reply) => {
    const rec = await owned(req, req.params.id);
    const host = await live(rec.id);
    const combatantIds = req.body.role === 'player' ? [...new Set(req.body.combatantIds)] : [];
    for (const cid of combatantIds) if (!host.state.combatants[cid]) throw new ApiError('UNKNOWN_COMBATANT', `No combatant "${cid}".`, 404);
    const token = newToken('inv');
    const playerId = req.body.role === 'player' ? shortId('p') : null;
    const invite = await store.createInvite({ id: shortId('inv'), encounterId: rec.id, role: req.body.role, playerId, combatantIds, expiresAt: null, tokenHash: hashToken(token) });
    // The binding is a logged command, so the engine's own authorization enforces it.
    for (const cid of combatantIds) await gmCommand(req, rec.id, { type: 'combatant.update', combatantId: cid, changes: { controller: playerId } });
    req.log.info({ inviteId: invite.id, role: invite.role, playerId }, 'invite created');
    return reply.status(201).send({ id: invite.id, token, role: invite.role, playerId });
  });

  r.delete('/encounters/:id/invites/:inviteId', { schema: { summary: 'Revoke an invite', security: bearer, params: inviteParams, response: { 200: z.object({ id: z.string(), revoked: z.literal(true) }).describe("Revoked: the invite's sockets are disconnected"), ...E.gmEncounter } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    const invites = await store.listInvites(rec.id);
    if (!invites.some((i) => i.id === req.params.inviteId)) throw new ApiError('NOT_FOUND', `No invite "${req.params.inviteId}".`);
    await store.revokeInvite(req.params.inviteId);
    auth.forgetAll();
    ctx.disconnectInvite(req.params.inviteId);
    return { id: req.params.inviteId, revoked: true };
  });

  r.post('/encounters/:id/invites/:inviteId/reissue', { schema: { summary: 'Show an invite again: a new token for the same player and combatants; the old token stops working', security: bearer, params: inviteParams, response: { 201: createInviteReply.describe('The new invite and its token (shown once); the old token stops working'), ...E.gmAct } } }, async (req, reply) => {
    const rec = await owned(req, req.params.id);
    const old = (await store.listInvites(rec.id)).find((i) => i.id === req.params.inviteId);
    if (!old) throw new ApiError('NOT_FOUND', `No invite "${req.params.inviteId}".`);
    if (old.revoked) throw new ApiError('INVALID_REQUEST', `The invite "${old.id}" was revoked; make a new one.`, 409);
    // tokens are stored only hashed: a new token is a new invite for the same player (the
    // combatants stay bound to the same player id), and the old one is revoked
    const token = newToken('inv');
    const invite = await store.createInvite({ id: shortId('inv'), encounterId: rec.id, role: old.role, playerId: old.playerId, combatantIds: old.combatantIds, expiresAt: old.expiresAt, tokenHash: hashToken(token) });
    await store.revokeInvite(old.id);
    auth.forgetAll();
    ctx.disconnectInvite(old.id);
    req.log.info({ inviteId: invite.id, replaces: old.id }, 'invite reissued');
    return reply.status(201).send({ id: invite.id, token, role: invite.role, playerId: invite.playerId });
  });

  r.get('/encounters/:id/log', { schema: { summary: 'The full command and event log', security: bearer, params: encounterParams, response: { 200: z.object({ encounterId: z.string(), entries: z.array(logEntrySchema) }).describe('Every logged command with its events, oldest first'), ...E.gmEncounter } } }, async (req) => {
    const rec = await owned(req, req.params.id);
    const entries = [];
    let after = 0;
    for (;;) {
      const page = await store.readLog(rec.id, after, 1000);
      for (const e of page) entries.push({ seq: e.seq, commandId: e.commandId, command: e.command, events: withoutGeneratorState(e.events), at: e.createdAt ? e.createdAt.toISOString() : null });
      if (page.length < 1000) break;
      after = page[page.length - 1]!.seq;
    }
    return { encounterId: rec.id, entries };
  });

  logger.debug({}, 'http routes registered');
}

function statusOf(code: string): number {
  return new ApiError(code, '').status;
}
