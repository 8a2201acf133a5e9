import type { FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createInviteBody, createInviteReply } from '@fray/protocol';
import { hashToken, newToken } from './auth.js';
import { ApiError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import type { GmAccess } from './gm-access.js';
import { bearer, idParams as encounterParams, newId } from './http-common.js';

const inviteParams = z.object({ id: z.string().min(1).max(64), inviteId: z.string().min(1).max(64) });

/** A GM's invites: create (the token shown once), revoke, reissue. */
export function registerInviteRoutes(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  registerInviteCreation(app, ctx, access);
  registerInviteChanges(app, ctx, access);
}

/** Invite a player or a spectator: the token is shown once. */
function registerInviteCreation(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const { store } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { owned, live, gmCommand } = access;

  r.post(
    '/encounters/:id/invites',
    {
      schema: {
        summary: 'Invite a player (bound to combatants) or a spectator; returns the token once',
        security: bearer,
        params: encounterParams,
        body: createInviteBody,
        response: { 201: createInviteReply.describe('The invite and its token (shown once)'), ...E.gmChange },
      },
    },
    async (req, reply) => {
      const rec = await owned(req, req.params.id);
      const host = await live(rec.id);
      const combatantIds = req.body.role === 'player' ? [...new Set(req.body.combatantIds)] : [];
      for (const cid of combatantIds)
        if (!host.state.combatants[cid]) throw new ApiError('UNKNOWN_COMBATANT', `No combatant "${cid}".`, 404);
      const token = newToken('inv');
      const playerId = req.body.role === 'player' ? newId('p') : null;
      const invite = await store.createInvite({
        id: newId('inv'),
        encounterId: rec.id,
        role: req.body.role,
        playerId,
        combatantIds,
        expiresAt: null,
        tokenHash: hashToken(token),
      });
      // The binding is a logged command, so the engine's own authorization enforces it.
      for (const cid of combatantIds)
        await gmCommand(req, rec.id, { type: 'combatant.update', combatantId: cid, changes: { controller: playerId } });
      req.log.info({ inviteId: invite.id, role: invite.role, playerId }, 'invite created');
      return reply.status(201).send({ id: invite.id, token, role: invite.role, playerId });
    },
  );
}

/** Revoke an invite, or reissue it (a new token for the same player and combatants). */
function registerInviteChanges(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const { store, auth } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { owned } = access;

  r.delete(
    '/encounters/:id/invites/:inviteId',
    {
      schema: {
        summary: 'Revoke an invite',
        security: bearer,
        params: inviteParams,
        response: {
          200: z.object({ id: z.string(), revoked: z.literal(true) }).describe("Revoked: the invite's sockets are disconnected"),
          ...E.gmEncounter,
        },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      const invites = await store.listInvites(rec.id);
      if (!invites.some((i) => i.id === req.params.inviteId)) throw new ApiError('NOT_FOUND', `No invite "${req.params.inviteId}".`);
      await store.revokeInvite(req.params.inviteId);
      auth.forgetAll();
      ctx.disconnectInvite(req.params.inviteId);
      return { id: req.params.inviteId, revoked: true };
    },
  );

  r.post(
    '/encounters/:id/invites/:inviteId/reissue',
    {
      schema: {
        summary: 'Show an invite again: a new token for the same player and combatants; the old token stops working',
        security: bearer,
        params: inviteParams,
        response: { 201: createInviteReply.describe('The new invite and its token (shown once); the old token stops working'), ...E.gmAct },
      },
    },
    async (req, reply) => {
      const rec = await owned(req, req.params.id);
      const old = (await store.listInvites(rec.id)).find((i) => i.id === req.params.inviteId);
      if (!old) throw new ApiError('NOT_FOUND', `No invite "${req.params.inviteId}".`);
      if (old.revoked) throw new ApiError('INVALID_REQUEST', `The invite "${old.id}" was revoked; make a new one.`, 409);
      // tokens are stored only hashed: a new token is a new invite for the same player (the
      // combatants stay bound to the same player id), and the old one is revoked
      const token = newToken('inv');
      const invite = await store.createInvite({
        id: newId('inv'),
        encounterId: rec.id,
        role: old.role,
        playerId: old.playerId,
        combatantIds: old.combatantIds,
        expiresAt: old.expiresAt,
        tokenHash: hashToken(token),
      });
      await store.revokeInvite(old.id);
      auth.forgetAll();
      ctx.disconnectInvite(old.id);
      req.log.info({ inviteId: invite.id, replaces: old.id }, 'invite reissued');
      return reply.status(201).send({ id: invite.id, token, role: invite.role, playerId: invite.playerId });
    },
  );
}
