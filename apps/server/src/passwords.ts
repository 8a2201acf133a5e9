import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SIGN_IN_NAME } from '@fray/protocol';
import type { AccountsStore } from '@fray/store';
import { ApiError } from './errors.js';

/**
 * Passwords (argon2id through `@node-rs/argon2`, prebuilt napi binaries) and the sign-in backoff
 * (docs/security.md). OWASP's argon2id parameters: 19 MiB of memory, 2 passes, 1 lane.
 */
/** `Algorithm.Argon2id` (an ambient const enum: its value, 2) */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** A sign-in name's unique form (lower case), or INVALID_NAME with the rule. */
export function signInHandle(name: string): string {
  if (!SIGN_IN_NAME.test(name)) {
    throw new ApiError('INVALID_NAME', 'A sign-in name is 3 to 32 letters, digits, ".", "_" or "-", starting with a letter or digit.');
  }
  return name.toLowerCase();
}

/** WEAK_PASSWORD unless the password meets the documented minimum (docs/security.md). */
export function checkPassword(password: string, name: string | null): void {
  const chars = [...password];
  if (chars.length < PASSWORD_MIN_LENGTH)
    throw new ApiError(
      'WEAK_PASSWORD',
      `A password has at least ${PASSWORD_MIN_LENGTH} characters (this one has ${chars.length}); a few words together are easy to remember.`,
    );
  if (chars.length > PASSWORD_MAX_LENGTH) throw new ApiError('WEAK_PASSWORD', `A password has at most ${PASSWORD_MAX_LENGTH} characters.`);
  if (new Set(chars).size < 4) throw new ApiError('WEAK_PASSWORD', 'A password needs at least 4 different characters.');
  if (name && password.toLowerCase().includes(name.toLowerCase()))
    throw new ApiError('WEAK_PASSWORD', 'A password may not contain the sign-in name.');
}

/** Backoff: failures allowed before waiting, then 2, 4, 8… seconds, at most 15 minutes. */
export const BACKOFF = { nameFree: 5, addressFree: 20, maxSeconds: 900 } as const;

function delayAfter(free: number): (failures: number) => number {
  return (failures) => (failures <= free ? 0 : Math.min(BACKOFF.maxSeconds, 2 ** (failures - free)));
}

/**
 * Checks a name and password with the same work whether the name exists or not: one argon2id
 * verification against the account's hash, or against a hash of a random password made at start
 * (so a wrong name and a wrong password take the same path and the same time). Counts failures
 * per name and per address in the database (every process agrees), refusing RATE_LIMITED with
 * `retryAfter` while one of them must wait.
 */
export class PasswordGate {
  /** argon2id verifications done (tests prove an unknown name costs one, like a wrong password) */
  verifications = 0;
  private dummy: Promise<string> | null = null;

  constructor(private readonly accounts: AccountsStore) {}

  private dummyHash(): Promise<string> {
    this.dummy ??= hashPassword(randomBytes(18).toString('base64url'));
    return this.dummy;
  }

  /** RATE_LIMITED while the name or the address must wait. */
  async admit(keys: string[]): Promise<void> {
    const wait = await this.accounts.backoffSeconds(keys);
    if (wait > 0) throw new ApiError('RATE_LIMITED', `Too many failed attempts; try again in ${wait} s.`, 429, undefined, wait);
  }

  async verify(stored: string | null, password: string): Promise<boolean> {
    this.verifications += 1;
    const ok = await verify(stored ?? (await this.dummyHash()), password).catch(() => false);
    return ok && stored !== null;
  }

  async failed(nameKey: string | null, addressKey: string): Promise<void> {
    if (nameKey) await this.accounts.recordFailure(nameKey, delayAfter(BACKOFF.nameFree));
    await this.accounts.recordFailure(addressKey, delayAfter(BACKOFF.addressFree));
  }

  async succeeded(nameKey: string): Promise<void> {
    await this.accounts.clearFailures(nameKey);
  }

  /** The account of a name and password, or WRONG_CREDENTIALS (the same answer for an unknown name). */
  async signIn(name: string, password: string, address: string): Promise<string> {
    const handle = name.toLowerCase();
    const nameKey = `name:${handle}`;
    const addressKey = `ip:${address}`;
    await this.admit([nameKey, addressKey]);
    const account = SIGN_IN_NAME.test(name) ? await this.accounts.findByHandle(handle) : null;
    const ok = await this.verify(account?.passwordHash ?? null, password);
    if (!ok || !account) {
      await this.failed(nameKey, addressKey);
      throw new ApiError('WRONG_CREDENTIALS', 'Wrong name or password.');
    }
    await this.succeeded(nameKey);
    return account.id;
  }
}
