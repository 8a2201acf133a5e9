import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webPlugin } from '../../plugin/index.js';
import { axe, DESKTOP, launch, newPage, PHONE, shot, type Chrome } from './browser.js';

/**
 * The built app served by the plugin alone (no API behind it): the home screen renders, and a
 * failing API shows a readable message, never a blank page.
 */
describe('web app served by the plugin', () => {
  let app: FastifyInstance;
  let chrome: Chrome;
  let base: string;
  beforeAll(async () => {
    app = Fastify();
    await app.register(webPlugin);
    app.get('/rulesets', async (_req, reply) =>
      reply.code(503).send({ error: { code: 'UNAVAILABLE', message: 'The rules are resting.' } }),
    );
    // a signed-in browser, as far as the page can tell (GET /session answers)
    app.get('/session', async () => ({
      accountId: 'a',
      sessionId: 's',
      csrfToken: 'c',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    chrome = await launch();
  });
  afterAll(async () => {
    await chrome?.close();
    await app?.close();
  });

  it('renders the home screen at desktop and phone width', async () => {
    for (const [vp, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { context, page, errors } = await newPage(chrome.browser, vp);
      await page.goto(`${base}/`);
      await page.getByRole('heading', { name: /Fray/ }).waitFor();
      await expect(page.getByLabel('Invite link from your GM').isVisible()).resolves.toBe(true);
      await shot(page, `home-${name}`);
      expect(await axe(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('shows a server error as a message, and an invite link with no token says so', async () => {
    const { context, page } = await newPage(chrome.browser);
    await page.goto(`${base}/`);
    await page.goto(`${base}/gm`);
    await page.getByRole('alert').filter({ hasText: 'The rules are resting.' }).waitFor();
    await page.goto(`${base}/play/enc1`);
    await page.getByRole('alert').filter({ hasText: 'no invite token' }).waitFor();
    await context.close();
  });
});
