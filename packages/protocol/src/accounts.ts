import { z } from 'zod';

/**
 * GM accounts (docs/protocol.md, "Accounts and sign-in"; docs/security.md): sign-in names and
 * passwords, passkeys, browser sessions (an httpOnly cookie and a CSRF token), API tokens for
 * scripts, and one-time device codes.
 */

/** A sign-in name: 3–32 letters, digits, `.`, `_` or `-`, starting with a letter or digit; unique whatever the case. */
export const SIGN_IN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{2,31}$/;
/** The shortest password accepted, in characters (NIST SP 800-63B's floor for chosen passwords is 8; Fray asks 10). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
/** The header every state-changing request signed in by the session cookie carries. */
export const CSRF_HEADER = 'x-csrf-token';

const password = z.string().max(PASSWORD_MAX_LENGTH);
const signInName = z.string().min(1).max(120);

/** `POST /accounts`: with a password, an account with a sign-in name (and a session); without, a token account as before. */
export const createAccountBody = z.object({ name: signInName.optional(), password: password.optional() }).strict();
export const createAccountReply = z.object({
  accountId: z.string(),
  /** the account token, shown once: only for an account made without a password */
  token: z.string().optional(),
  /** the session's CSRF token: only for an account made with a password (it is signed in) */
  csrfToken: z.string().optional(),
});

/** `POST /sessions`: a name and a password, or an account token (a token account moving to the cookie). */
export const createSessionBody = z.union([
  z.object({ name: signInName, password }).strict(),
  z.object({ token: z.string().min(1).max(200) }).strict(),
]);
export const sessionReply = z.object({
  accountId: z.string(),
  sessionId: z.string(),
  /** send it as the `x-csrf-token` header on every POST, PUT, PATCH and DELETE */
  csrfToken: z.string(),
  expiresAt: z.string(),
});
export type SessionReply = z.infer<typeof sessionReply>;

export const sessionInfo = z.object({
  id: z.string(),
  /** how it began: password | passkey | device | token */
  method: z.enum(['password', 'passkey', 'device', 'token']),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** the session this request came with */
  current: z.boolean(),
});
export const sessionListReply = z.object({ sessions: z.array(sessionInfo) });

export const accountReply = z.object({
  accountId: z.string(),
  name: z.string().nullable(),
  /** the sign-in name (lower case); null: the account has none yet (a token account) */
  signInName: z.string().nullable(),
  hasPassword: z.boolean(),
  /** made with an account token, which still works */
  hasToken: z.boolean(),
  passkeys: z.number(),
  createdAt: z.string(),
});

/** `PUT /account/password`: set or change it; `currentPassword` when one is set, `name` when the account has no sign-in name yet. */
export const setPasswordBody = z.object({ password, currentPassword: password.optional(), name: signInName.optional() }).strict();

export const apiTokenBody = z.object({ name: z.string().trim().min(1).max(80) }).strict();
export const apiTokenInfo = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export const apiTokenCreated = apiTokenInfo.extend({ token: z.string() });
export const apiTokenListReply = z.object({ tokens: z.array(apiTokenInfo) });

export const deviceCodeReply = z.object({
  /** 8 characters shown as XXXX-XXXX; single use */
  code: z.string(),
  expiresAt: z.string(),
  /** the page that signs in with it (the QR code's content); the code is in the fragment, never sent to a server log */
  url: z.string(),
});
export const deviceSessionBody = z.object({ code: z.string().min(1).max(32) }).strict();

/** A WebAuthn response as the browser gives it (`@simplewebauthn/browser`); checked in depth by the server's verification. */
const webauthnResponse = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
    authenticatorAttachment: z.string().optional(),
  })
  .passthrough();
export const webauthnOptionsReply = z.object({ challengeId: z.string(), options: z.record(z.string(), z.unknown()) });
export const passkeyRegisterBody = z
  .object({ challengeId: z.string().min(1).max(64), name: z.string().trim().min(1).max(80).optional(), response: webauthnResponse })
  .strict();
export const passkeySignInBody = z.object({ challengeId: z.string().min(1).max(64), response: webauthnResponse }).strict();
export const passkeyInfo = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  backedUp: z.boolean(),
});
export const passkeyListReply = z.object({ passkeys: z.array(passkeyInfo) });
