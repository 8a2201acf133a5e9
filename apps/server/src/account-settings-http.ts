import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountReply, setPasswordBody } from '@fray/protocol';
import type { AccountsStore } from '@fray/store';
import { accountsOf, disconnectSessions, signedInAccount, unlessNameTaken } from './account-common.js';
import { ApiError } from './errors.js';
import { authenticateGm, type GmAuth } from './gm-auth.js';
import { accountErrors as errors, signedIn } from './http-common.js';
import { checkPassword, hashPassword, signInHandle } from './passwords.js';
import type { ServerContext } from './context.js';

/** The signed-in account over HTTP: what it is, and its password. */
export function registerAccountSettings(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/account',
    {
      schema: {
        summary: 'The signed-in account: name, and its ways to sign in',
        security: signedIn,
        response: { 200: accountReply, ...errors },
      },
    },
    async (req) => {
      const a = await authenticateGm(ctx, req);
      const accounts = accountsOf(ctx);
      const info = await accounts.getAccount(a.accountId);
      if (!info) throw new ApiError('NOT_FOUND', 'The account no longer exists.');
      const passkeys = await accounts.listPasskeys(a.accountId);
      return {
        accountId: info.id,
        name: info.name,
        signInName: info.handle,
        hasPassword: info.hasPassword,
        hasToken: info.hasToken,
        passkeys: passkeys.length,
        createdAt: info.createdAt.toISOString(),
      };
    },
  );

  r.put(
    '/account/password',
    {
      schema: {
        summary: "Set or change the password (and choose a sign-in name if the account has none); the account's other sessions end",
        security: signedIn,
        body: setPasswordBody,
        response: { 200: z.object({ sessionsEnded: z.number() }), ...errors },
      },
    },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      const ended = await setPassword(ctx, req, a, req.body);
      disconnectSessions(ctx, ended);
      req.log.info({ sessionsEnded: ended.length }, 'password set');
      return { sessionsEnded: ended.length };
    },
  );
}

/**
 * PUT /account/password: the new password (and the sign-in name, for an account that has none),
 * the current one checked first when there is one; the ids of the account's other sessions, ended.
 */
async function setPassword(ctx: ServerContext, req: FastifyRequest, a: GmAuth, body: z.infer<typeof setPasswordBody>): Promise<string[]> {
  const accounts = accountsOf(ctx);
  const info = await accounts.getAccount(a.accountId);
  if (!info) throw new ApiError('NOT_FOUND', 'The account no longer exists.');
  const handle = info.handle ?? (body.name ? signInHandle(body.name) : null);
  if (!handle) throw new ApiError('NAME_REQUIRED', 'Choose a sign-in name ("name") with the password: this account has none yet.');
  checkPassword(body.password, handle);
  if (info.hasPassword) await checkCurrentPassword(ctx, accounts, a.accountId, body.currentPassword, req.ip);
  const newName = info.handle ? {} : { handle, name: info.name ?? body.name! };
  const keep = a.principal.credentialId && a.principal.via === 'session' ? a.principal.credentialId : null;
  return unlessNameTaken(body.name, async () =>
    accounts.setPassword(a.accountId, { passwordHash: await hashPassword(body.password), ...newName }, keep),
  );
}

/** The account's current password, under the sign-in backoff: WRONG_CREDENTIALS when it is wrong or missing. */
async function checkCurrentPassword(
  ctx: ServerContext,
  accounts: AccountsStore,
  accountId: string,
  currentPassword: string | undefined,
  ip: string,
): Promise<void> {
  const gate = ctx.passwords!;
  const key = `account:${accountId}`;
  await gate.admit([key]);
  if (currentPassword === undefined || !(await gate.verify(await accounts.passwordHashOf(accountId), currentPassword))) {
    await gate.failed(key, `ip:${ip}`);
    throw new ApiError('WRONG_CREDENTIALS', 'The current password ("currentPassword") is wrong or missing.');
  }
}
