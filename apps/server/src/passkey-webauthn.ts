import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { passkeySignInBody } from '@fray/protocol';
import type { ChallengeRecord } from '@fray/store';
import { accountsOf } from './account-common.js';
import { ApiError } from './errors.js';
import { newId } from './http-common.js';
import type { ServerContext } from './context.js';

/**
 * The WebAuthn pieces of the passkey routes (passkey-http.ts): the challenges, stored in the
 * database and taken once (so the options and the answer may reach different server processes),
 * and the answers read for SimpleWebAuthn.
 */

const CHALLENGE_MS = 5 * 60_000;

/** Stores a challenge just generated (good for 5 minutes, once); its id, for the answer to name. */
export async function saveChallenge(
  ctx: ServerContext,
  kind: ChallengeRecord['kind'],
  accountId: string | null,
  challenge: string,
): Promise<string> {
  const id = newId('ch');
  await accountsOf(ctx).saveChallenge({ id, kind, accountId, challenge, expiresAt: new Date(Date.now() + CHALLENGE_MS) });
  return id;
}

/** The challenge a WebAuthn answer names, taken (single use), or WEBAUTHN_CHALLENGE_INVALID. */
export async function takeChallenge(
  ctx: ServerContext,
  id: string,
  kind: ChallengeRecord['kind'],
  accountId: string | null,
): Promise<ChallengeRecord> {
  const c = await accountsOf(ctx).takeChallenge(id);
  if (!c || c.kind !== kind || c.accountId !== accountId)
    throw new ApiError('WEBAUTHN_CHALLENGE_INVALID', 'Unknown or used challenge: ask for new options and try again.');
  if (c.expiresAt.getTime() <= Date.now())
    throw new ApiError('WEBAUTHN_CHALLENGE_INVALID', 'The challenge expired (5 minutes): ask for new options and try again.');
  return c;
}

/** SimpleWebAuthn's verification, a refusal of it (malformed, wrong origin, bad signature…) typed WEBAUTHN_INVALID. */
export async function verified<T>(what: string, fn: () => Promise<T>): Promise<T> {
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
const assertion = z.looseObject({
  clientDataJSON: z.string(),
  authenticatorData: z.string(),
  signature: z.string(),
  userHandle: z.string().optional(),
});

/**
 * The answer as SimpleWebAuthn takes it, the authenticator's part read by its schema (a malformed
 * one throws inside `verified`: WEBAUTHN_INVALID). SimpleWebAuthn's verification reads neither the
 * client extension results nor the attachment, so they are not passed on.
 */
export function registrationResponse(r: WebauthnAnswer): RegistrationResponseJSON {
  return { id: r.id, rawId: r.rawId, type: r.type, response: attestation.parse(r.response), clientExtensionResults: {} };
}
export function authenticationResponse(r: WebauthnAnswer): AuthenticationResponseJSON {
  return { id: r.id, rawId: r.rawId, type: r.type, response: assertion.parse(r.response), clientExtensionResults: {} };
}
