/**
 * The persistence contract of GM accounts (docs/security.md): sign-in names and password hashes,
 * browser sessions, API tokens, passkeys and their challenges, one-time device codes, and the
 * sign-in backoff. No secret is stored: tokens, cookies and codes only as SHA-256 hashes,
 * passwords only as argon2id hashes. Everything lives in the database, so several server
 * processes agree on every session, token and attempt.
 */

export interface AccountInfo {
  id: string;
  name: string | null;
  /** the sign-in name, lower case; null for an account made with a token only */
  handle: string | null;
  hasPassword: boolean;
  /** made with an account token (`POST /accounts` without a password) */
  hasToken: boolean;
  createdAt: Date;
}

export type SessionMethod = 'password' | 'passkey' | 'device' | 'token';

export interface NewSession {
  id: string;
  tokenHash: string;
  method: SessionMethod;
  userAgent: string | null;
  expiresAt: Date;
}

export interface SessionRecord {
  id: string;
  accountId: string;
  method: SessionMethod;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface ApiTokenRecord {
  id: string;
  accountId: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface PasskeyRecord {
  /** the WebAuthn credential id (base64url) */
  id: string;
  accountId: string;
  name: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface ChallengeRecord {
  id: string;
  kind: 'registration' | 'authentication';
  accountId: string | null;
  challenge: string;
  expiresAt: Date;
}

/** Why a device code signs no one in. */
export type DeviceCodeRefusal = 'invalid' | 'used' | 'expired';

/** The sign-in name is another account's (case-insensitive). */
export class NameTakenError extends Error {
  readonly code = 'NAME_TAKEN';
  constructor(message = 'This name is taken.') {
    super(message);
    this.name = 'NameTakenError';
  }
}

/** Removing this would leave the account with no way to sign in. */
export class LastSignInMethodError extends Error {
  readonly code = 'LAST_SIGN_IN_METHOD';
  constructor(message = 'This is the last way to sign in to the account.') {
    super(message);
    this.name = 'LastSignInMethodError';
  }
}

export interface AccountsStore {
  /** The account and its first session, in one transaction (NameTakenError: nothing is created). */
  createPasswordAccount(input: { id: string; name: string; handle: string; passwordHash: string }, session: NewSession): Promise<void>;
  getAccount(id: string): Promise<AccountInfo | null>;
  /** the account id and password hash for a sign-in name (lower case) */
  findByHandle(handle: string): Promise<{ id: string; passwordHash: string | null } | null>;
  passwordHashOf(accountId: string): Promise<string | null>;
  /**
   * Set the password (and the sign-in name when given) and end every session of the account but
   * `keepSessionId`, in one transaction. Returns the ids of the sessions ended.
   */
  setPassword(
    accountId: string,
    input: { passwordHash: string; handle?: string; name?: string },
    keepSessionId: string | null,
  ): Promise<string[]>;

  createSession(accountId: string, session: NewSession): Promise<SessionRecord>;
  findSessionByTokenHash(tokenHash: string): Promise<SessionRecord | null>;
  /** records the session as seen now (at most once a minute is enough) */
  touchSession(id: string): Promise<void>;
  listSessions(accountId: string): Promise<SessionRecord[]>;
  /** false: no such session of this account */
  deleteSession(accountId: string, id: string): Promise<boolean>;
  /** ends every session of the account (but `exceptId`); returns the ids ended */
  deleteSessions(accountId: string, exceptId?: string): Promise<string[]>;

  createApiToken(input: { id: string; accountId: string; name: string; tokenHash: string }): Promise<ApiTokenRecord>;
  findApiTokenByHash(tokenHash: string): Promise<ApiTokenRecord | null>;
  touchApiToken(id: string): Promise<void>;
  listApiTokens(accountId: string): Promise<ApiTokenRecord[]>;
  deleteApiToken(accountId: string, id: string): Promise<boolean>;

  addPasskey(input: Omit<PasskeyRecord, 'createdAt' | 'lastUsedAt'>): Promise<PasskeyRecord>;
  findPasskey(id: string): Promise<PasskeyRecord | null>;
  listPasskeys(accountId: string): Promise<PasskeyRecord[]>;
  usePasskey(id: string, counter: number): Promise<void>;
  /** false: no such passkey of this account; LastSignInMethodError: it is the only way in */
  deletePasskey(accountId: string, id: string): Promise<boolean>;

  saveChallenge(c: ChallengeRecord): Promise<void>;
  /** takes the challenge (single use, on any process): null when unknown or already taken */
  takeChallenge(id: string): Promise<ChallengeRecord | null>;

  createDeviceCode(input: { codeHash: string; accountId: string; expiresAt: Date }): Promise<void>;
  /** Uses the code and opens the session in one transaction, or says why not (nothing changed). */
  redeemDeviceCode(codeHash: string, session: NewSession): Promise<{ accountId: string } | { refused: DeviceCodeRefusal }>;

  /** seconds until every key may try again (0: now), by the database's clock */
  backoffSeconds(keys: string[]): Promise<number>;
  /** one more failure for the key; returns its count of failures within the last hour */
  recordFailure(key: string, delaySeconds: (failures: number) => number): Promise<number>;
  clearFailures(key: string): Promise<void>;
}
