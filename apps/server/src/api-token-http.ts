import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiTokenBody, apiTokenCreated, apiTokenListReply } from '@fray/protocol';
import { credentialRoom, hashToken, newToken } from './auth.js';
import { accountsOf, signedInAccount } from './account-common.js';
import { ApiError } from './errors.js';
import { accountErrors as errors, idParams, newId, signedIn } from './http-common.js';
import type { ServerContext } from './context.js';

/** The account's API tokens over HTTP, for scripts: list (never their values), create (shown once), revoke. */
export function registerApiTokens(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/account/tokens',
    {
      schema: {
        summary: "The account's API tokens (never their values)",
        security: signedIn,
        response: { 200: apiTokenListReply, ...errors },
      },
    },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      const list = await accountsOf(ctx).listApiTokens(a.accountId);
      return {
        tokens: list.map((t) => ({
          id: t.id,
          name: t.name,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
        })),
      };
    },
  );

  r.post(
    '/account/tokens',
    {
      schema: {
        summary: 'Create a named API token for scripts; its value is shown once',
        security: signedIn,
        body: apiTokenBody,
        response: { 201: apiTokenCreated, ...errors },
      },
    },
    async (req, reply) => {
      const a = await signedInAccount(ctx, req);
      const token = newToken('pat');
      const t = await accountsOf(ctx).createApiToken({
        id: newId('tok'),
        accountId: a.accountId,
        name: req.body.name,
        tokenHash: hashToken(token),
      });
      req.log.info({ tokenId: t.id }, 'api token created');
      return reply.status(201).send({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), lastUsedAt: null, token });
    },
  );

  r.delete(
    '/account/tokens/:id',
    {
      schema: {
        summary: 'Revoke an API token (refused at once; its sockets are disconnected)',
        security: signedIn,
        params: idParams,
        response: { 200: z.object({ id: z.string(), revoked: z.boolean() }), ...errors },
      },
    },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      if (!(await accountsOf(ctx).deleteApiToken(a.accountId, req.params.id)))
        throw new ApiError('NOT_FOUND', `No API token "${req.params.id}" on this account.`);
      ctx.disconnectRoom(credentialRoom('api-token', req.params.id));
      req.log.info({ tokenId: req.params.id }, 'api token revoked');
      return { id: req.params.id, revoked: true };
    },
  );
}
