import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountReply,
  apiTokenBody,
  apiTokenCreated,
  apiTokenListReply,
  createAccountBody,
  createAccountReply,
  createSessionBody,
  deviceCodeReply,
  deviceSessionBody,
  errorBodySchema,
  sessionListReply,
  sessionReply,
  setPasswordBody,
  type SessionReply,
} from '@fray/protocol';
import { NameTakenError, type AccountsStore, type NewSession, type SessionMethod } from '@fray/store';
import { credentialRoom, hashToken, newToken } from './auth.js';
import { ApiError } from './errors.js';
import { authenticateGm, refuseCrossSite, type GmAuth } from './gm-auth.js';
import { checkPassword, hashPassword, signInHandle } from './passwords.js';
import type { ServerContext } from './context.js';
import { csrfTokenFor, expectedOrigin, SESSION_DAYS, sessionCookieOf, setSessionCookie, clearSessionCookie } from './web-session.js';

/**
 * Accounts, sessions, API tokens and device codes over HTTP (docs/protocol.md, "Accounts and
 * sign-in"). Passkeys are in passkey-http.ts.
 */

export const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema, 429: errorBodySchema, 503: errorBodySchema };
export const signedIn: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }];
const idParams = z.object({ id: z.string().min(1).max(64) });
/** A device code lives this long, and is good once. */
export const DEVICE_CODE_MINUTES = 5;
/** Crockford's base 32: no I, L, O or U, so a code read aloud or typed is hard to get wrong. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** The store's accounts, or UNAVAILABLE when the server runs on a store that keeps none. */
export function accountsOf(ctx: ServerContext): AccountsStore {
  if (!ctx.store.accounts) throw new ApiError('UNAVAILABLE', 'This server keeps no accounts (FRAY_STORE=memory); run it on a database.');
  return ctx.store.accounts;
}

/** A new session's secret cookie value and its row (only the hash is stored). */
export function newSession(req: FastifyRequest, method: SessionMethod): { cookie: string; row: NewSession } {
  const cookie = newToken('ses');
  const ua = req.headers['user-agent'];
  return {
    cookie,
    row: { id: newId('ses'), tokenHash: hashToken(cookie), method, userAgent: typeof ua === 'string' ? ua.slice(0, 200) : null, expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000) },
  };
}

/** Sets the cookie of a session just stored and gives the page its CSRF token. */
export function sessionOpened(ctx: ServerContext, reply: FastifyReply, accountId: string, s: { cookie: string; row: NewSession }): SessionReply {
  setSessionCookie(reply, ctx.cookies, s.cookie, s.row.expiresAt);
  return { accountId, sessionId: s.row.id, csrfToken: csrfTokenFor(s.cookie), expiresAt: s.row.expiresAt.toISOString() };
}

/** Ends sessions and disconnects their sockets on every process. */
export function disconnectSessions(ctx: ServerContext, ids: string[]): void {
  for (const id of ids) ctx.disconnectRoom(credentialRoom('session', id));
}

function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** Every account route (passkeys: passkey-http.ts). */
export function registerAccounts(app: FastifyInstance, ctx: ServerContext): void {
  // sign-up and sign-in carry no credential: another site's page may not send them (login CSRF)
  app.addHook('preHandler', async (req) => refuseCrossSite(req));
  registerSignIn(app, ctx);
  registerSessions(app, ctx);
  registerSettings(app, ctx);
  registerDeviceCodes(app, ctx);
}

/** Sign-up and sign-in with a password (or an account token). */
function registerSignIn(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/accounts', { schema: { summary: 'Create a GM account: with a name and password, signed in at once (session cookie); without, an account token shown once', body: createAccountBody.nullish(), response: { 201: createAccountReply, ...errors } } }, async (req, reply) => {
    const body = req.body ?? {};
    if (body.password === undefined) {
      const token = newToken('gm');
      const accountId = newId('acc');
      await ctx.store.createAccount({ id: accountId, tokenHash: hashToken(token), name: body.name ?? null });
      req.log.info({ accountId }, 'account created');
      return reply.status(201).send({ accountId, token });
    }
    if (!body.name) throw new ApiError('NAME_REQUIRED', 'An account with a password needs a sign-in name ("name").');
    const handle = signInHandle(body.name);
    checkPassword(body.password, body.name);
    const accounts = accountsOf(ctx);
    const accountId = newId('acc');
    const s = newSession(req, 'password');
    try {
      await accounts.createPasswordAccount({ id: accountId, name: body.name, handle, passwordHash: await hashPassword(body.password) }, s.row);
    } catch (e) {
      if (e instanceof NameTakenError) throw new ApiError('NAME_TAKEN', `The name "${body.name}" is taken; choose another.`);
      throw e;
    }
    req.log.info({ accountId, sessionId: s.row.id }, 'account created (password)');
    const opened = sessionOpened(ctx, reply, accountId, s);
    return reply.status(201).send({ accountId, csrfToken: opened.csrfToken });
  });

  r.post('/sessions', { schema: { summary: 'Sign in with a name and password (or exchange an account token) for a session cookie', body: createSessionBody, response: { 200: sessionReply, ...errors } } }, async (req, reply) => {
    const accounts = accountsOf(ctx);
    let accountId: string;
    let method: SessionMethod;
    if ('token' in req.body) {
      const p = await ctx.auth.resolve(req.body.token);
      if (!p || p.kind !== 'gm' || p.via !== 'account-token') throw new ApiError('UNAUTHORIZED', 'That is not a Fray account token.');
      accountId = p.accountId;
      method = 'token';
    } else {
      accountId = await ctx.passwords!.signIn(req.body.name, req.body.password, req.ip);
      method = 'password';
    }
    const s = newSession(req, method);
    await accounts.createSession(accountId, s.row);
    req.log.info({ accountId, sessionId: s.row.id, method }, 'signed in');
    return sessionOpened(ctx, reply, accountId, s);
  });
}

/** This browser's session, and the account's sessions. */
function registerSessions(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const account = (req: FastifyRequest): Promise<GmAuth> => authenticateGm(ctx, req, { account: true });

  r.get('/session', { schema: { summary: "This browser's session and its CSRF token", security: [{ session: [] }], response: { 200: sessionReply, ...errors } } }, async (req) => {
    const cookie = sessionCookieOf(req, ctx.cookies);
    if (!cookie) throw new ApiError('UNAUTHORIZED', 'Not signed in.');
    const a = await authenticateGm(ctx, req);
    const v = await ctx.auth.session(cookie);
    if ('refused' in v) throw new ApiError('UNAUTHORIZED', 'Not signed in.');
    return { accountId: a.accountId, sessionId: v.sessionId, csrfToken: csrfTokenFor(cookie), expiresAt: v.expiresAt.toISOString() };
  });

  r.delete('/session', { schema: { summary: 'Sign out this browser', security: [{ session: [] }], response: { 200: z.object({ signedOut: z.boolean() }), ...errors } } }, async (req, reply) => {
    const a = await account(req);
    const id = a.principal.credentialId;
    if (a.principal.via === 'session' && id) {
      await accountsOf(ctx).deleteSession(a.accountId, id);
      disconnectSessions(ctx, [id]);
    }
    clearSessionCookie(reply, ctx.cookies);
    return { signedOut: true };
  });

  r.get('/sessions', { schema: { summary: "The account's sessions (devices signed in)", security: signedIn, response: { 200: sessionListReply, ...errors } } }, async (req) => {
    const a = await account(req);
    const list = await accountsOf(ctx).listSessions(a.accountId);
    return {
      sessions: list.map((s) => ({ id: s.id, method: s.method, userAgent: s.userAgent, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), expiresAt: s.expiresAt.toISOString(), current: s.id === a.principal.credentialId })),
    };
  });

  r.delete('/sessions/:id', { schema: { summary: 'End one session (its sockets are disconnected)', security: signedIn, params: idParams, response: { 200: z.object({ id: z.string(), ended: z.boolean() }), ...errors } } }, async (req, reply) => {
    const a = await account(req);
    if (!(await accountsOf(ctx).deleteSession(a.accountId, req.params.id))) throw new ApiError('NOT_FOUND', `No session "${req.params.id}" on this account.`);
    disconnectSessions(ctx, [req.params.id]);
    if (req.params.id === a.principal.credentialId) clearSessionCookie(reply, ctx.cookies);
    req.log.info({ sessionId: req.params.id }, 'session ended');
    return { id: req.params.id, ended: true };
  });

  r.delete('/sessions', { schema: { summary: 'Sign out everywhere: end every session of the account', security: signedIn, response: { 200: z.object({ ended: z.number() }), ...errors } } }, async (req, reply) => {
    const a = await account(req);
    const ids = await accountsOf(ctx).deleteSessions(a.accountId);
    disconnectSessions(ctx, ids);
    clearSessionCookie(reply, ctx.cookies);
    req.log.info({ sessions: ids.length }, 'signed out everywhere');
    return { ended: ids.length };
  });
}

/** The account, its password and its API tokens. */
function registerSettings(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const account = (req: FastifyRequest): Promise<GmAuth> => authenticateGm(ctx, req, { account: true });

  r.get('/account', { schema: { summary: 'The signed-in account: name, and its ways to sign in', security: signedIn, response: { 200: accountReply, ...errors } } }, async (req) => {
    const a = await authenticateGm(ctx, req);
    const accounts = accountsOf(ctx);
    const info = await accounts.getAccount(a.accountId);
    if (!info) throw new ApiError('NOT_FOUND', 'The account no longer exists.');
    const passkeys = await accounts.listPasskeys(a.accountId);
    return { accountId: info.id, name: info.name, signInName: info.handle, hasPassword: info.hasPassword, hasToken: info.hasToken, passkeys: passkeys.length, createdAt: info.createdAt.toISOString() };
  });

  r.put('/account/password', { schema: { summary: "Set or change the password (and choose a sign-in name if the account has none); the account's other sessions end", security: signedIn, body: setPasswordBody, response: { 200: z.object({ sessionsEnded: z.number() }), ...errors } } }, async (req) => {
    const a = await account(req);
    const accounts = accountsOf(ctx);
    const info = await accounts.getAccount(a.accountId);
    if (!info) throw new ApiError('NOT_FOUND', 'The account no longer exists.');
    const handle = info.handle ?? (req.body.name ? signInHandle(req.body.name) : null);
    if (!handle) throw new ApiError('NAME_REQUIRED', 'Choose a sign-in name ("name") with the password: this account has none yet.');
    checkPassword(req.body.password, handle);
    if (info.hasPassword) {
      const gate = ctx.passwords!;
      const key = `account:${a.accountId}`;
      await gate.admit([key]);
      if (req.body.currentPassword === undefined || !(await gate.verify(await accounts.passwordHashOf(a.accountId), req.body.currentPassword))) {
        await gate.failed(key, `ip:${req.ip}`);
        throw new ApiError('WRONG_CREDENTIALS', 'The current password ("currentPassword") is wrong or missing.');
      }
    }
    const newName = info.handle ? {} : { handle, name: info.name ?? req.body.name! };
    let ended: string[];
    try {
      ended = await accounts.setPassword(a.accountId, { passwordHash: await hashPassword(req.body.password), ...newName }, a.principal.credentialId && a.principal.via === 'session' ? a.principal.credentialId : null);
    } catch (e) {
      if (e instanceof NameTakenError) throw new ApiError('NAME_TAKEN', `The name "${req.body.name}" is taken; choose another.`);
      throw e;
    }
    disconnectSessions(ctx, ended);
    req.log.info({ sessionsEnded: ended.length }, 'password set');
    return { sessionsEnded: ended.length };
  });

  r.get('/account/tokens', { schema: { summary: "The account's API tokens (never their values)", security: signedIn, response: { 200: apiTokenListReply, ...errors } } }, async (req) => {
    const a = await account(req);
    const list = await accountsOf(ctx).listApiTokens(a.accountId);
    return { tokens: list.map((t) => ({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), lastUsedAt: t.lastUsedAt?.toISOString() ?? null })) };
  });

  r.post('/account/tokens', { schema: { summary: 'Create a named API token for scripts; its value is shown once', security: signedIn, body: apiTokenBody, response: { 201: apiTokenCreated, ...errors } } }, async (req, reply) => {
    const a = await account(req);
    const token = newToken('pat');
    const t = await accountsOf(ctx).createApiToken({ id: newId('tok'), accountId: a.accountId, name: req.body.name, tokenHash: hashToken(token) });
    req.log.info({ tokenId: t.id }, 'api token created');
    return reply.status(201).send({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), lastUsedAt: null, token });
  });

  r.delete('/account/tokens/:id', { schema: { summary: 'Revoke an API token (refused at once; its sockets are disconnected)', security: signedIn, params: idParams, response: { 200: z.object({ id: z.string(), revoked: z.boolean() }), ...errors } } }, async (req) => {
    const a = await account(req);
    if (!(await accountsOf(ctx).deleteApiToken(a.accountId, req.params.id))) throw new ApiError('NOT_FOUND', `No API token "${req.params.id}" on this account.`);
    ctx.disconnectRoom(credentialRoom('api-token', req.params.id));
    req.log.info({ tokenId: req.params.id }, 'api token revoked');
    return { id: req.params.id, revoked: true };
  });
}

/** A one-time code shown on a signed-in device, used on another. */
function registerDeviceCodes(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const account = (req: FastifyRequest): Promise<GmAuth> => authenticateGm(ctx, req, { account: true });

  r.post('/account/device-codes', { schema: { summary: `A one-time code (and its link, for a QR code) that signs this account in on another device; valid ${DEVICE_CODE_MINUTES} minutes`, security: signedIn, response: { 201: deviceCodeReply, ...errors } } }, async (req, reply) => {
    const a = await account(req);
    let code = '';
    for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    const expiresAt = new Date(Date.now() + DEVICE_CODE_MINUTES * 60_000);
    await accountsOf(ctx).createDeviceCode({ codeHash: hashToken(code), accountId: a.accountId, expiresAt });
    req.log.info({}, 'device code created');
    const shown = `${code.slice(0, 4)}-${code.slice(4)}`;
    return reply.status(201).send({ code: shown, expiresAt: expiresAt.toISOString(), url: `${expectedOrigin(req, ctx.cookies).origin}/gm/device#${shown}` });
  });

  r.post('/sessions/device', { schema: { summary: 'Sign in on this device with a one-time device code', body: deviceSessionBody, response: { 200: sessionReply, ...errors } } }, async (req, reply) => {
    const accounts = accountsOf(ctx);
    const gate = ctx.passwords!;
    const addressKey = `ip:${req.ip}`;
    await gate.admit([addressKey]);
    const s = newSession(req, 'device');
    const out = await accounts.redeemDeviceCode(hashToken(normalizeCode(req.body.code)), s.row);
    if ('refused' in out) {
      await gate.failed(null, addressKey);
      if (out.refused === 'used') throw new ApiError('DEVICE_CODE_USED', 'This code was used already; show a new one on the signed-in device.');
      if (out.refused === 'expired') throw new ApiError('DEVICE_CODE_EXPIRED', `This code has expired (codes last ${DEVICE_CODE_MINUTES} minutes); show a new one.`);
      throw new ApiError('DEVICE_CODE_INVALID', 'No such code; check it, or show a new one on the signed-in device.');
    }
    req.log.info({ accountId: out.accountId, sessionId: s.row.id }, 'signed in (device code)');
    return sessionOpened(ctx, reply, out.accountId, s);
  });
}
