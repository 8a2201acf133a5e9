import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { passkeyListReply, passkeyRegisterBody, passkeySignInBody, sessionReply, webauthnOptionsReply } from '@fray/protocol';
import { LastSignInMethodError, type ChallengeRecord } from '@fray/store';
import { accountsOf, errors, newId, newSession, sessionOpened, signedIn } from './account-http.js';
import { ApiError } from './errors.js';
import { authenticateGm } from './gm-auth.js';
import type { ServerContext } from './context.js';
import { expectedOrigin } from './web-session.js';

/**
 * Passkeys (WebAuthn, through SimpleWebAuthn): register one or more on a signed-in account, sign
 * in with one, remove one. Every challenge is stored in the database and taken once, so the
 * options and the answer may reach different server processes.
 */

const CHALLENGE_MS = 5 * 60_000;
const idParams = z.object({ id: z.string().min(1).max(1024) });

/** The challenge a WebAuthn answer names, taken (single use), or WEBAUTHN_CHALLENGE_INVALID. */
async function takeChallenge(ctx: ServerContext, id: string, kind: ChallengeRecord['kind'], accountId: string | null): Promise<ChallengeRecord> {
  const c = await accountsOf(ctx).takeChallenge(id);
  if (!c || c.kind !== kind || c.accountId !== accountId) throw new ApiError('WEBAUTHN_CHALLENGE_INVALID', 'Unknown or used challenge: ask for new options and try again.');
  if (c.expiresAt.getTime() <= Date.now()) throw new ApiError('WEBAUTHN_CHALLENGE_INVALID', 'The challenge expired (5 minutes): ask for new options and try again.');
  return c;
}

/** SimpleWebAuthn's verification, a refusal of it (malformed, wrong origin, bad signature…) typed WEBAUTHN_INVALID. */
async function verified<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw new ApiError('WEBAUTHN_INVALID', `The passkey's ${what} was refused: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A WebAuthn answer as the protocol's schema reads it (the authenticator's part an open record). */
type WebauthnAnswer = z.infer<typeof passkeySignInBody>['response'];
const attestation = z.looseObject({
  clientDataJSON: z.string(),
  attestationObject: z.string(),
  authenticatorData: z.string().optional(),
  transports: z.array(z.string()).optional(),
  publicKeyAlgorithm: z.number().optional(),
  publicKey: z.string().optional(),
});
const assertion = z.looseObject({ clientDataJSON: z.string(), authenticatorData: z.string(), signature: z.string(), userHandle: z.string().optional() });

/**
 * The answer as SimpleWebAuthn takes it, the authenticator's part read by its schema (a malformed
 * one throws inside `verified`: WEBAUTHN_INVALID). SimpleWebAuthn's verification reads neither the
 * client extension results nor the attachment, so they are not passed on.
 */
function registrationResponse(r: WebauthnAnswer): RegistrationResponseJSON {
  return { id: r.id, rawId: r.rawId, type: r.type, response: attestation.parse(r.response), clientExtensionResults: {} };
}
function authenticationResponse(r: WebauthnAnswer): AuthenticationResponseJSON {
  return { id: r.id, rawId: r.rawId, type: r.type, response: assertion.parse(r.response), clientExtensionResults: {} };
}

export function registerPasskeys(app: FastifyInstance, ctx: ServerContext): void {
  registerPasskeySettings(app, ctx);
  registerPasskeySignIn(app, ctx);
}

/** Register, list and remove the signed-in account's passkeys. */
function registerPasskeySettings(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const account = (req: FastifyRequest) => authenticateGm(ctx, req, { account: true });

  r.post('/account/passkeys/options', { schema: { summary: 'Options to register a passkey on the signed-in account (pass to startRegistration)', security: signedIn, response: { 200: webauthnOptionsReply, ...errors } } }, async (req) => {
    const a = await account(req);
    const accounts = accountsOf(ctx);
    const info = await accounts.getAccount(a.accountId);
    if (!info) throw new ApiError('NOT_FOUND', 'The account no longer exists.');
    const existing = await accounts.listPasskeys(a.accountId);
    const { rpID } = expectedOrigin(req, ctx.cookies);
    const label = info.handle ?? info.name ?? a.accountId;
    const options = await generateRegistrationOptions({
      rpName: 'Fray',
      rpID,
      userName: label,
      userDisplayName: info.name ?? label,
      userID: new TextEncoder().encode(a.accountId),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const challengeId = newId('ch');
    await accounts.saveChallenge({ id: challengeId, kind: 'registration', accountId: a.accountId, challenge: options.challenge, expiresAt: new Date(Date.now() + CHALLENGE_MS) });
    return { challengeId, options: { ...options } };
  });

  r.post('/account/passkeys', { schema: { summary: 'Register a passkey (the answer of startRegistration)', security: signedIn, body: passkeyRegisterBody, response: { 201: passkeyListReply.shape.passkeys.element, ...errors } } }, async (req, reply) => {
    const a = await account(req);
    const accounts = accountsOf(ctx);
    const c = await takeChallenge(ctx, req.body.challengeId, 'registration', a.accountId);
    const { origin, rpID } = expectedOrigin(req, ctx.cookies);
    const v = await verified('registration', () =>
      verifyRegistrationResponse({ response: registrationResponse(req.body.response), expectedChallenge: c.challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false }),
    );
    if (!v.verified) throw new ApiError('WEBAUTHN_INVALID', 'The passkey could not be verified.');
    const { credential, credentialDeviceType, credentialBackedUp } = v.registrationInfo;
    if (await accounts.findPasskey(credential.id)) throw new ApiError('CONFLICT', 'This passkey is registered already.', 409);
    const count = (await accounts.listPasskeys(a.accountId)).length;
    const p = await accounts.addPasskey({
      id: credential.id,
      accountId: a.accountId,
      name: req.body.name ?? `Passkey ${count + 1}`,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    });
    req.log.info({ passkeyId: p.id }, 'passkey registered');
    return reply.status(201).send({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: null, backedUp: p.backedUp });
  });

  r.get('/account/passkeys', { schema: { summary: "The account's passkeys", security: signedIn, response: { 200: passkeyListReply, ...errors } } }, async (req) => {
    const a = await account(req);
    const list = await accountsOf(ctx).listPasskeys(a.accountId);
    return { passkeys: list.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null, backedUp: p.backedUp })) };
  });

  r.delete('/account/passkeys/:id', { schema: { summary: 'Remove a passkey (refused when it is the last way to sign in)', security: signedIn, params: idParams, response: { 200: z.object({ id: z.string(), removed: z.boolean() }), ...errors } } }, async (req) => {
    const a = await account(req);
    try {
      if (!(await accountsOf(ctx).deletePasskey(a.accountId, req.params.id))) throw new ApiError('NOT_FOUND', `No passkey "${req.params.id}" on this account.`);
    } catch (e) {
      if (e instanceof LastSignInMethodError) throw new ApiError('LAST_SIGN_IN_METHOD', 'This passkey is the only way to sign in: set a password or add another passkey first.');
      throw e;
    }
    req.log.info({ passkeyId: req.params.id }, 'passkey removed');
    return { id: req.params.id, removed: true };
  });
}

/** Sign in with a passkey: options, then the answer. */
function registerPasskeySignIn(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/sessions/passkey/options', { schema: { summary: 'Options to sign in with a passkey (pass to startAuthentication)', response: { 200: webauthnOptionsReply, ...errors } } }, async (req) => {
    const accounts = accountsOf(ctx);
    const { rpID } = expectedOrigin(req, ctx.cookies);
    const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
    const challengeId = newId('ch');
    await accounts.saveChallenge({ id: challengeId, kind: 'authentication', accountId: null, challenge: options.challenge, expiresAt: new Date(Date.now() + CHALLENGE_MS) });
    return { challengeId, options: { ...options } };
  });

  r.post('/sessions/passkey', { schema: { summary: 'Sign in with a passkey (the answer of startAuthentication) for a session cookie', body: passkeySignInBody, response: { 200: sessionReply, ...errors } } }, async (req, reply) => {
    const accounts = accountsOf(ctx);
    const gate = ctx.passwords!;
    const addressKey = `ip:${req.ip}`;
    await gate.admit([addressKey]);
    const c = await takeChallenge(ctx, req.body.challengeId, 'authentication', null);
    const passkey = await accounts.findPasskey(req.body.response.id);
    if (!passkey) {
      await gate.failed(null, addressKey);
      throw new ApiError('PASSKEY_UNKNOWN', 'This passkey is not registered on this server (it may have been removed).');
    }
    const { origin, rpID } = expectedOrigin(req, ctx.cookies);
    const v = await verified('sign-in', () =>
      verifyAuthenticationResponse({
        response: authenticationResponse(req.body.response),
        expectedChallenge: c.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: passkey.id, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: false,
      }),
    ).catch(async (e: unknown) => {
      await gate.failed(null, addressKey);
      throw e;
    });
    if (!v.verified) throw new ApiError('WEBAUTHN_INVALID', 'The passkey could not be verified.');
    await accounts.usePasskey(passkey.id, v.authenticationInfo.newCounter);
    const s = newSession(req, 'passkey');
    await accounts.createSession(passkey.accountId, s.row);
    req.log.info({ accountId: passkey.accountId, sessionId: s.row.id }, 'signed in (passkey)');
    return sessionOpened(ctx, reply, passkey.accountId, s);
  });
}
