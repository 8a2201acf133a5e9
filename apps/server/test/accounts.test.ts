import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '@fray/runtime';
import { BACKOFF } from '../src/passwords.js';
import { Agent } from './browser-agent.js';
import { startServer, type TestServer } from './helpers.js';

// Issue 33: GM accounts with a password, browser sessions, CSRF, backoff (docs/security.md).
let s: TestServer;
beforeAll(async () => {
  s = await startServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const PASSWORD = 'correct horse battery';
let n = 0;
const uniqueName = (base: string) => `${base}${++n}${Date.now().toString(36).slice(-4)}`;

describe('password accounts and sessions', () => {
  it('"POST /accounts { name, password } → 201 { accountId } and a session": an httpOnly SameSite cookie, no token in the body', async () => {
    const a = new Agent(s.url);
    const name = uniqueName('Mira');
    const r = await a.req('POST', '/accounts', { name, password: PASSWORD });
    expect(r.status).toBe(201);
    expect(r.body.accountId).toMatch(/^acc_/);
    expect(r.body.token).toBeUndefined();
    const cookie = a.setCookies.find((c) => c.startsWith('fray_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // served over http here
    const me = await a.req('GET', '/account');
    expect(me.body).toMatchObject({
      accountId: r.body.accountId,
      name,
      signInName: name.toLowerCase(),
      hasPassword: true,
      hasToken: false,
      passkeys: 0,
    });
  });

  it('"POST /sessions { name, password } → 200 with the session cookie and { accountId }", on any device, whatever the name\'s case', async () => {
    const name = uniqueName('Dario');
    const { accountId } = await new Agent(s.url).signUp(name, PASSWORD);
    const phone = new Agent(s.url);
    const r = await phone.signIn(name.toUpperCase(), PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body.accountId).toBe(accountId);
    expect(phone.session()).toMatch(/^fray_ses_/);
    expect((await phone.req('GET', '/encounters')).status).toBe(200);
  });

  it('"a session cookie from one account never reads another\'s encounters"', async () => {
    const alice = new Agent(s.url);
    const bob = new Agent(s.url);
    await alice.signUp(uniqueName('alice'), PASSWORD);
    await bob.signUp(uniqueName('bob'), PASSWORD);
    const made = await alice.req('POST', '/encounters', { name: 'Alice’s fight', ruleset: 'skirmish' });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect((await bob.req('GET', `/encounters/${id}`)).body.error?.code).toBe('FORBIDDEN');
    expect((await bob.req('GET', `/encounters/${id}/log`)).body.error?.code).toBe('FORBIDDEN');
    expect((await bob.req('PATCH', `/encounters/${id}`, { name: 'mine now' })).body.error?.code).toBe('FORBIDDEN');
    const list = await bob.req('GET', '/encounters');
    expect((list.body.encounters as { id: string }[]).map((e) => e.id)).not.toContain(id);
    expect((await alice.req('GET', `/encounters/${id}`)).status).toBe(200);
  });

  it('"CSRF protection on every state-changing request": without the token, or with another session\'s, refused CSRF_FAILED and nothing done', async () => {
    const a = new Agent(s.url);
    const other = new Agent(s.url);
    await a.signUp(uniqueName('csrf'), PASSWORD);
    await other.signUp(uniqueName('csrfo'), PASSWORD);
    const none = await a.req('POST', '/encounters', { name: 'x', ruleset: 'skirmish' }, { csrf: false });
    expect(none.status).toBe(403);
    expect(none.body.error?.code).toBe('CSRF_FAILED');
    const foreign = await a.req(
      'POST',
      '/encounters',
      { name: 'x', ruleset: 'skirmish' },
      { csrf: false, headers: { 'x-csrf-token': other.csrfToken! } },
    );
    expect(foreign.body.error?.code).toBe('CSRF_FAILED');
    for (const [method, path, body] of [
      ['POST', '/account/tokens', { name: 't' }],
      ['DELETE', '/sessions', undefined],
      ['POST', '/account/device-codes', undefined],
      ['PUT', '/account/password', { password: 'another long one' }],
    ] as const) {
      expect((await a.req(method, path, body, { csrf: false })).body.error?.code).toBe('CSRF_FAILED');
    }
    expect((await a.req('GET', '/encounters')).body.encounters).toEqual([]);
    expect((await a.req('GET', '/account/tokens')).body.tokens).toEqual([]);
    // a page of another site cannot sign a browser in (login CSRF) nor act with its cookie
    const evil = await new Agent(s.url, 'https://evil.example').req('POST', '/sessions', { name: 'x', password: PASSWORD });
    expect(evil.body.error?.code).toBe('CSRF_FAILED');
    expect(
      (await a.req('POST', '/encounters', { name: 'x', ruleset: 'skirmish' }, { origin: 'https://evil.example' })).body.error?.code,
    ).toBe('CSRF_FAILED');
  });

  it('GET /session gives the CSRF token again (a reload), bound to the session', async () => {
    const a = new Agent(s.url);
    await a.signUp(uniqueName('reload'), PASSWORD);
    a.csrfToken = null;
    const r = await a.req('GET', '/session');
    expect(r.status).toBe(200);
    expect(typeof r.body.csrfToken).toBe('string');
    expect((await a.req('POST', '/encounters', { name: 'after reload', ruleset: 'skirmish' })).status).toBe(201);
    expect((await new Agent(s.url).req('GET', '/session')).body.error?.code).toBe('UNAUTHORIZED');
  });
});

describe('wrong names and passwords', () => {
  it('"a wrong name and a wrong password take the same path (a hash is verified for unknown names too)": same status, same body, one argon2id verification each', async () => {
    const name = uniqueName('same');
    await new Agent(s.url).signUp(name, PASSWORD);
    const gate = s.server.context.passwords!;
    const before = gate.verifications;
    const wrongPassword = await new Agent(s.url).signIn(name, 'not the password at all');
    const afterOne = gate.verifications;
    const unknownName = await new Agent(s.url).signIn(uniqueName('nobody'), 'not the password at all');
    expect(afterOne - before).toBe(1);
    expect(gate.verifications - afterOne).toBe(1);
    expect(wrongPassword.status).toBe(401);
    expect(unknownName.status).toBe(wrongPassword.status);
    expect(unknownName.body).toEqual(wrongPassword.body);
    expect(wrongPassword.body.error).toEqual({ code: 'WRONG_CREDENTIALS', message: 'Wrong name or password.' });
  });

  it(`"per-name backoff (typed RATE_LIMITED with a retryAfter)": after ${BACKOFF.nameFree} failures the name waits, even with the right password; other names do not`, async () => {
    const name = uniqueName('victim');
    await new Agent(s.url).signUp(name, PASSWORD);
    const codes: string[] = [];
    for (let i = 0; i <= BACKOFF.nameFree; i++) codes.push((await new Agent(s.url).signIn(name, `wrong password ${i}`)).body.error!.code);
    expect(codes).toEqual(Array(BACKOFF.nameFree + 1).fill('WRONG_CREDENTIALS'));
    const limited = await new Agent(s.url).signIn(name, PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe('RATE_LIMITED');
    expect(limited.body.error?.retryAfter).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBe(limited.body.error?.retryAfter);
    const other = uniqueName('bystander');
    await new Agent(s.url).signUp(other, PASSWORD);
    expect((await new Agent(s.url).signIn(other, PASSWORD)).status).toBe(200);
  });

  it(`"per-address backoff": ${BACKOFF.addressFree} failures from one address with different names, then RATE_LIMITED for any name`, async () => {
    const solo = await startServer();
    try {
      const name = uniqueName('addr');
      await new Agent(solo.url).signUp(name, PASSWORD);
      for (let i = 0; i <= BACKOFF.addressFree; i++)
        expect((await new Agent(solo.url).signIn(uniqueName('guess'), 'some password')).body.error?.code).toBe('WRONG_CREDENTIALS');
      const r = await new Agent(solo.url).signIn(name, PASSWORD);
      expect(r.body.error?.code).toBe('RATE_LIMITED');
      expect(r.body.error?.retryAfter).toBeGreaterThan(0);
    } finally {
      await solo.close();
    }
  }, 60_000);
});

describe('bad input: each a typed error, nothing half-created', () => {
  it('"weak or empty passwords (a documented minimum)": WEAK_PASSWORD, and the name stays free', async () => {
    const name = uniqueName('weak');
    for (const password of ['', 'short', 'aaaaaaaaaaaa', `${name}123456`]) {
      const r = await new Agent(s.url).req('POST', '/accounts', { name, password });
      expect(r.status).toBe(422);
      expect(r.body.error?.code).toBe('WEAK_PASSWORD');
    }
    expect((await new Agent(s.url).req('POST', '/accounts', { name, password: PASSWORD })).status).toBe(201);
  });

  it('"names taken": NAME_TAKEN whatever the case, the first account untouched; bad names INVALID_NAME; a password without a name NAME_REQUIRED', async () => {
    const name = uniqueName('Taken');
    const first = await new Agent(s.url).signUp(name, PASSWORD);
    const again = await new Agent(s.url).req('POST', '/accounts', { name: name.toLowerCase(), password: 'a different password' });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('NAME_TAKEN');
    expect((await new Agent(s.url).signIn(name, PASSWORD)).body.accountId).toBe(first.accountId);
    expect((await new Agent(s.url).req('POST', '/accounts', { name: 'a b', password: PASSWORD })).body.error?.code).toBe('INVALID_NAME');
    expect((await new Agent(s.url).req('POST', '/accounts', { password: PASSWORD })).body.error?.code).toBe('NAME_REQUIRED');
    expect((await new Agent(s.url).req('POST', '/accounts', { name, password: 7 })).body.error?.code).toBe('INVALID_REQUEST');
  });

  it('"expired sessions": SESSION_EXPIRED, the cookie cleared, the session gone', async () => {
    const a = new Agent(s.url);
    const { accountId } = await a.signUp(uniqueName('old'), PASSWORD);
    const accounts = s.store.accounts!;
    const cookie = 'fray_ses_expired_session_value_for_the_test';
    const { createHash } = await import('node:crypto');
    await accounts.createSession(accountId, {
      id: `ses_old${n}`,
      tokenHash: createHash('sha256').update(cookie).digest('hex'),
      method: 'password',
      userAgent: null,
      expiresAt: new Date(Date.now() - 1000),
    });
    const stale = new Agent(s.url);
    stale.cookies.set('fray_session', cookie);
    const r = await stale.req('GET', '/encounters');
    expect(r.status).toBe(401);
    expect(r.body.error?.code).toBe('SESSION_EXPIRED');
    expect(stale.cookies.has('fray_session')).toBe(false);
    expect((await accounts.listSessions(accountId)).map((x) => x.id)).not.toContain(`ses_old${n}`);
  });

  it('an unknown or forged session cookie: UNAUTHORIZED', async () => {
    const a = new Agent(s.url);
    a.cookies.set('fray_session', 'fray_ses_forged_value_0000000000000000');
    expect((await a.req('GET', '/encounters')).body.error?.code).toBe('UNAUTHORIZED');
  });
});

describe('which page may open a socket with the cookie', () => {
  it('the same host name (any port: another process), or a host under FRAY_COOKIE_DOMAIN; never another site', async () => {
    const { foreignSocketOrigin } = await import('../src/web-session.js');
    expect(foreignSocketOrigin(undefined, 'fray.example.org', undefined)).toBe(false);
    expect(foreignSocketOrigin('https://fray.example.org', 'fray.example.org:8081', undefined)).toBe(false);
    expect(foreignSocketOrigin('https://fray.example.org', 'fray-1.example.org', undefined)).toBe(true);
    expect(foreignSocketOrigin('https://fray.example.org', 'fray-1.example.org', '.example.org')).toBe(false);
    expect(foreignSocketOrigin('https://evil-example.org', 'fray-1.example.org', 'example.org')).toBe(true);
    expect(foreignSocketOrigin('null', 'fray.example.org', undefined)).toBe(true);
  });
});

describe('the in-memory store (FRAY_STORE=memory)', () => {
  it('keeps no accounts: sign-up with a password, sign-in and passkeys answer UNAVAILABLE saying why; an account token still plays', async () => {
    const m = await startServer({ store: new MemoryStore() });
    try {
      const name = uniqueName('Mem');
      const refused = [
        await m.http('POST', '/accounts', { name, password: PASSWORD }),
        await m.http('POST', '/sessions', { name, password: PASSWORD }),
        await m.http('POST', '/sessions/passkey/options'),
      ];
      for (const r of refused) {
        expect(r.status).toBe(503);
        expect(r.body.error).toMatchObject({ code: 'UNAVAILABLE' });
        expect(r.body.error!.message).toContain('keeps no accounts (FRAY_STORE=memory)');
      }
      const created = await m.http('POST', '/accounts', {});
      expect(created.status).toBe(201);
      const token = String(created.body.token);
      const enc = await m.http('POST', '/encounters', { name: 'In memory', ruleset: 'skirmish' }, token);
      expect(enc.status).toBe(201);
      expect((await m.http('GET', `/encounters/${String(enc.body.id)}`, undefined, token)).status).toBe(200);
    } finally {
      await m.close();
    }
  });
});
