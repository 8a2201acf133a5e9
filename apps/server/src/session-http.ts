import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionListReply, sessionReply } from '@fray/protocol';
import { accountsOf, disconnectSessions, signedInAccount } from './account-common.js';
import { ApiError } from './errors.js';
import { authenticateGm } from './gm-auth.js';
import { accountErrors as errors, idParams, signedIn } from './http-common.js';
import type { ServerContext } from './context.js';
import { clearSessionCookie, csrfTokenFor, sessionCookieOf } from './web-session.js';

/** Sessions over HTTP: this browser's (read, sign out), and the account's (list, end one, end all). */

/** This browser's session: its CSRF token, and signing out. */
export function registerBrowserSession(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/session',
    {
      schema: {
        summary: "This browser's session and its CSRF token",
        security: [{ session: [] }],
        response: { 200: sessionReply, ...errors },
      },
    },
    async (req) => {
      const cookie = sessionCookieOf(req, ctx.cookies);
      if (!cookie) throw new ApiError('UNAUTHORIZED', 'Not signed in.');
      const a = await authenticateGm(ctx, req);
      const v = await ctx.auth.session(cookie);
      if ('refused' in v) throw new ApiError('UNAUTHORIZED', 'Not signed in.');
      return { accountId: a.accountId, sessionId: v.sessionId, csrfToken: csrfTokenFor(cookie), expiresAt: v.expiresAt.toISOString() };
    },
  );

  r.delete(
    '/session',
    {
      schema: {
        summary: 'Sign out this browser',
        security: [{ session: [] }],
        response: { 200: z.object({ signedOut: z.boolean() }), ...errors },
      },
    },
    async (req, reply) => {
      const a = await signedInAccount(ctx, req);
      const id = a.principal.credentialId;
      if (a.principal.via === 'session' && id) {
        await accountsOf(ctx).deleteSession(a.accountId, id);
        disconnectSessions(ctx, [id]);
      }
      clearSessionCookie(reply, ctx.cookies);
      return { signedOut: true };
    },
  );
}

/** The account's sessions (the devices signed in): list them, end one, end them all. */
export function registerSessionList(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/sessions',
    {
      schema: { summary: "The account's sessions (devices signed in)", security: signedIn, response: { 200: sessionListReply, ...errors } },
    },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      const list = await accountsOf(ctx).listSessions(a.accountId);
      return {
        sessions: list.map((s) => ({
          id: s.id,
          method: s.method,
          userAgent: s.userAgent,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          expiresAt: s.expiresAt.toISOString(),
          current: s.id === a.principal.credentialId,
        })),
      };
    },
  );

  r.delete(
    '/sessions/:id',
    {
      schema: {
        summary: 'End one session (its sockets are disconnected)',
        security: signedIn,
        params: idParams,
        response: { 200: z.object({ id: z.string(), ended: z.boolean() }), ...errors },
      },
    },
    async (req, reply) => {
      const a = await signedInAccount(ctx, req);
      if (!(await accountsOf(ctx).deleteSession(a.accountId, req.params.id)))
        throw new ApiError('NOT_FOUND', `No session "${req.params.id}" on this account.`);
      disconnectSessions(ctx, [req.params.id]);
      if (req.params.id === a.principal.credentialId) clearSessionCookie(reply, ctx.cookies);
      req.log.info({ sessionId: req.params.id }, 'session ended');
      return { id: req.params.id, ended: true };
    },
  );

  r.delete(
    '/sessions',
    {
      schema: {
        summary: 'Sign out everywhere: end every session of the account',
        security: signedIn,
        response: { 200: z.object({ ended: z.number() }), ...errors },
      },
    },
    async (req, reply) => {
      const a = await signedInAccount(ctx, req);
      const ids = await accountsOf(ctx).deleteSessions(a.accountId);
      disconnectSessions(ctx, ids);
      clearSessionCookie(reply, ctx.cookies);
      req.log.info({ sessions: ids.length }, 'signed out everywhere');
      return { ended: ids.length };
    },
  );
}
