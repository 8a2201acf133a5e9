import { fastifyCookie } from '@fastify/cookie';
import { hashToken, type Principal } from './auth.js';
import type { ServerContext } from './context.js';
import { foreignSocketOrigin } from './web-session.js';

export type SocketRefusal = { refused: true; code: string; message: string; reason: string };

/**
 * Who a socket is: the bearer token of `auth: { token }` (GM, API or invite token), else the
 * browser's session cookie, which the handshake carries on the page's own host (or under the
 * cookie's Domain). A cookie from a page of another site (its Origin) is refused: another site
 * may not act as the signed-in GM.
 */
export async function authenticateSocket(
  ctx: ServerContext,
  token: unknown,
  headers: Record<string, string | string[] | undefined>,
): Promise<Principal | SocketRefusal> {
  if (token !== undefined && token !== null && token !== '') {
    const p = await ctx.auth.resolve(token);
    return (
      p ??
      (await deletedInvite(ctx, token)) ?? {
        refused: true,
        code: 'UNAUTHORIZED',
        message: 'Unknown or revoked token.',
        reason: 'unknown or revoked token',
      }
    );
  }
  const cookieHeader = typeof headers.cookie === 'string' ? headers.cookie : '';
  const cookie = cookieHeader ? fastifyCookie.parse(cookieHeader)[ctx.cookies.name] : undefined;
  if (!cookie)
    return {
      refused: true,
      code: 'UNAUTHORIZED',
      message: 'A token is required: connect with auth: { token }, or sign in (the session cookie).',
      reason: 'no token',
    };
  if (foreignSocketOrigin(headers.origin, headers.host, ctx.cookies.domain))
    return {
      refused: true,
      code: 'FORBIDDEN',
      message: 'A session cookie from another site’s page is refused.',
      reason: 'cross-site cookie',
    };
  const v = await ctx.auth.session(cookie);
  if ('refused' in v) {
    return v.refused === 'expired'
      ? { refused: true, code: 'SESSION_EXPIRED', message: 'Your session has expired; sign in again.', reason: 'expired session' }
      : { refused: true, code: 'UNAUTHORIZED', message: 'Your session has ended; sign in again.', reason: 'ended session' };
  }
  return v.p;
}

/** An invite to an encounter the GM deleted: refused as such (ENCOUNTER_DELETED), not as an unknown token. */
async function deletedInvite(ctx: ServerContext, token: unknown): Promise<SocketRefusal | null> {
  if (typeof token !== 'string' || !token.startsWith('fray_inv_') || !ctx.store.deletions) return null;
  const encounterId = await ctx.store.deletions.deletedInvite(hashToken(token)).catch(() => null);
  if (!encounterId) return null;
  return {
    refused: true,
    code: 'ENCOUNTER_DELETED',
    message: 'The GM deleted this encounter; this invite no longer works.',
    reason: 'deleted encounter',
  };
}
