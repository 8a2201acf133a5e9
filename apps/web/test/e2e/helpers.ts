import type { Page } from 'playwright-core';
import type { EncounterState } from '../../src/lib/types.js';
import { http } from './server.js';

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

/** An action-points fighter's stats: 12 HP and a sword. */
export const swordStats = { hp: 12, weapons: [{ id: 'sword', name: 'Sword', category: 'one-handed', damage: '1d8' }] };

/**
 * A GM's account and an action-points encounter with Aria (heroes, at 0,0) and the Brute (foes, at `bruteAt`),
 * both with a sword: the fight the timeline tests (undo, replay) play.
 */
export async function actionPointsDuel(
  url: string,
  bruteAt: { x: number; y: number },
): Promise<{ token: string; enc: { id: string }; a: { id: string } }> {
  const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
  const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Bridge fight', ruleset: 'action-points' }, token);
  const a = await http<{ id: string }>(
    url,
    'POST',
    `/encounters/${enc.id}/combatants`,
    { name: 'Aria', side: 'heroes', stats: swordStats, position: { x: 0, y: 0 } },
    token,
  );
  await http(url, 'POST', `/encounters/${enc.id}/combatants`, { name: 'Brute', side: 'foes', stats: swordStats, position: bruteAt }, token);
  return { token, enc, a };
}
