import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionReply } from '@fray/protocol';
import { NameTakenError, type AccountsStore, type NewSession, type SessionMethod } from '@fray/store';
import { credentialRoom, hashToken, newToken } from './auth.js';
import { ApiError } from './errors.js';
import { authenticateGm, type GmAuth } from './gm-auth.js';
import { newId } from './http-common.js';
import type { ServerContext } from './context.js';
import { csrfTokenFor, SESSION_DAYS, setSessionCookie } from './web-session.js';

/** What the account routes share: the store's accounts, the signed-in account, new sessions. */

/** The store's accounts, or UNAVAILABLE when the server runs on a store that keeps none. */
export function accountsOf(ctx: ServerContext): AccountsStore {
  if (!ctx.store.accounts) throw new ApiError('UNAVAILABLE', 'This server keeps no accounts (FRAY_STORE=memory); run it on a database.');
  return ctx.store.accounts;
}

/** The signed-in account of a request (an account, not only a token's GM). */
export function signedInAccount(ctx: ServerContext, req: FastifyRequest): Promise<GmAuth> {
  return authenticateGm(ctx, req, { account: true });
}

/** A new session's secret cookie value and its row (only the hash is stored). */
export function newSession(req: FastifyRequest, method: SessionMethod): { cookie: string; row: NewSession } {
  const cookie = newToken('ses');
  const ua = req.headers['user-agent'];
  return {
    cookie,
    row: {
      id: newId('ses'),
      tokenHash: hashToken(cookie),
      method,
      userAgent: typeof ua === 'string' ? ua.slice(0, 200) : null,
      expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
    },
  };
}

/** Sets the cookie of a session just stored and gives the page its CSRF token. */
export function sessionOpened(
  ctx: ServerContext,
  reply: FastifyReply,
  accountId: string,
  s: { cookie: string; row: NewSession },
): SessionReply {
  setSessionCookie(reply, ctx.cookies, s.cookie, s.row.expiresAt);
  return { accountId, sessionId: s.row.id, csrfToken: csrfTokenFor(s.cookie), expiresAt: s.row.expiresAt.toISOString() };
}

/** Ends sessions and disconnects their sockets on every process. */
export function disconnectSessions(ctx: ServerContext, ids: string[]): void {
  for (const id of ids) ctx.disconnectRoom(credentialRoom('session', id));
}

/** A write that takes a sign-in name, its NameTakenError as NAME_TAKEN naming the name. */
export async function unlessNameTaken<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof NameTakenError) throw new ApiError('NAME_TAKEN', `The name "${name}" is taken; choose another.`);
    throw e;
  }
}
