import type { Page } from 'playwright-core';
import type { EncounterState } from '../../src/lib/types.js';

/** The page's live state (what it renders from), read through the page's connection object. */
export async function liveState(
  page: Page,
): Promise<{ version: number; status: string; state: EncounterState | null; playerId: string | null }> {
  return page.evaluate(() => {
    const s = window.__frayLive?.getSnapshot();
    return { version: s?.version ?? -1, status: s?.status ?? 'none', state: (s?.state ?? null) as never, playerId: s?.playerId ?? null };
  });
}

export async function waitForVersion(page: Page, atLeast: number): Promise<void> {
  await page.waitForFunction((v) => (window.__frayLive?.getSnapshot().version ?? -1) >= v, atLeast);
}

/** Until every page shows the same version (patches reached everyone). */
export async function settle(pages: Page[], gm: Page): Promise<number> {
  const v = (await liveState(gm)).version;
  for (const p of pages) await waitForVersion(p, v);
  return v;
}
