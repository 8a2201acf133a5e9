import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, DESKTOP, launch, newPage, shot, type Chrome } from './browser.js';
import { signUp } from './gm-flow.js';
import { startServer, type TestServer } from './server.js';

/**
 * Issue 33 in Chromium: sign up, passkeys through the DevTools virtual authenticator
 * (`WebAuthn.addVirtualAuthenticator`), sign in with one, remove one, account settings, the
 * device code, at phone (390 × 844) and desktop size.
 */
const PHONE = { width: 390, height: 844 };

/** A platform authenticator with user verification that answers at once (no prompt). */
async function authenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

describe('accounts in the browser', () => {
  let srv: TestServer;
  let chrome: Chrome;
  let base: string;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer(), launch()]);
    // WebAuthn's relying party is a domain, never an IP address: the page is opened at localhost
    base = srv.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });
  async function open(viewport = DESKTOP) {
    const o = await newPage(chrome.browser, viewport);
    contexts.push(o.context);
    return o;
  }

  it('the home screen offers a passkey first, a password second, and sign-up, at phone and desktop size', async () => {
    for (const [vp, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { page, errors } = await open(vp);
      await page.goto(`${base}/`);
      const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
      const password = page.getByRole('button', { name: 'Sign in', exact: true });
      await passkey.waitFor();
      const [p, q] = [await passkey.boundingBox(), await password.boundingBox()];
      expect(p!.y).toBeLessThan(q!.y);
      await shot(page, `accounts-home-${name}`);
      expect(await axe(page)).toEqual([]);
      expect(errors).toEqual([]);
    }
  });

  it('"register one or more passkeys on an account, sign in with one, remove one" (Chromium\'s virtual authenticator)', async () => {
    const { page, errors } = await open(PHONE);
    const name = await signUp(page, base);
    await page.goto(`${base}/gm/account`);
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    const first = await authenticator(page);
    await page.getByLabel('Passkey name').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByTestId('passkey-row').filter({ hasText: 'Laptop' }).waitFor();
    // a second passkey, from a second authenticator (a phone, say)
    await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.id });
    const second = await authenticator(page);
    await page.getByLabel('Passkey name').fill('Phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByTestId('passkey-row').filter({ hasText: 'Phone' }).waitFor();
    expect(await page.getByTestId('passkey-row').count()).toBe(2);
    const { credentials } = await second.cdp.send('WebAuthn.getCredentials', { authenticatorId: second.id });
    expect(credentials).toHaveLength(1);
    await shot(page, 'accounts-settings-phone');
    expect(await axe(page)).toEqual([]);

    // sign out, then in again with the passkey: no name, no password
    await page.goto(`${base}/gm`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Your encounters' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/account')).json() as Promise<{ signInName: string; passkeys: number }>);
    expect(me).toMatchObject({ signInName: name, passkeys: 2 });

    // remove the phone's passkey: signing in with it is refused, the laptop's remains
    await page.goto(`${base}/gm/account`);
    await page.getByTestId('passkey-row').filter({ hasText: 'Phone' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('passkey-row').filter({ hasText: 'Phone' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('passkey-row').count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'PASSKEY_UNKNOWN' }).waitFor();
    await shot(page, 'accounts-passkey-refused-phone');
    expect(errors).toEqual([]);
  });

  it('account settings at desktop size: a device code with its QR code signs a second browser in once; sessions listed and ended', async () => {
    const { page, errors } = await open(DESKTOP);
    await signUp(page, base);
    await page.goto(`${base}/gm/account`);
    await page.getByRole('button', { name: 'Show a sign-in code' }).click();
    await page
      .getByTestId('device-code')
      .getByRole('img', { name: /QR code to sign in/ })
      .waitFor();
    const code = await page.getByLabel('Sign-in code').innerText();
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await page.getByLabel('Token name').fill('Initiative importer');
    await page.getByRole('button', { name: 'Create a token' }).click();
    await page.getByTestId('new-token').waitFor();
    await shot(page, 'accounts-settings-desktop');
    expect(await axe(page)).toEqual([]);

    // the QR code's link, opened on a phone
    const phone = await open(PHONE);
    await phone.page.goto(`${base}/gm/device#${code}`);
    await shot(phone.page, 'accounts-device-phone');
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page.getByRole('heading', { name: 'Your encounters' }).waitFor();
    // used once: a replay is refused
    const again = await open(PHONE);
    await again.page.goto(`${base}/gm/device#${code}`);
    await again.page.getByRole('button', { name: 'Sign in' }).click();
    await again.page.getByRole('alert').filter({ hasText: 'DEVICE_CODE_USED' }).waitFor();

    // the laptop ends the phone's session: the phone's next request finds it signed out
    await page.reload();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
    await page.getByTestId('session-row').filter({ hasNotText: 'this device' }).getByRole('button', { name: 'End' }).click();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
    await phone.page.reload();
    await phone.page.getByText('You are not signed in.').waitFor();
    expect([...errors, ...phone.errors]).toEqual([]);
  });
});
