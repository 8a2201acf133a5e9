import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { api, ApiError } from './api.js';
import { isRecord } from './guards.js';

/** Passkeys through `@simplewebauthn/browser` and the server's /sessions/passkey and /account/passkeys routes. */

type Options = { challengeId: string; options: Record<string, unknown> };

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** The browser's own refusal (the GM closed the prompt, no passkey here): a sentence, not a stack. */
function browserRefusal(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const name = e instanceof Error || isRecord(e) ? e.name : undefined;
  if (name === 'NotAllowedError' || name === 'AbortError')
    throw new ApiError('PASSKEY_CANCELLED', 'The passkey prompt was closed or timed out; nothing changed.', 0);
  if (name === 'InvalidStateError') throw new ApiError('PASSKEY_EXISTS', 'This device already holds a passkey for this account.', 0);
  throw new ApiError('PASSKEY_FAILED', e instanceof Error ? e.message : String(e), 0);
}

export async function signInWithPasskey<T>(): Promise<T> {
  const o = await api<Options>('POST', '/sessions/passkey/options', {});
  let response: unknown;
  try {
    response = await startAuthentication({ optionsJSON: o.options as never });
  } catch (e) {
    browserRefusal(e);
  }
  return api<T>('POST', '/sessions/passkey', { challengeId: o.challengeId, response });
}

export async function addPasskey(name: string | undefined): Promise<void> {
  const o = await api<Options>('POST', '/account/passkeys/options', {});
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: o.options as never });
  } catch (e) {
    browserRefusal(e);
  }
  await api('POST', '/account/passkeys', { challengeId: o.challengeId, response, ...(name ? { name } : {}) });
}
