import type { PrismaClient } from './generated/prisma/client.js';
import { describeError, mapError } from './errors.js';
import {
  LastSignInMethodError,
  NameTakenError,
  type AccountInfo,
  type AccountsStore,
  type ApiTokenRecord,
  type ChallengeRecord,
  type DeviceCodeRefusal,
  type NewSession,
  type PasskeyRecord,
  type SessionMethod,
  type SessionRecord,
} from './accounts-types.js';
import { oneOf } from './prisma-rows.js';

const sessionMethod = oneOf<SessionMethod>(['password', 'passkey', 'device', 'token'], 'session method');
const challengeKind = oneOf<ChallengeRecord['kind']>(['registration', 'authentication'], 'challenge kind');

type SessionRow = {
  id: string;
  accountId: string;
  method: string;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
};
type PasskeyRow = Omit<PasskeyRecord, 'counter' | 'publicKey'> & { counter: bigint; publicKey: Uint8Array };

const toSession = (r: SessionRow): SessionRecord => ({
  id: r.id,
  accountId: r.accountId,
  method: sessionMethod(r.method),
  userAgent: r.userAgent,
  createdAt: r.createdAt,
  lastSeenAt: r.lastSeenAt,
  expiresAt: r.expiresAt,
});
const toToken = (r: ApiTokenRecord): ApiTokenRecord => ({
  id: r.id,
  accountId: r.accountId,
  name: r.name,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
});
const toPasskey = (r: PasskeyRow): PasskeyRecord => ({
  id: r.id,
  accountId: r.accountId,
  name: r.name,
  publicKey: new Uint8Array(r.publicKey),
  counter: Number(r.counter),
  transports: r.transports,
  deviceType: r.deviceType,
  backedUp: r.backedUp,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
});
const sessionData = (accountId: string, s: NewSession) => ({
  id: s.id,
  accountId,
  tokenHash: s.tokenHash,
  method: s.method,
  userAgent: s.userAgent,
  expiresAt: s.expiresAt,
});

/** A unique violation on the sign-in name (Prisma's P2002 or Postgres's 23505 on accounts_handle_key). */
function nameTaken(error: unknown): boolean {
  const text = describeError(error);
  return /handle/.test(text) && /23505|P2002|unique|Unique/.test(text);
}

/** The accounts contract over the Prisma client (the same client and pool as the rest of the store). */
export class PrismaAccounts implements AccountsStore {
  constructor(private readonly prisma: PrismaClient) {}

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof NameTakenError || error instanceof LastSignInMethodError) throw error;
      if (nameTaken(error)) throw new NameTakenError();
      throw mapError(error, what);
    }
  }

  createPasswordAccount(input: { id: string; name: string; handle: string; passwordHash: string }, session: NewSession): Promise<void> {
    return this.run('createPasswordAccount', async () => {
      await this.prisma.$transaction([
        this.prisma.account.create({ data: { id: input.id, name: input.name, handle: input.handle, passwordHash: input.passwordHash } }),
        this.prisma.session.create({ data: sessionData(input.id, session) }),
      ]);
    });
  }

  getAccount(id: string): Promise<AccountInfo | null> {
    return this.run('getAccount', async () => {
      const r = await this.prisma.account.findUnique({ where: { id } });
      return r
        ? {
            id: r.id,
            name: r.name,
            handle: r.handle,
            hasPassword: r.passwordHash !== null,
            hasToken: r.tokenHash !== null,
            createdAt: r.createdAt,
          }
        : null;
    });
  }

  findByHandle(handle: string): Promise<{ id: string; passwordHash: string | null } | null> {
    return this.run('findByHandle', () => this.prisma.account.findUnique({ where: { handle }, select: { id: true, passwordHash: true } }));
  }

  passwordHashOf(accountId: string): Promise<string | null> {
    return this.run(
      'passwordHashOf',
      async () =>
        (await this.prisma.account.findUnique({ where: { id: accountId }, select: { passwordHash: true } }))?.passwordHash ?? null,
    );
  }

  setPassword(
    accountId: string,
    input: { passwordHash: string; handle?: string; name?: string },
    keepSessionId: string | null,
  ): Promise<string[]> {
    return this.run('setPassword', () =>
      this.prisma.$transaction(async (tx) => {
        await tx.account.update({
          where: { id: accountId },
          data: {
            passwordHash: input.passwordHash,
            ...(input.handle ? { handle: input.handle } : {}),
            ...(input.name ? { name: input.name } : {}),
          },
        });
        const others = { accountId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) };
        const ended = await tx.session.findMany({ where: others, select: { id: true } });
        await tx.session.deleteMany({ where: others });
        return ended.map((s) => s.id);
      }),
    );
  }

  createSession(accountId: string, session: NewSession): Promise<SessionRecord> {
    return this.run('createSession', async () => toSession(await this.prisma.session.create({ data: sessionData(accountId, session) })));
  }

  findSessionByTokenHash(tokenHash: string): Promise<SessionRecord | null> {
    return this.run('findSessionByTokenHash', async () => {
      const r = await this.prisma.session.findUnique({ where: { tokenHash } });
      return r ? toSession(r) : null;
    });
  }

  touchSession(id: string): Promise<void> {
    return this.run('touchSession', async () => {
      await this.prisma.session.updateMany({ where: { id }, data: { lastSeenAt: new Date() } });
    });
  }

  listSessions(accountId: string): Promise<SessionRecord[]> {
    return this.run('listSessions', async () =>
      (await this.prisma.session.findMany({ where: { accountId }, orderBy: { lastSeenAt: 'desc' } })).map(toSession),
    );
  }

  deleteSession(accountId: string, id: string): Promise<boolean> {
    return this.run('deleteSession', async () => (await this.prisma.session.deleteMany({ where: { accountId, id } })).count === 1);
  }

  deleteSessions(accountId: string, exceptId?: string): Promise<string[]> {
    return this.run('deleteSessions', async () => {
      const rows = await this.prisma.$queryRaw<
        { id: string }[]
      >`DELETE FROM sessions WHERE account_id = ${accountId} AND id <> ${exceptId ?? ''} RETURNING id`;
      return rows.map((r) => r.id);
    });
  }

  createApiToken(input: { id: string; accountId: string; name: string; tokenHash: string }): Promise<ApiTokenRecord> {
    return this.run('createApiToken', async () => toToken(await this.prisma.apiToken.create({ data: input })));
  }

  findApiTokenByHash(tokenHash: string): Promise<ApiTokenRecord | null> {
    return this.run('findApiTokenByHash', async () => {
      const r = await this.prisma.apiToken.findUnique({ where: { tokenHash } });
      return r ? toToken(r) : null;
    });
  }

  touchApiToken(id: string): Promise<void> {
    return this.run('touchApiToken', async () => {
      await this.prisma.apiToken.updateMany({ where: { id }, data: { lastUsedAt: new Date() } });
    });
  }

  listApiTokens(accountId: string): Promise<ApiTokenRecord[]> {
    return this.run('listApiTokens', async () =>
      (await this.prisma.apiToken.findMany({ where: { accountId }, orderBy: { createdAt: 'desc' } })).map(toToken),
    );
  }

  deleteApiToken(accountId: string, id: string): Promise<boolean> {
    return this.run('deleteApiToken', async () => (await this.prisma.apiToken.deleteMany({ where: { accountId, id } })).count === 1);
  }

  addPasskey(input: Omit<PasskeyRecord, 'createdAt' | 'lastUsedAt'>): Promise<PasskeyRecord> {
    return this.run('addPasskey', async () => {
      const r = await this.prisma.passkey.create({
        data: { ...input, publicKey: Buffer.from(input.publicKey), counter: BigInt(input.counter) },
      });
      return toPasskey(r);
    });
  }

  findPasskey(id: string): Promise<PasskeyRecord | null> {
    return this.run('findPasskey', async () => {
      const r = await this.prisma.passkey.findUnique({ where: { id } });
      return r ? toPasskey(r) : null;
    });
  }

  listPasskeys(accountId: string): Promise<PasskeyRecord[]> {
    return this.run('listPasskeys', async () =>
      (await this.prisma.passkey.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } })).map(toPasskey),
    );
  }

  usePasskey(id: string, counter: number): Promise<void> {
    return this.run('usePasskey', async () => {
      await this.prisma.passkey.updateMany({ where: { id }, data: { counter: BigInt(counter), lastUsedAt: new Date() } });
    });
  }

  deletePasskey(accountId: string, id: string): Promise<boolean> {
    return this.run('deletePasskey', () =>
      this.prisma.$transaction(async (tx) => {
        // the account row locked: two removals at once cannot both see another way in
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
        const account = await tx.account.findUnique({ where: { id: accountId }, select: { passwordHash: true, tokenHash: true } });
        if (!account || !(await tx.passkey.findFirst({ where: { accountId, id }, select: { id: true } }))) return false;
        const others = await tx.passkey.count({ where: { accountId, id: { not: id } } });
        if (others === 0 && account.passwordHash === null && account.tokenHash === null) throw new LastSignInMethodError();
        await tx.passkey.delete({ where: { id } });
        return true;
      }),
    );
  }

  saveChallenge(c: ChallengeRecord): Promise<void> {
    return this.run('saveChallenge', async () => {
      // expired challenges go as new ones come: the table holds only the last few minutes'
      await this.prisma.webauthnChallenge.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 60_000) } } });
      await this.prisma.webauthnChallenge.create({ data: c });
    });
  }

  takeChallenge(id: string): Promise<ChallengeRecord | null> {
    return this.run('takeChallenge', async () => {
      const rows = await this.prisma.$queryRaw<
        Array<{ id: string; kind: string; account_id: string | null; challenge: string; expires_at: Date }>
      >`
        DELETE FROM webauthn_challenges WHERE id = ${id} RETURNING id, kind, account_id, challenge, expires_at`;
      const r = rows[0];
      return r ? { id: r.id, kind: challengeKind(r.kind), accountId: r.account_id, challenge: r.challenge, expiresAt: r.expires_at } : null;
    });
  }

  createDeviceCode(input: { codeHash: string; accountId: string; expiresAt: Date }): Promise<void> {
    return this.run('createDeviceCode', async () => {
      await this.prisma.deviceCode.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 24 * 3600_000) } } });
      await this.prisma.deviceCode.create({ data: input });
    });
  }

  redeemDeviceCode(codeHash: string, session: NewSession): Promise<{ accountId: string } | { refused: DeviceCodeRefusal }> {
    return this.run('redeemDeviceCode', () =>
      this.prisma.$transaction(async (tx) => {
        const used = await tx.$queryRaw<{ account_id: string }[]>`
          UPDATE device_codes SET used_at = now() WHERE code_hash = ${codeHash} AND used_at IS NULL AND expires_at > now() RETURNING account_id`;
        const accountId = used[0]?.account_id;
        if (!accountId) {
          const row = await tx.deviceCode.findUnique({ where: { codeHash } });
          return { refused: !row ? 'invalid' : row.usedAt ? 'used' : 'expired' } as const;
        }
        await tx.session.create({ data: sessionData(accountId, session) });
        return { accountId };
      }),
    );
  }

  backoffSeconds(keys: string[]): Promise<number> {
    return this.run('backoffSeconds', async () => {
      const rows = await this.prisma.$queryRaw<{ s: number | null }[]>`
        SELECT max(EXTRACT(EPOCH FROM (until - now())))::float8 AS s FROM auth_backoff WHERE key = ANY(${keys}) AND until > now()`;
      return Math.max(0, Math.ceil(rows[0]?.s ?? 0));
    });
  }

  recordFailure(key: string, delaySeconds: (failures: number) => number): Promise<number> {
    return this.run('recordFailure', async () => {
      // failures older than an hour are forgotten: the count starts again
      const rows = await this.prisma.$queryRaw<{ failures: number }[]>`
        INSERT INTO auth_backoff (key, failures, until, updated_at) VALUES (${key}, 1, now(), now())
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN auth_backoff.updated_at < now() - interval '1 hour' THEN 1 ELSE auth_backoff.failures + 1 END,
          updated_at = now()
        RETURNING failures`;
      const failures = Number(rows[0]?.failures ?? 1);
      const delay = delaySeconds(failures);
      if (delay > 0)
        await this.prisma.$executeRaw`UPDATE auth_backoff SET until = now() + make_interval(secs => ${delay}::float8) WHERE key = ${key}`;
      return failures;
    });
  }

  clearFailures(key: string): Promise<void> {
    return this.run('clearFailures', async () => {
      await this.prisma.authBackoff.deleteMany({ where: { key } });
    });
  }
}
