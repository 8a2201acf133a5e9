import { Tokens } from '@fastify/csrf';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '@fray/protocol';

/**
 * The browser's session: one httpOnly, SameSite=Lax cookie (Secure, and named with the `__Host-`
 * prefix, when Fray is served over https), and a CSRF token bound to it (docs/security.md).
 *
 * The CSRF token is `@fastify/csrf`'s token with the session cookie's value as its secret: a
 * random salt and the SHA-256 of salt and secret. Only a page that signed in (or asked
 * `GET /session`) knows it; another site can make the browser send the cookie but can neither
 * read the cookie nor compute the token. Nothing is stored for it, so every server process checks
 * it alike.
 */

/** How long a session lasts from sign-in (absolute; signing in again starts a new one). */
export const SESSION_DAYS = 30;

export interface CookiePolicy {
  secure: boolean;
  name: string;
}

export function cookiePolicy(secure: boolean): CookiePolicy {
  return { secure, name: secure ? '__Host-fray_session' : 'fray_session' };
}

const csrf = new Tokens({ userInfo: false });

export function csrfTokenFor(sessionCookie: string): string {
  return csrf.create(sessionCookie);
}

export function csrfValid(sessionCookie: string, token: unknown): boolean {
  return typeof token === 'string' && token.length <= 200 && csrf.verify(sessionCookie, token);
}

export function csrfTokenOf(req: FastifyRequest): unknown {
  return req.headers[CSRF_HEADER];
}

export function sessionCookieOf(req: FastifyRequest, policy: CookiePolicy): string | null {
  const v = req.cookies?.[policy.name];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export function setSessionCookie(reply: FastifyReply, policy: CookiePolicy, value: string, expiresAt: Date): void {
  void reply.setCookie(policy.name, value, { path: '/', httpOnly: true, sameSite: 'lax', secure: policy.secure, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, policy: CookiePolicy): void {
  void reply.clearCookie(policy.name, { path: '/', httpOnly: true, sameSite: 'lax', secure: policy.secure });
}

/**
 * A request from a browser page of another site: its `Origin` names a host other than the one
 * it was sent to. Programs (curl, scripts) send no Origin and are not refused.
 */
export function crossOrigin(origin: unknown, host: unknown): boolean {
  if (typeof origin !== 'string' || origin === '') return false;
  if (origin === 'null') return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** The page origin WebAuthn answers must come from: the public URL's, else the request's own. */
export function expectedOrigin(req: FastifyRequest, publicUrl: string | undefined): { origin: string; rpID: string } {
  const u = new URL(publicUrl ?? `${req.protocol}://${req.headers.host ?? req.hostname}`);
  return { origin: u.origin, rpID: u.hostname };
}
