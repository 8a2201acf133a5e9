import { copyFileSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from './browser.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';

const PHONE_390 = { width: 390, height: 844 };
const DESKTOP_800 = { width: 1280, height: 800 };
/** where the screenshots are kept for review too (FRAY_SHOTS, when set) */
const keep = async (page: Page, name: string): Promise<void> => {
  const path = await shot(page, name);
  const dir = process.env.FRAY_SHOTS;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(path, `${dir}/${name}.png`);
  }
};

/**
 * Combatants added without a place (quick add, or the full form without a position) on a zone
 * map: the console names them and says how to place them; the map's "Not placed" rows read on
 * one or two clean lines on a 390 px phone.
 */
describe('combatants not on the map yet', () => {
  const env = tableEnv();

  async function gmConsole(viewport: { width: number; height: number }): Promise<Page> {
    const url = env.srv.url;
    const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Goblin cave', ruleset: 'legends', seed: 3 }, token);
    // a long name and side: the row that used to break into narrow columns on a phone
    const stats = { DEX: 10, SPD: 10, STR: 12 };
    await http(url, 'POST', `/encounters/${enc.id}/combatants`, { name: 'Brute of the Red Hand', side: 'raiders', stats }, token);
    const gm = await env.open(viewport);
    await gm.goto(`${url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${url}/gm/e/${enc.id}`);
    await gm.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    return gm;
  }

  async function quickAdd(gm: Page, n: number): Promise<void> {
    const quick = gm.getByRole('form', { name: 'Quick add' });
    await quick.getByLabel('How many').fill(String(n));
    await quick
      .getByLabel('Stat block or combatant to copy')
      .selectOption({ label: 'Goblin — Quick, weak, cowardly; fights with a knife.' });
    await quick.getByRole('button', { name: 'Add' }).click();
  }

  for (const [label, viewport] of [
    ['phone', PHONE_390],
    ['desktop', DESKTOP_800],
  ] as const) {
    it(`${label}: after a quick add the console names who is not on the map and how to place them; each Not placed row is one or two clean lines`, async () => {
      const gm = await gmConsole(viewport);
      await quickAdd(gm, 2);
      const note = gm.getByTestId('not-on-map').first();
      await note.filter({ hasText: 'Goblin 2' }).waitFor();
      await expect(note.innerText()).resolves.toBe(
        'Not on the map yet: Brute of the Red Hand, Goblin 1, Goblin 2 — tap one under Not placed, then a zone’s “Place … here” button.',
      );

      // the rows: the name on one line, name and side together, the vitals beside or under them (two lines at most)
      const rows = gm.getByRole('region', { name: 'Not placed' }).locator('.zone-token');
      expect(await rows.count()).toBe(3);
      for (const row of await rows.all()) {
        const box = await row.evaluate((b) => {
          const r = (sel: string) => b.querySelector(sel)!.getBoundingClientRect();
          const line = parseFloat(getComputedStyle(b).lineHeight) || 20;
          return {
            line,
            name: r('.zone-token-name'),
            who: r('.zone-token-who'),
            vitals: r('.zone-token-vitals'),
            row: b.getBoundingClientRect(),
          };
        });
        expect(box.name.height).toBeLessThan(box.line * 1.5);
        expect(box.who.height).toBeLessThan(box.line * 1.5);
        // the vitals: on the same line as the name, or wholly below it
        expect(box.vitals.top >= box.who.bottom - 1 || Math.abs(box.vitals.top - box.who.top) < box.line).toBe(true);
        expect(box.row.height).toBeLessThan(box.line * 3 + 24);
      }
      await keep(gm, `not-placed-${label}`);

      // placing one: the note names only the other
      await gm
        .getByRole('region', { name: 'Not placed' })
        .getByRole('button', { name: /Goblin 1/ })
        .click();
      await gm.getByRole('button', { name: 'Place Goblin 1 here (GM)' }).first().click();
      await gm.waitForFunction(() => {
        const cs = Object.values(window.__frayLive?.getSnapshot().state?.combatants ?? {});
        return cs.some((c) => c.name === 'Goblin 1' && typeof c.position === 'object' && c.position !== null);
      });
      await expect(note.innerText()).resolves.toMatch(/^Not on the map yet: Brute of the Red Hand, Goblin 2 — /);
      await keep(gm, `not-placed-one-placed-${label}`);
    });
  }
});
