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
  /** the cookie's Domain (FRAY_COOKIE_DOMAIN): every process's host name under it gets the cookie */
  domain: string | undefined;
}

/**
 * Secure cookies are named `__Host-fray_session` (the browser then refuses one set by another
 * host or for a path other than `/`), or `__Secure-fray_session` when a Domain is given (a
 * `__Host-` cookie may not have one).
 */
export function cookiePolicy(secure: boolean, domain?: string): CookiePolicy {
  const name = !secure ? 'fray_session' : domain ? '__Secure-fray_session' : '__Host-fray_session';
  return { secure, name, domain: domain || undefined };
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
  void reply.setCookie(policy.name, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    expires: expiresAt,
    ...(policy.domain ? { domain: policy.domain } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, policy: CookiePolicy): void {
  void reply.clearCookie(policy.name, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    ...(policy.domain ? { domain: policy.domain } : {}),
  });
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

/**
 * A socket's page may be another Fray process's (a client sent to the encounter's owner,
 * NOT_OWNER, connects there from the page it was on): its Origin must name the same host name as
 * the request (any port), or a host under the cookie's Domain. Anything else is another site.
 */
export function foreignSocketOrigin(origin: unknown, host: unknown, domain: string | undefined): boolean {
  if (typeof origin !== 'string' || origin === '') return false;
  try {
    const page = new URL(origin).hostname;
    const here = new URL(`http://${String(host)}`).hostname;
    if (page === here) return false;
    const d = domain?.replace(/^\./, '').toLowerCase();
    return !(d && (page === d || page.endsWith(`.${d}`)));
  } catch {
    return true;
  }
}

/**
 * The page origin WebAuthn answers must come from, and the relying party id: the host the browser
 * asked for (the load balancer passes it on), over https when cookies are Secure (Fray behind a
 * TLS proxy), else as the request came. Never FRAY_PUBLIC_URL: that is one process's own URL.
 */
export function expectedOrigin(req: FastifyRequest, policy: CookiePolicy): { origin: string; rpID: string } {
  const u = new URL(`${policy.secure ? 'https' : req.protocol}://${req.headers.host ?? req.hostname}`);
  return { origin: u.origin, rpID: u.hostname };
}
