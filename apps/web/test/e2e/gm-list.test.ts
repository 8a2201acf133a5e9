import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, shot } from './browser.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';
import { swordStats } from './helpers.js';

const PHONE_390 = { width: 390, height: 844 };
const DESKTOP_800 = { width: 1280, height: 800 };

/** A screenshot (browser.ts `shot`), also copied to FRAY_SHOTS_DIR when set (for a reviewer). */
async function keep(page: Page, name: string): Promise<void> {
  const path = await shot(page, name);
  const dir = process.env.FRAY_SHOTS_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(path, join(dir, basename(path)));
  }
}

/** The GM signed in through the account token (the app trades it for a session), on `path`. */
async function signIn(page: Page, url: string, token: string, path: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
  await page.goto(`${url}${path}`);
}

/** Each card's labels on a phone: the text before the value, as drawn, and whether it fits its cell. */
async function cardLabels(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('tr[data-testid="encounter-row"]:first-child td[data-label]')].map((td) => {
      const before = getComputedStyle(td, '::before');
      const label = before.content.replace(/^"|"$/g, '');
      // the label's box: the cell's first line, from its left edge to where its content starts
      const cell = td.getBoundingClientRect();
      const first = td.firstElementChild ?? td.firstChild;
      const range = document.createRange();
      if (first) range.selectNode(first);
      const valueLeft = first ? range.getBoundingClientRect().left : cell.right;
      const probe = document.createElement('span');
      probe.textContent = label;
      probe.style.cssText = `font:${before.font};position:absolute;visibility:hidden;white-space:nowrap`;
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return { label, cellLeft: cell.left, room: valueLeft - cell.left, needed };
    }),
  );
}

/** docs/web.md, "The GM's encounters": delete (with a confirm naming it), replay, and the list on a phone. */
describe("the GM's encounter list", () => {
  const env = tableEnv();

  it('deletes an encounter after a confirm that names it: its player’s page says the GM deleted it; Replay opens the replay', async () => {
    const url = env.srv.url;
    const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Goblin ambush', ruleset: 'action-points' }, token);
    const a = await http<{ id: string }>(
      url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { name: 'Aria', side: 'heroes', stats: swordStats, position: { x: 0, y: 0 } },
      token,
    );
    const inv = await http<{ token: string }>(
      url,
      'POST',
      `/encounters/${enc.id}/invites`,
      { role: 'player', combatantIds: [a.id] },
      token,
    );
    const other = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Quiet crypt', ruleset: 'action-points' }, token);

    const player = await env.open(PHONE_390);
    await player.goto(`${url}/play/${enc.id}#${inv.token}`);
    await player.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();

    const gm = await env.open(DESKTOP_800);
    await signIn(gm, url, token, '/gm');
    const rows = gm.getByTestId('encounter-row');
    await rows.filter({ hasText: 'Goblin ambush' }).waitFor();
    expect(await rows.count()).toBe(2);
    await keep(gm, 'gm-list-1280');
    expect(await axe(gm)).toEqual([]);

    // the phone's cards: every label whole, beside its value
    await gm.setViewportSize(PHONE_390);
    for (const l of await cardLabels(gm)) {
      expect(l.label).toMatch(/^(Name|Ruleset|Status|Round|Last activity): $/);
      expect(l.cellLeft).toBeGreaterThanOrEqual(0);
      expect(l.room + 0.5).toBeGreaterThanOrEqual(l.needed);
    }
    await keep(gm, 'gm-list-390');
    // renaming on the phone: the card keeps its labels whole (the field fits; nothing scrolls sideways)
    await rows
      .first()
      .getByRole('button', { name: /^Rename/ })
      .click();
    await rows.first().getByRole('textbox').waitFor();
    const wrap = await gm.evaluate(() => {
      const w = document.querySelector('.table-wrap')!;
      return { scrollLeft: w.scrollLeft, scrollWidth: w.scrollWidth, clientWidth: w.clientWidth };
    });
    expect(wrap.scrollLeft).toBe(0);
    expect(wrap.scrollWidth).toBeLessThanOrEqual(wrap.clientWidth);
    for (const l of await cardLabels(gm)) {
      expect(l.cellLeft).toBeGreaterThanOrEqual(0);
      expect(l.room + 0.5).toBeGreaterThanOrEqual(l.needed);
    }
    await keep(gm, 'gm-list-rename-390');
    await rows.first().getByRole('button', { name: 'Cancel' }).click();

    // Replay: the encounter's replay, from the list
    await rows.filter({ hasText: 'Goblin ambush' }).getByTestId('replay-link').click();
    await gm.waitForURL(`${url}/gm/e/${enc.id}/replay`);
    await gm.getByTestId('replay-version').waitFor();
    await gm.goBack();

    // Delete: the confirm names it and says what follows; Keep it changes nothing
    const row = rows.filter({ hasText: 'Goblin ambush' });
    await row.getByTestId('delete').click();
    const confirm = gm.getByTestId('delete-confirm');
    expect(await confirm.innerText()).toContain("Delete 'Goblin ambush'? Players are disconnected; this cannot be undone.");
    await keep(gm, 'gm-list-delete-confirm-390');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect(await confirm.count()).toBe(0);
    await gm.setViewportSize(DESKTOP_800);
    await row.getByTestId('delete').click();
    await keep(gm, 'gm-list-delete-confirm-1280');
    await confirm.getByTestId('delete-yes').click();
    await rows.filter({ hasText: 'Goblin ambush' }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('Quiet crypt');

    // the player's page, at once: the GM deleted the encounter
    await player.getByRole('heading', { name: 'Encounter deleted' }).waitFor();
    expect(await player.getByTestId('join-error').innerText()).toContain('The GM deleted this encounter');
    await keep(player, 'player-deleted-390');
    // the invite link opened again: the same words (refused at connect)
    await player.reload();
    await player.getByRole('heading', { name: 'Encounter deleted' }).waitFor();
    expect(await player.getByTestId('join-error').innerText()).toContain('ENCOUNTER_DELETED');
    // the other encounter is untouched
    expect((await http<{ name: string }>(url, 'GET', `/encounters/${other.id}`, undefined, token)).name).toBe('Quiet crypt');
  }, 90_000);
});
