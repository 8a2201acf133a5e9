import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LastSignInMethodError, NameTakenError, type AccountsStore, type NewSession } from '../src/index.js';
import { openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import { backend } from './helpers.js';

// Issue 33: "nothing half-created (transactions)"; single use of codes and challenges on any process.
let store: TestStore;
let accounts: AccountsStore;
beforeAll(async () => {
  store = await openTestStore();
  accounts = store.accounts!;
});
afterAll(async () => {
  await store?.close();
});
beforeEach(async () => {
  await store.dropAll();
});

let n = 0;
const session = (): NewSession => ({
  id: `ses-${++n}`,
  tokenHash: `hash-${n}`,
  method: 'password',
  userAgent: null,
  expiresAt: new Date(Date.now() + 3_600_000),
});

describe(`accounts on ${backend}`, () => {
  it('an account with a taken name creates neither the account nor its session', async () => {
    await accounts.createPasswordAccount({ id: 'a1', name: 'Mira', handle: 'mira', passwordHash: 'h1' }, session());
    const s = session();
    await expect(accounts.createPasswordAccount({ id: 'a2', name: 'MIRA', handle: 'mira', passwordHash: 'h2' }, s)).rejects.toBeInstanceOf(
      NameTakenError,
    );
    expect(await accounts.getAccount('a2')).toBeNull();
    expect(await accounts.findSessionByTokenHash(s.tokenHash)).toBeNull();
    expect(await accounts.findByHandle('mira')).toEqual({ id: 'a1', passwordHash: 'h1' });
  });

  it('a device code opens one session, once, even from two stores (processes) at once', async () => {
    await accounts.createPasswordAccount({ id: 'a1', name: 'Mira', handle: 'mira', passwordHash: 'h' }, session());
    await accounts.createDeviceCode({ codeHash: 'code', accountId: 'a1', expiresAt: new Date(Date.now() + 60_000) });
    const peer = await store.openPeer();
    try {
      const results = await Promise.all([accounts.redeemDeviceCode('code', session()), peer.accounts!.redeemDeviceCode('code', session())]);
      expect(results.filter((r) => 'accountId' in r)).toEqual([{ accountId: 'a1' }]);
      expect(results.filter((r) => 'refused' in r)).toEqual([{ refused: 'used' }]);
      expect(await accounts.listSessions('a1')).toHaveLength(2);
    } finally {
      await peer.close();
    }
    expect(await accounts.redeemDeviceCode('nope', session())).toEqual({ refused: 'invalid' });
  });

  it('a challenge is taken once', async () => {
    await accounts.saveChallenge({
      id: 'c1',
      kind: 'authentication',
      accountId: null,
      challenge: 'xyz',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await accounts.takeChallenge('c1'))?.challenge).toBe('xyz');
    expect(await accounts.takeChallenge('c1')).toBeNull();
  });

  it('the last passkey of an account with no password or token stays (LastSignInMethodError)', async () => {
    await accounts.createPasswordAccount({ id: 'a1', name: 'Mira', handle: 'mira', passwordHash: 'h' }, session());
    const key = {
      accountId: 'a1',
      name: 'Laptop',
      publicKey: new Uint8Array([1, 2, 3]),
      counter: 0,
      transports: ['internal'],
      deviceType: 'multiDevice',
      backedUp: true,
    };
    await accounts.addPasskey({ id: 'k1', ...key });
    // a password is another way in: the passkey may go
    expect(await accounts.deletePasskey('a1', 'k1')).toBe(true);
    const prisma = (store as unknown as { prisma: { account: { update(a: unknown): Promise<unknown> } } }).prisma;
    await prisma.account.update({ where: { id: 'a1' }, data: { passwordHash: null } });
    await accounts.addPasskey({ id: 'k2', ...key });
    await expect(accounts.deletePasskey('a1', 'k2')).rejects.toBeInstanceOf(LastSignInMethodError);
    expect((await accounts.listPasskeys('a1')).map((k) => k.id)).toEqual(['k2']);
    expect((await accounts.findPasskey('k2'))?.publicKey).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('backoff: failures counted per key, the wait by the database clock, cleared on success', async () => {
    expect(await accounts.backoffSeconds(['name:x'])).toBe(0);
    expect(await accounts.recordFailure('name:x', () => 0)).toBe(1);
    expect(await accounts.recordFailure('name:x', (f) => (f >= 2 ? 30 : 0))).toBe(2);
    const wait = await accounts.backoffSeconds(['name:x', 'ip:y']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    await accounts.clearFailures('name:x');
    expect(await accounts.backoffSeconds(['name:x'])).toBe(0);
  });
});
