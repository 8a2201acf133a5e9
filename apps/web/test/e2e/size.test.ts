import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { launch, newPage, type Chrome } from './browser.js';
import { http, startServer, type TestServer } from './server.js';

/**
 * "Small": at most 200 KB of JavaScript gzipped on a player's first load; the player page's
 * first meaningful paint (the encounter on screen: its name, the round, the turn order) under
 * Chromium's "Slow 4G" throttling, measured (DevTools' preset: 562.5 ms latency, 1.6 Mbps down
 * × 0.9, 750 kbps up × 0.9), set through the DevTools protocol.
 */
export const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const PHONE_390 = { width: 390, height: 844 };

describe("a player's first load", () => {
  let srv: TestServer;
  let chrome: Chrome;
  let link = '';
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer(), launch()]);
    const { token } = await http<{ token: string }>(srv.url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(srv.url, 'POST', '/encounters', { name: 'First load', ruleset: 'action-round', seed: 1 }, token);
    await http(srv.url, 'POST', `/encounters/${enc.id}/combatants`, { id: 'hero', name: 'Hero', side: 'heroes', stats: {} }, token);
    await http(srv.url, 'POST', `/encounters/${enc.id}/combatants`, { id: 'foe', name: 'Foe', side: 'foes', stats: {} }, token);
    const inv = await http<{ token: string }>(
      srv.url,
      'POST',
      `/encounters/${enc.id}/invites`,
      { role: 'player', combatantIds: ['hero'] },
      token,
    );
    link = `${srv.url}/play/${enc.id}#${inv.token}`;
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });

  it('"at most 200 KB of JavaScript gzipped on a player\'s first load"', async () => {
    const { context, page } = await newPage(chrome.browser, PHONE_390);
    contexts.push(context);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(link);
    await page.getByTestId('clock-line').waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    for (const url of scripts) {
      const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      // undici decodes the body; the bytes on the wire are content-length (or the body re-gzipped when chunked)
      const len = Number(res.headers.get('content-length') ?? NaN);
      const body = new Uint8Array(await res.arrayBuffer());
      gzipped += Number.isFinite(len) ? len : (await import('node:zlib')).gzipSync(body).length;
    }
    console.log(`player's first load: ${scripts.length} scripts, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(200 * 1024);
    // the GM's screens are not in it
    expect(scripts.some((u) => /Console|GmList|SchemaFields/.test(u))).toBe(false);
  });

  // The 2.5 s target is measured here and reported (docs/web.md, "Size"), not asserted: a test
  // never asserts a timing on this shared machine. What is asserted: the throttling is in force
  // and the page gets to the encounter under it.
  it('measures the first meaningful paint under Chromium\'s Slow 4G throttling ("within 2.5 s")', async () => {
    const { context, page } = await newPage(chrome.browser, PHONE_390);
    contexts.push(context);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    const t0 = Date.now();
    const timeline: string[] = [];
    page.on('requestfinished', (r) =>
      timeline.push(
        `${Date.now() - t0} ms ${r.resourceType()} ${r
          .url()
          .replace(/^https?:\/\/[^/]+/, '')
          .slice(0, 60)}`,
      ),
    );
    page.on('websocket', () => timeline.push(`${Date.now() - t0} ms websocket opened`));
    await page.goto(link, { waitUntil: 'commit', timeout: 30_000 });
    // meaningful: the encounter itself (the clock line and the turn order), not a loading message
    await page.getByTestId('turn-order').waitFor({ timeout: 30_000 });
    const ms = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="turn-order"]');
      return el ? performance.now() : -1;
    });
    console.log(`first meaningful paint under Slow 4G: ${Math.round(ms)} ms after navigation start\n${timeline.join('\n')}`);
    // a document and then the app, each at least one emulated latency away
    expect(ms).toBeGreaterThan(2 * SLOW_4G.latency);
  });
});
