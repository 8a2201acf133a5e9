import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (`npx playwright install` cannot run here):
 * headless, no sandbox, no background traffic. `chromium.launch` gives every launch a fresh
 * temporary user data dir of its own (it refuses a `--user-data-dir` argument) and deletes it on close.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = resolve(import.meta.dirname, '../../artifacts');
/**
 * Where the screens kept for the docs go: docs/screens/ (tracked, linked from docs/web.md) only
 * with `FRAY_SCREENS=1` (`FRAY_SCREENS=1 npm test -w @fray/web` refreshes them), so that an
 * ordinary test run leaves the working tree as it was; otherwise apps/web/artifacts/screens/
 * (gitignored).
 */
export const SCREENS =
  process.env.FRAY_SCREENS === '1' ? resolve(import.meta.dirname, '../../../../docs/screens') : join(ARTIFACTS, 'screens');

export interface Chrome {
  browser: Browser;
  close(): Promise<void>;
}

export async function launch(): Promise<Chrome> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 740 };

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(10_000);
  return { context, page, errors };
}

/** A full-page screenshot into apps/web/artifacts/ (gitignored), e.g. `gm-console-desktop.png`. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  // tall pages also in parts, readable at full size
  const { w, h, vw, wide } = await page.evaluate(() => {
    const vw = window.innerWidth;
    // elements wider than the screen (the page hides horizontal overflow, so look for it)
    const wide = [...document.querySelectorAll('body *')]
      // (the drawing inside an <svg> is clipped by it: the svg itself is checked)
      .filter(
        (el) =>
          el.getBoundingClientRect().right > vw + 1 &&
          !el.closest('.table-wrap, .sr-only, .log') &&
          !(el as Element & { ownerSVGElement?: unknown }).ownerSVGElement,
      )
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)} (${Math.round(el.getBoundingClientRect().right)}px)`);
    return { w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight, vw, wide };
  });
  if (vw < 500 && wide.length > 0) throw new Error(`${name}: wider than the ${vw}-px screen: ${wide.join(', ')}`);
  const part = 1600;
  if (h > part * 1.25) {
    for (let y = 0, n = 1; y < h && n <= 6; y += part, n++) {
      await page.screenshot({
        path: join(ARTIFACTS, `${name}.part${n}.png`),
        fullPage: true,
        clip: { x: 0, y, width: w, height: Math.min(part, h - y) },
      });
    }
  }
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core's WCAG 2 A/AA checks on the page as it is now; returns the serious and critical
 * violations (each with the elements it found).
 */
export async function axe(page: Page): Promise<AxeViolation[]> {
  const { createRequire } = await import('node:module');
  const path = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  await page.addScriptTag({ path });
  const violations = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } };
    const r = await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
