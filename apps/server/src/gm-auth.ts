import type { FastifyRequest } from 'fastify';
import { hashToken, principalKey, type Principal } from './auth.js';
import { ApiError } from './errors.js';
import type { ServerContext } from './context.js';
import { crossOrigin, csrfTokenOf, csrfValid, sessionCookieOf } from './web-session.js';

/** A signed-in GM on a request: the principal, and the session cookie's value when that is how. */
export interface GmAuth {
  accountId: string;
  principal: Extract<Principal, { kind: 'gm' }>;
  /** the session cookie (the CSRF token's secret), when the request came signed in by it */
  sessionCookie: string | null;
}

/** An error that also clears the browser's session cookie (the error handler does). */
export class SessionEndedError extends ApiError {
  readonly clearSession = true;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function bearerOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

/** The rate limiter's key of a request: its bearer token or session cookie, else its address. */
export function limiterKey(req: FastifyRequest, ctx: ServerContext): string {
  const credential = bearerOf(req) ?? sessionCookieOf(req, ctx.cookies);
  return credential ? `t:${hashToken(credential).slice(0, 16)}` : `ip:${req.ip}`;
}

/**
 * A state-changing request without a bearer token, from a page of another site (its Origin):
 * refused CSRF_FAILED. It keeps another site from signing a browser up or in (login CSRF).
 */
export function refuseCrossSite(req: FastifyRequest): void {
  if (SAFE.has(req.method) || bearerOf(req)) return;
  if (crossOrigin(req.headers.origin, req.headers.host))
    throw new ApiError('CSRF_FAILED', 'A request from another site’s page is refused.');
}

/**
 * The GM a request is signed in as: a bearer token (account token or API token) or the session
 * cookie. With the cookie, every state-changing request must carry the session's CSRF token
 * (`x-csrf-token`). `account: true`: a route that manages the account (passkeys, password,
 * sessions, tokens, device codes), which an API token may not use.
 */
export async function authenticateGm(ctx: ServerContext, req: FastifyRequest, opts: { account?: boolean } = {}): Promise<GmAuth> {
  const token = bearerOf(req);
  let auth: GmAuth;
  if (token) {
    const p = await ctx.auth.resolve(token);
    if (!p) throw new ApiError('UNAUTHORIZED', 'Unknown or revoked token.');
    if (p.kind !== 'gm') throw new ApiError('FORBIDDEN', 'Only the GM may do this; an invite token cannot.');
    if (opts.account && p.via === 'api-token')
      throw new ApiError('FORBIDDEN', 'An API token cannot manage the account; sign in to the web app to do this.');
    auth = { accountId: p.accountId, principal: p, sessionCookie: null };
  } else {
    const cookie = sessionCookieOf(req, ctx.cookies);
    if (!cookie)
      throw new ApiError('UNAUTHORIZED', 'Sign in first (the session cookie), or send a GM token (Authorization: Bearer <token>).');
    const v = await ctx.auth.session(cookie);
    if ('refused' in v) {
      if (v.refused === 'expired') throw new SessionEndedError('SESSION_EXPIRED', 'Your session has expired; sign in again.');
      throw new SessionEndedError('UNAUTHORIZED', 'Your session has ended (signed out or revoked); sign in again.');
    }
    if (!SAFE.has(req.method)) {
      refuseCrossSite(req);
      if (!csrfValid(cookie, csrfTokenOf(req)))
        throw new ApiError('CSRF_FAILED', 'Missing or wrong CSRF token: send the x-csrf-token header that sign-in or GET /session gave.');
    }
    auth = { accountId: v.p.accountId, principal: v.p, sessionCookie: cookie };
  }
  req.log = req.log.child({ principal: principalKey(auth.principal) });
  return auth;
}
