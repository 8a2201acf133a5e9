import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { createAccountBody, createAccountReply, createSessionBody, sessionReply } from '@fray/protocol';
import type { SessionMethod } from '@fray/store';
import { hashToken, newToken } from './auth.js';
import { accountsOf, newSession, sessionOpened, unlessNameTaken } from './account-common.js';
import { registerApiTokens } from './api-token-http.js';
import { registerDeviceCodes } from './device-code-http.js';
import { ApiError } from './errors.js';
import { refuseCrossSite } from './gm-auth.js';
import { accountErrors as errors, newId } from './http-common.js';
import { checkPassword, hashPassword, signInHandle } from './passwords.js';
import type { ServerContext } from './context.js';
import { registerAccountSettings } from './account-settings-http.js';
import { registerBrowserSession, registerSessionList } from './session-http.js';

/**
 * Accounts, sessions, API tokens and device codes over HTTP (docs/protocol.md, "Accounts and
 * sign-in"): sign-up and sign-in here, the rest in session-http.ts, account-settings-http.ts,
 * api-token-http.ts and device-code-http.ts. Passkeys are in passkey-http.ts.
 */

type CreateAccountReply = z.infer<typeof createAccountReply>;

/** Every account route (passkeys: passkey-http.ts). */
export function registerAccounts(app: FastifyInstance, ctx: ServerContext): void {
  // sign-up and sign-in carry no credential: another site's page may not send them (login CSRF)
  app.addHook('preHandler', async (req) => refuseCrossSite(req));
  registerSignIn(app, ctx);
  registerBrowserSession(app, ctx);
  registerSessionList(app, ctx);
  registerAccountSettings(app, ctx);
  registerApiTokens(app, ctx);
  registerDeviceCodes(app, ctx);
}

/** Sign-up and sign-in with a password (or an account token). */
function registerSignIn(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/accounts',
    {
      schema: {
        summary: 'Create a GM account: with a name and password, signed in at once (session cookie); without, an account token shown once',
        body: createAccountBody.nullish(),
        response: { 201: createAccountReply, ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body ?? {};
      const created =
        body.password === undefined
          ? await createTokenAccount(ctx, req, body.name)
          : await createPasswordAccount(ctx, req, reply, { name: body.name, password: body.password });
      return reply.status(201).send(created);
    },
  );

  r.post(
    '/sessions',
    {
      schema: {
        summary: 'Sign in with a name and password (or exchange an account token) for a session cookie',
        body: createSessionBody,
        response: { 200: sessionReply, ...errors },
      },
    },
    async (req, reply) => {
      const accounts = accountsOf(ctx);
      const { accountId, method } = await signInWith(ctx, req.body, req.ip);
      const s = newSession(req, method);
      await accounts.createSession(accountId, s.row);
      req.log.info({ accountId, sessionId: s.row.id, method }, 'signed in');
      return sessionOpened(ctx, reply, accountId, s);
    },
  );
}

/** POST /accounts without a password: the account and its token, shown once. */
async function createTokenAccount(ctx: ServerContext, req: FastifyRequest, name: string | undefined): Promise<CreateAccountReply> {
  const token = newToken('gm');
  const accountId = newId('acc');
  await ctx.store.createAccount({ id: accountId, tokenHash: hashToken(token), name: name ?? null });
  req.log.info({ accountId }, 'account created');
  return { accountId, token };
}

/** POST /accounts with a password: the account and its first session (the browser signed in at once). */
async function createPasswordAccount(
  ctx: ServerContext,
  req: FastifyRequest,
  reply: FastifyReply,
  body: { name?: string | undefined; password: string },
): Promise<CreateAccountReply> {
  if (!body.name) throw new ApiError('NAME_REQUIRED', 'An account with a password needs a sign-in name ("name").');
  const { name, password } = body;
  const handle = signInHandle(name);
  checkPassword(password, name);
  const accounts = accountsOf(ctx);
  const accountId = newId('acc');
  const s = newSession(req, 'password');
  await unlessNameTaken(name, async () =>
    accounts.createPasswordAccount({ id: accountId, name, handle, passwordHash: await hashPassword(password) }, s.row),
  );
  req.log.info({ accountId, sessionId: s.row.id }, 'account created (password)');
  return { accountId, csrfToken: sessionOpened(ctx, reply, accountId, s).csrfToken };
}

/** The account behind POST /sessions: an account token's, or a name and password's (with the sign-in backoff). */
async function signInWith(
  ctx: ServerContext,
  body: z.infer<typeof createSessionBody>,
  ip: string,
): Promise<{ accountId: string; method: SessionMethod }> {
  if ('token' in body) {
    const p = await ctx.auth.resolve(body.token);
    if (!p || p.kind !== 'gm' || p.via !== 'account-token') throw new ApiError('UNAUTHORIZED', 'That is not a Fray account token.');
    return { accountId: p.accountId, method: 'token' };
  }
  return { accountId: await ctx.passwords!.signIn(body.name, body.password, ip), method: 'password' };
}
