import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { passkeyListReply, passkeyRegisterBody, passkeySignInBody, sessionReply, webauthnOptionsReply } from '@fray/protocol';
import { LastSignInMethodError } from '@fray/store';
import { accountsOf, newSession, sessionOpened, signedInAccount } from './account-common.js';
import { ApiError } from './errors.js';
import type { GmAuth } from './gm-auth.js';
import { accountErrors as errors, signedIn } from './http-common.js';
import { authenticationResponse, registrationResponse, saveChallenge, takeChallenge, verified } from './passkey-webauthn.js';
import type { ServerContext } from './context.js';
import { expectedOrigin } from './web-session.js';

/**
 * Passkeys (WebAuthn, through SimpleWebAuthn): register one or more on a signed-in account, sign
 * in with one, remove one. The challenges and the answers' reading are in passkey-webauthn.ts.
 */

/** A passkey's id in the path (a WebAuthn credential id: longer than the other ids). */
const idParams = z.object({ id: z.string().min(1).max(1024) });
type Passkey = z.infer<typeof passkeyListReply>['passkeys'][number];

export function registerPasskeys(app: FastifyInstance, ctx: ServerContext): void {
  registerPasskeyRegistration(app, ctx);
  registerPasskeyList(app, ctx);
  registerPasskeySignIn(app, ctx);
}

/** Register a passkey on the signed-in account: options, then the answer. */
function registerPasskeyRegistration(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/account/passkeys/options',
    {
      schema: {
        summary: 'Options to register a passkey on the signed-in account (pass to startRegistration)',
        security: signedIn,
        response: { 200: webauthnOptionsReply, ...errors },
      },
    },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      const accounts = accountsOf(ctx);
      const info = await accounts.getAccount(a.accountId);
      if (!info) throw new ApiError('NOT_FOUND', 'The account no longer exists.');
      const existing = await accounts.listPasskeys(a.accountId);
      const label = info.handle ?? info.name ?? a.accountId;
      const options = await generateRegistrationOptions({
        rpName: 'Fray',
        rpID: expectedOrigin(req, ctx.cookies).rpID,
        userName: label,
        userDisplayName: info.name ?? label,
        userID: new TextEncoder().encode(a.accountId),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      const challengeId = await saveChallenge(ctx, 'registration', a.accountId, options.challenge);
      return { challengeId, options: { ...options } };
    },
  );

  r.post(
    '/account/passkeys',
    {
      schema: {
        summary: 'Register a passkey (the answer of startRegistration)',
        security: signedIn,
        body: passkeyRegisterBody,
        response: { 201: passkeyListReply.shape.passkeys.element, ...errors },
      },
    },
    async (req, reply) => {
      const a = await signedInAccount(ctx, req);
      return reply.status(201).send(await registerPasskey(ctx, req, a, req.body));
    },
  );
}

/** POST /account/passkeys: the answer verified against its challenge, the passkey stored. */
async function registerPasskey(
  ctx: ServerContext,
  req: FastifyRequest,
  a: GmAuth,
  body: z.infer<typeof passkeyRegisterBody>,
): Promise<Passkey> {
  const accounts = accountsOf(ctx);
  const c = await takeChallenge(ctx, body.challengeId, 'registration', a.accountId);
  const { origin, rpID } = expectedOrigin(req, ctx.cookies);
  const v = await verified('registration', () =>
    verifyRegistrationResponse({
      response: registrationResponse(body.response),
      expectedChallenge: c.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }),
  );
  if (!v.verified) throw new ApiError('WEBAUTHN_INVALID', 'The passkey could not be verified.');
  const { credential, credentialDeviceType, credentialBackedUp } = v.registrationInfo;
  if (await accounts.findPasskey(credential.id)) throw new ApiError('CONFLICT', 'This passkey is registered already.', 409);
  const count = (await accounts.listPasskeys(a.accountId)).length;
  const p = await accounts.addPasskey({
    id: credential.id,
    accountId: a.accountId,
    name: body.name ?? `Passkey ${count + 1}`,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  });
  req.log.info({ passkeyId: p.id }, 'passkey registered');
  return { id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: null, backedUp: p.backedUp };
}

/** The signed-in account's passkeys: list them, remove one. */
function registerPasskeyList(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/account/passkeys',
    { schema: { summary: "The account's passkeys", security: signedIn, response: { 200: passkeyListReply, ...errors } } },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      const list = await accountsOf(ctx).listPasskeys(a.accountId);
      return {
        passkeys: list.map((p) => ({
          id: p.id,
          name: p.name,
          createdAt: p.createdAt.toISOString(),
          lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
          backedUp: p.backedUp,
        })),
      };
    },
  );

  r.delete(
    '/account/passkeys/:id',
    {
      schema: {
        summary: 'Remove a passkey (refused when it is the last way to sign in)',
        security: signedIn,
        params: idParams,
        response: { 200: z.object({ id: z.string(), removed: z.boolean() }), ...errors },
      },
    },
    async (req) => {
      const a = await signedInAccount(ctx, req);
      try {
        if (!(await accountsOf(ctx).deletePasskey(a.accountId, req.params.id)))
          throw new ApiError('NOT_FOUND', `No passkey "${req.params.id}" on this account.`);
      } catch (e) {
        if (e instanceof LastSignInMethodError)
          throw new ApiError(
            'LAST_SIGN_IN_METHOD',
            'This passkey is the only way to sign in: set a password or add another passkey first.',
          );
        throw e;
      }
      req.log.info({ passkeyId: req.params.id }, 'passkey removed');
      return { id: req.params.id, removed: true };
    },
  );
}

/** Sign in with a passkey: options, then the answer. */
function registerPasskeySignIn(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/sessions/passkey/options',
    {
      schema: {
        summary: 'Options to sign in with a passkey (pass to startAuthentication)',
        response: { 200: webauthnOptionsReply, ...errors },
      },
    },
    async (req) => {
      accountsOf(ctx); // a store without accounts: UNAVAILABLE before any options
      const options = await generateAuthenticationOptions({ rpID: expectedOrigin(req, ctx.cookies).rpID, userVerification: 'preferred' });
      const challengeId = await saveChallenge(ctx, 'authentication', null, options.challenge);
      return { challengeId, options: { ...options } };
    },
  );

  r.post(
    '/sessions/passkey',
    {
      schema: {
        summary: 'Sign in with a passkey (the answer of startAuthentication) for a session cookie',
        body: passkeySignInBody,
        response: { 200: sessionReply, ...errors },
      },
    },
    async (req, reply) => {
      const accountId = await passkeySignIn(ctx, req, req.body);
      const s = newSession(req, 'passkey');
      await accountsOf(ctx).createSession(accountId, s.row);
      req.log.info({ accountId, sessionId: s.row.id }, 'signed in (passkey)');
      return sessionOpened(ctx, reply, accountId, s);
    },
  );
}

/** POST /sessions/passkey: the answer verified (under the sign-in backoff), the passkey's use counted; its account. */
async function passkeySignIn(ctx: ServerContext, req: FastifyRequest, body: z.infer<typeof passkeySignInBody>): Promise<string> {
  const accounts = accountsOf(ctx);
  const gate = ctx.passwords!;
  const addressKey = `ip:${req.ip}`;
  await gate.admit([addressKey]);
  const c = await takeChallenge(ctx, body.challengeId, 'authentication', null);
  const passkey = await accounts.findPasskey(body.response.id);
  if (!passkey) {
    await gate.failed(null, addressKey);
    throw new ApiError('PASSKEY_UNKNOWN', 'This passkey is not registered on this server (it may have been removed).');
  }
  const { origin, rpID } = expectedOrigin(req, ctx.cookies);
  const v = await verified('sign-in', () =>
    verifyAuthenticationResponse({
      response: authenticationResponse(body.response),
      expectedChallenge: c.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    }),
  ).catch(async (e: unknown) => {
    await gate.failed(null, addressKey);
    throw e;
  });
  if (!v.verified) throw new ApiError('WEBAUTHN_INVALID', 'The passkey could not be verified.');
  await accounts.usePasskey(passkey.id, v.authenticationInfo.newCounter);
  return passkey.accountId;
}
