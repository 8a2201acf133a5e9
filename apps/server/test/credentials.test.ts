import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { buildServer, type FrayServer } from '../src/index.js';
import { Agent } from './browser-agent.js';
import { startServer, until, type TestServer } from './helpers.js';
import { rulesets as fixtureRulesets } from '@fray/runtime/testing';
import { pino } from 'pino';

// Issue 33: sessions, API tokens, device codes, the upgrade path, several processes, the logs.
let s: TestServer;
beforeAll(async () => {
  s = await startServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const PASSWORD = 'a table at eight tonight';
let n = 0;
const uniqueName = (base: string) => `${base}${++n}${Date.now().toString(36).slice(-4)}`;

/** A socket signed in by a token or a session cookie; resolves once connected. */
function socketOf(url: string, auth: { token?: string; cookie?: string }): Promise<Socket> {
  const sock = ioClient(url, {
    transports: ['websocket'],
    reconnection: false,
    ...(auth.token ? { auth: { token: auth.token } } : {}),
    ...(auth.cookie ? { extraHeaders: { cookie: auth.cookie } } : {}),
  });
  return new Promise((resolve, reject) => {
    sock.on('connect', () => resolve(sock));
    sock.on('connect_error', (e) => reject(e));
  });
}

describe('API tokens for scripts', () => {
  it('"created, named, listed and revoked (/account/tokens); every existing bearer route accepts them"; a revoked one is refused at once, its open socket disconnected', async () => {
    const gm = new Agent(s.url);
    await gm.signUp(uniqueName('script'), PASSWORD);
    const made = await gm.req('POST', '/account/tokens', { name: 'initiative importer' });
    expect(made.status).toBe(201);
    const token = made.body.token as string;
    expect(token).toMatch(/^fray_pat_/);
    const list = await gm.req('GET', '/account/tokens');
    expect(list.body.tokens).toEqual([expect.objectContaining({ id: made.body.id, name: 'initiative importer' })]);
    expect(JSON.stringify(list.body)).not.toContain(token);
    const enc = await s.http('POST', '/encounters', { name: 'Scripted', ruleset: 'skirmish' }, token);
    expect(enc.status).toBe(201);
    expect(
      (
        await s.http(
          'POST',
          `/encounters/${enc.body.id as string}/combatants`,
          { name: 'Orc', side: 'foes', stats: { hp: 5, speed: 3, attack: 2 } },
          token,
        )
      ).status,
    ).toBe(201);
    expect(((await gm.req('GET', '/encounters')).body.encounters as { id: string }[]).map((e) => e.id)).toContain(enc.body.id);
    // a script's token cannot manage the account (mint tokens, end sessions, set the password)
    expect((await s.http('POST', '/account/tokens', { name: 'more' }, token)).body.error?.code).toBe('FORBIDDEN');
    expect((await s.http('DELETE', '/sessions', undefined, token)).body.error?.code).toBe('FORBIDDEN');
    const sock = await socketOf(s.url, { token });
    const gone = new Promise<string>((resolve) => sock.on('disconnect', (reason) => resolve(reason)));
    expect((await gm.req('DELETE', `/account/tokens/${made.body.id as string}`)).body).toEqual({ id: made.body.id, revoked: true });
    expect(await gone).toBe('io server disconnect');
    const after = await s.http('GET', '/encounters', undefined, token);
    expect(after.status).toBe(401);
    expect(after.body.error?.code).toBe('UNAUTHORIZED');
    await expect(socketOf(s.url, { token })).rejects.toThrow(/revoked/);
    expect((await gm.req('DELETE', `/account/tokens/${made.body.id as string}`)).body.error?.code).toBe('NOT_FOUND');
  });
});

describe('sessions', () => {
  it('"a GM lists their sessions and ends any or all of them": an ended session is refused at once over HTTP and its sockets are disconnected', async () => {
    const name = uniqueName('roam');
    const laptop = new Agent(s.url);
    await laptop.signUp(name, PASSWORD);
    const tablet = new Agent(s.url);
    const phone = new Agent(s.url);
    await tablet.signIn(name, PASSWORD);
    await phone.signIn(name, PASSWORD);
    const list = await laptop.req('GET', '/sessions');
    const sessions = list.body.sessions as { id: string; current: boolean; method: string }[];
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((x) => x.current)).toHaveLength(1);
    const tabletId = (await tablet.req('GET', '/session')).body.sessionId as string;
    const tabletSocket = await socketOf(s.url, { cookie: tablet.cookieHeader() });
    const dropped = new Promise<string>((resolve) => tabletSocket.on('disconnect', (r) => resolve(r)));
    expect((await laptop.req('DELETE', `/sessions/${tabletId}`)).body).toEqual({ id: tabletId, ended: true });
    expect(await dropped).toBe('io server disconnect');
    expect((await tablet.req('GET', '/encounters')).body.error?.code).toBe('UNAUTHORIZED');
    expect((await phone.req('GET', '/encounters')).status).toBe(200);
    // sign out everywhere
    const phoneSocket = await socketOf(s.url, { cookie: phone.cookieHeader() });
    const phoneDropped = new Promise<string>((resolve) => phoneSocket.on('disconnect', (r) => resolve(r)));
    expect((await laptop.req('DELETE', '/sessions')).body).toEqual({ ended: 2 });
    expect(await phoneDropped).toBe('io server disconnect');
    expect((await phone.req('GET', '/encounters')).status).toBe(401);
    expect((await laptop.req('GET', '/encounters')).status).toBe(401);
    expect((await laptop.signIn(name, PASSWORD)).status).toBe(200);
  });

  it("another account's session cannot be ended (NOT_FOUND), and a socket with a cookie from another site's page is refused", async () => {
    const a = new Agent(s.url);
    const b = new Agent(s.url);
    await a.signUp(uniqueName('ses'), PASSWORD);
    await b.signUp(uniqueName('ses'), PASSWORD);
    const bId = (await b.req('GET', '/session')).body.sessionId as string;
    expect((await a.req('DELETE', `/sessions/${bId}`)).body.error?.code).toBe('NOT_FOUND');
    expect((await b.req('GET', '/encounters')).status).toBe(200);
    const cross = ioClient(s.url, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: a.cookieHeader(), origin: 'https://evil.example' },
    });
    const err = await new Promise<Error>((resolve) => cross.on('connect_error', resolve));
    expect((err as Error & { data?: { code: string } }).data?.code).toBe('FORBIDDEN');
    cross.close();
  });
});

describe('another device in one step', () => {
  it('"a short one-time code and QR (valid a few minutes, single use)": signs in another device once; "replayed device codes" DEVICE_CODE_USED', async () => {
    const laptop = new Agent(s.url);
    const { accountId } = await laptop.signUp(uniqueName('code'), PASSWORD);
    const made = await laptop.req('POST', '/account/device-codes');
    expect(made.status).toBe(201);
    const code = made.body.code as string;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(made.body.url).toBe(`${s.url}/gm/device#${code}`);
    const minutes = (Date.parse(made.body.expiresAt as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    const phone = new Agent(s.url);
    const r = await phone.req('POST', '/sessions/device', { code: code.toLowerCase().replace('-', ' ') });
    expect(r.status).toBe(200);
    expect(r.body.accountId).toBe(accountId);
    expect((await phone.req('GET', '/encounters')).status).toBe(200);
    const replay = await new Agent(s.url).req('POST', '/sessions/device', { code });
    expect(replay.body.error?.code).toBe('DEVICE_CODE_USED');
    expect(replay.status).toBe(401);
    expect((await new Agent(s.url).req('POST', '/sessions/device', { code: 'ZZZZ-ZZZZ' })).body.error?.code).toBe('DEVICE_CODE_INVALID');
    const { createHash } = await import('node:crypto');
    await s.store.accounts!.createDeviceCode({
      codeHash: createHash('sha256').update('EXP1RED0').digest('hex'),
      accountId,
      expiresAt: new Date(Date.now() - 1),
    });
    const late = new Agent(s.url);
    expect((await late.req('POST', '/sessions/device', { code: 'EXP1-RED0' })).body.error?.code).toBe('DEVICE_CODE_EXPIRED');
    expect(late.session()).toBeUndefined();
    expect((await laptop.req('GET', '/sessions')).body.sessions).toHaveLength(2);
  });
});

describe('the upgrade path', () => {
  it('"existing token-only accounts keep working and can add a password": the token becomes a session, the password is set, both work', async () => {
    const legacy = await s.http('POST', '/accounts', { name: 'Old Hand' });
    expect(legacy.status).toBe(201);
    const token = legacy.body.token as string;
    const enc = await s.http('POST', '/encounters', { name: 'Saved last year', ruleset: 'skirmish' }, token);
    const browser = new Agent(s.url);
    const exchanged = await browser.req('POST', '/sessions', { token });
    expect(exchanged.body.accountId).toBe(legacy.body.accountId);
    expect((await browser.req('GET', '/account')).body).toMatchObject({
      name: 'Old Hand',
      signInName: null,
      hasPassword: false,
      hasToken: true,
    });
    expect((await browser.req('PUT', '/account/password', { password: PASSWORD })).body.error?.code).toBe('NAME_REQUIRED');
    const name = uniqueName('oldhand');
    const set = await browser.req('PUT', '/account/password', { password: PASSWORD, name });
    expect(set.status).toBe(200);
    const elsewhere = new Agent(s.url);
    expect((await elsewhere.signIn(name, PASSWORD)).body.accountId).toBe(legacy.body.accountId);
    expect(((await elsewhere.req('GET', '/encounters')).body.encounters as { id: string }[]).map((e) => e.id)).toEqual([enc.body.id]);
    expect((await s.http('GET', '/encounters', undefined, token)).status).toBe(200);
    // changing it asks for the current one, and ends the other sessions
    expect((await browser.req('PUT', '/account/password', { password: 'yet another passphrase' })).body.error?.code).toBe(
      'WRONG_CREDENTIALS',
    );
    expect((await browser.req('PUT', '/account/password', { password: 'yet another passphrase', currentPassword: PASSWORD })).body).toEqual(
      { sessionsEnded: 1 },
    );
    expect((await elsewhere.req('GET', '/encounters')).status).toBe(401);
    expect((await browser.req('GET', '/encounters')).status).toBe(200);
    expect((await s.http('POST', '/sessions', { token: 'fray_gm_not_a_real_token_at_all' })).body.error?.code).toBe('UNAUTHORIZED');
  });
});

describe('several server processes', () => {
  it('"state in the database, not memory": a session begun on one process works on another, and ending it there is refused at once on the first', async () => {
    const peerStore = await (s.store as unknown as { openPeer(): Promise<typeof s.store> }).openPeer();
    const other: FrayServer = await buildServer({ store: peerStore, rulesets: fixtureRulesets, logger: pino({ level: 'silent' }) });
    const { url } = await other.listen(0, '127.0.0.1');
    try {
      const name = uniqueName('multi');
      const a = new Agent(s.url);
      await a.signUp(name, PASSWORD);
      const onB = new Agent(url, s.url);
      onB.cookies.set('fray_session', a.session()!);
      onB.csrfToken = a.csrfToken;
      expect((await onB.req('POST', '/encounters', { name: 'via B', ruleset: 'skirmish' }, { origin: url })).status).toBe(201);
      const code = (await onB.req('POST', '/account/device-codes', undefined, { origin: url })).body.code as string;
      expect((await new Agent(s.url).req('POST', '/sessions/device', { code })).status).toBe(200);
      expect((await new Agent(url).req('POST', '/sessions/device', { code })).body.error?.code).toBe('DEVICE_CODE_USED');
      // a page of A sent to B (NOT_OWNER) connects its socket there with the same cookie
      const fromA = ioClient(url, {
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { cookie: a.cookieHeader(), origin: s.url },
      });
      await new Promise<void>((resolve, reject) => (fromA.on('connect', resolve), fromA.on('connect_error', reject)));
      const dropped = new Promise<string>((resolve) => fromA.on('disconnect', (r) => resolve(r)));
      expect((await onB.req('DELETE', '/sessions', undefined, { origin: url })).status).toBe(200);
      expect(await dropped).toBe('io server disconnect');
      expect((await a.req('GET', '/encounters')).status).toBe(401);
    } finally {
      await other.close();
      await peerStore.close();
    }
  });
});

describe('cookies over https', () => {
  it('"Secure (when served over https)": the cookie is Secure and __Host-; with FRAY_COOKIE_DOMAIN, __Secure- with that Domain; WebAuthn expects the https origin', async () => {
    for (const [cookieDomain, name, domain] of [
      [undefined, '__Host-fray_session', null],
      ['example.org', '__Secure-fray_session', 'Domain=example.org'],
    ] as const) {
      const tls = await startServer({
        store: await (s.store as unknown as { openPeer(): Promise<typeof s.store> }).openPeer(),
        secureCookies: true,
        cookieDomain,
      });
      try {
        const a = new Agent(tls.url);
        await a.signUp(uniqueName('tls'), PASSWORD);
        const set = a.setCookies.find((c) => c.startsWith(`${name}=`))!;
        expect(set).toMatch(/; Secure/);
        expect(set).toMatch(/HttpOnly/);
        if (domain) expect(set).toContain(domain);
        else expect(set).not.toMatch(/Domain=/i);
        expect((await a.req('GET', '/encounters')).status).toBe(200);
        const o = await a.req('POST', '/account/passkeys/options', {});
        expect((o.body.options as { rp: { id: string } }).rp.id).toBe('127.0.0.1');
        const code = await a.req('POST', '/account/device-codes');
        expect(code.body.url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:\\d+/gm/device#`));
      } finally {
        await tls.server.close();
        await tls.store.close();
      }
    }
  });
});

describe('passkeys: bad input', () => {
  it('"malformed WebAuthn responses": each a typed error, no passkey or session made, a challenge good once', async () => {
    const gm = new Agent(s.url);
    await gm.signUp(uniqueName('webauthn'), PASSWORD);
    const reg = await gm.req('POST', '/account/passkeys/options', {});
    expect(reg.status).toBe(200);
    expect((reg.body.options as { rp: { id: string } }).rp.id).toBe('127.0.0.1');
    const garbage = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'bm90IGpzb24', attestationObject: 'AAAA' },
    };
    const bad = await gm.req('POST', '/account/passkeys', { challengeId: reg.body.challengeId, response: garbage });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.code).toBe('WEBAUTHN_INVALID');
    expect((await gm.req('GET', '/account/passkeys')).body.passkeys).toEqual([]);
    expect((await gm.req('POST', '/account/passkeys', { challengeId: reg.body.challengeId, response: garbage })).body.error?.code).toBe(
      'WEBAUTHN_CHALLENGE_INVALID',
    );
    expect((await gm.req('POST', '/account/passkeys', { challengeId: 'ch_x', response: { id: 'A' } })).body.error?.code).toBe(
      'INVALID_REQUEST',
    );
    const browser = new Agent(s.url);
    const auth = await browser.req('POST', '/sessions/passkey/options', {});
    const unknown = await browser.req('POST', '/sessions/passkey', {
      challengeId: auth.body.challengeId,
      response: { ...garbage, response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' } },
    });
    expect(unknown.body.error?.code).toBe('PASSKEY_UNKNOWN');
    expect(
      (await browser.req('POST', '/sessions/passkey', { challengeId: auth.body.challengeId, response: garbage })).body.error?.code,
    ).toBe('WEBAUTHN_CHALLENGE_INVALID');
    expect(browser.session()).toBeUndefined();
  });
});

describe('logs', () => {
  it('"no password, token or cookie value in any log line" (pino output captured over every flow above)', async () => {
    const secrets: string[] = [PASSWORD];
    const gm = new Agent(s.url);
    const name = uniqueName('quiet');
    await gm.signUp(name, PASSWORD);
    secrets.push(gm.session()!, gm.csrfToken!);
    await gm.signIn(name, 'a wrong password here');
    secrets.push('a wrong password here');
    const t = await gm.req('POST', '/account/tokens', { name: 'log test' });
    secrets.push(t.body.token as string);
    await s.http('GET', '/encounters', undefined, t.body.token as string);
    const code = (await gm.req('POST', '/account/device-codes')).body.code as string;
    secrets.push(code, code.replace('-', ''));
    const phone = new Agent(s.url);
    await phone.req('POST', '/sessions/device', { code });
    secrets.push(phone.session()!);
    const legacy = await s.http('POST', '/accounts', {});
    secrets.push(legacy.body.token as string);
    await new Agent(s.url).req('POST', '/sessions', { token: legacy.body.token });
    await gm.req('PUT', '/account/password', { password: 'the new secret phrase', currentPassword: PASSWORD });
    secrets.push('the new secret phrase');
    await until(() => s.lines.length > 0);
    const all = s.lines.map((l) => JSON.stringify(l)).join('\n');
    expect(all).toContain('signed in');
    for (const secret of secrets) expect(all.includes(secret), `a log line holds ${secret.slice(0, 12)}…`).toBe(false);
    expect(all).not.toMatch(/fray_(ses|pat|gm)_[A-Za-z0-9_-]{20,}/);
  });
});
