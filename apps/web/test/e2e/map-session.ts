import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { ARTIFACTS, axe, DESKTOP, launch, newPage, SCREENS, shot, type Chrome } from './browser.js';
import { http, startServer, type TestServer } from './server.js';
import type { RulesetInfo } from '../../src/lib/types.js';

/**
 * What the battle-map fights share: a server and Chromium, pages that collect console errors,
 * screenshots, waiting on the GM's state, axe, and what every page showed on a failure.
 */
export const PHONE = { width: 390, height: 844 };

export interface MapSession {
  srv: TestServer;
  rulesets: RulesetInfo[];
  consoleErrors: string[];
  open(viewport?: { width: number; height: number }): Promise<Page>;
  keep(page: Page, name: string, at?: string): Promise<void>;
  gmSees(gm: Page, pred: string, arg?: unknown): Promise<void>;
  /** axe-core's serious and critical WCAG 2 A/AA violations on each named page, one line each. */
  axeReport(pages: Array<readonly [string, Page]>): Promise<string[]>;
  failShots(): Promise<void>;
  close(): Promise<void>;
}

export async function mapSession(): Promise<MapSession> {
  const [srv, chrome]: [TestServer, Chrome] = await Promise.all([startServer({ reactionSeconds: 60 }), launch()]);
  const rulesets = (await http<{ rulesets: RulesetInfo[] }>(srv.url, 'GET', '/rulesets')).rulesets;
  mkdirSync(SCREENS, { recursive: true });
  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  const consoleErrors: string[] = [];
  return {
    srv,
    rulesets,
    consoleErrors,
    async open(viewport = DESKTOP) {
      const { context, page } = await newPage(chrome.browser, viewport);
      contexts.push(context);
      pages.push(page);
      page.on('console', (m: ConsoleMessage) => {
        // the home page asks whether a session exists before sign-in: Chromium logs its 401 as a failed load
        const probe = new URL(page.url()).pathname === '/' && /status of 401/.test(m.text());
        if (m.type() === 'error' && !probe) consoleErrors.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      page.on('dialog', (d) => void d.accept());
      return page;
    },
    async keep(page, name, at = '[data-testid="map-panel"]') {
      await shot(page, name);
      // the screen as the person sees it, the map (or `at`) in view
      await page
        .locator(at)
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: join(SCREENS, `${name}.png`) });
    },
    async gmSees(gm, pred, arg) {
      await gm.waitForFunction(({ src, a }) => new Function('s', 'a', `return ${src}`)(window.__frayLive?.getSnapshot().state, a), {
        src: pred,
        a: arg,
      });
    },
    async axeReport(named) {
      const report: string[] = [];
      for (const [name, page] of named) {
        for (const v of await axe(page))
          report.push(`${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
      return report;
    },
    /** On a failure: the GM's log, every page's map note, and what every page showed (apps/web/artifacts/fail-N.png). */
    async failShots() {
      const gm = pages.filter((p) => /\/gm\//.test(p.url())).at(-1);
      const log = await gm
        ?.evaluate(() =>
          window.__frayLive
            ?.getSnapshot()
            .log.map(
              (e) =>
                `${e.seq} ${String(JSON.stringify(e.command ?? null)).slice(0, 160)} → ${e.events.map((x) => (x as { type: string }).type).join(',')}`,
            ),
        )
        .catch(() => []);
      console.error(`log:\n${(log ?? []).join('\n')}`);
      for (const p of pages)
        console.error(
          `${p.url()}: ${await p
            .locator('[data-testid="map-note"]')
            .first()
            .textContent({ timeout: 500 })
            .catch(() => '-')}`,
        );
      mkdirSync(ARTIFACTS, { recursive: true });
      for (const [i, p] of pages.entries())
        await p.screenshot({ path: join(ARTIFACTS, `fail-${i}.png`), fullPage: true }).catch(() => undefined);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await chrome.close();
      await srv.close();
    },
  };
}

/** Runs `body`; on a failure shows what the pages showed first. */
export async function withFailShots(s: MapSession, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    await s.failShots();
    throw e;
  }
}
