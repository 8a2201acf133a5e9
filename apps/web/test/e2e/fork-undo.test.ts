import { describe, expect, it } from 'vitest';
import { shot } from './browser.js';
import { swordStats } from './helpers.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';

const DESKTOP_800 = { width: 1280, height: 800 };

/**
 * docs/timeline.md, "Fork" and "Rewind": a fork starts at the original's moment with no command of
 * its own, so there is nothing to undo there (the server refuses a rewind before the first
 * snapshot): the console offers Undo only once a command of the fork can be undone. The replay's
 * log tells where the GM undid, as the console's does.
 */
describe('undo in a fork', () => {
  const env = tableEnv();

  it('offers no Undo at the fork’s first moment; after a command Undo goes back to that moment; the replay’s log shows the undo', async () => {
    const url = env.srv.url;
    // a chosen seed: no committed dice, so opening the fork sends nothing (docs/dice.md)
    const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Bridge fight', ruleset: 'action-points', seed: 7 }, token);
    for (const [name, side, x] of [
      ['Aria', 'heroes', 0],
      ['Brute', 'foes', 1],
    ] as const)
      await http(url, 'POST', `/encounters/${enc.id}/combatants`, { name, side, stats: swordStats, position: { x, y: 0 } }, token);
    const { version } = await http<{ version: number }>(url, 'GET', `/encounters/${enc.id}`, undefined, token);
    expect(version).toBeGreaterThan(1);
    const fork = await http<{ id: string; version: number }>(
      url,
      'POST',
      `/encounters/${enc.id}/fork`,
      { version, name: 'Side path' },
      token,
    );
    expect(fork.version).toBe(version);

    const gm = await env.open(DESKTOP_800);
    await gm.goto(`${url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${url}/gm/e/${fork.id}`);
    await gm.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await gm.getByTestId('watch-replay').waitFor();
    // the fork's first moment: nothing of its own to undo
    expect(await gm.getByTestId('undo').count()).toBe(0);

    const sent = await gm.evaluate(() => window.__frayLive!.send({ type: 'dice.roll', formula: '1d6', purpose: 'a look around' }));
    expect(sent.ok).toBe(true);
    await gm.getByTestId('undo').click();
    await gm.getByTestId('undo-confirm').waitFor();
    await shot(gm, 'fork-undo-confirm-1280');
    await gm.getByTestId('undo-yes').click();
    await gm.getByText(/Undone: .*a look around/).waitFor();
    await gm.waitForFunction((v) => window.__frayLive!.getSnapshot().version === v, version);
    // back at the fork's first moment: Undo is gone again, nothing was refused
    expect(await gm.getByTestId('undo').count()).toBe(0);
    expect(await gm.locator('[role="alert"]').count()).toBe(0);

    // the game goes on; its replay's log says where the GM undid (GET /encounters/:id/log's rewinds)
    expect((await gm.evaluate(() => window.__frayLive!.send({ type: 'dice.roll', formula: '1d8', purpose: 'again' }))).ok).toBe(true);
    await gm.getByTestId('watch-replay').click();
    await gm.waitForURL(`${url}/gm/e/${fork.id}/replay`);
    await gm.getByRole('button', { name: 'Last version' }).click();
    await gm
      .getByTestId('rewind-line')
      .filter({ hasText: /^The GM undid the last action/ })
      .waitFor();
    await shot(gm, 'fork-replay-rewind-1280');
  }, 90_000);
});
