import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, shot } from './browser.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';
import { actionPointsDuel, swordStats } from './helpers.js';

const PHONE_390 = { width: 390, height: 844 };
const DESKTOP_800 = { width: 1280, height: 800 };

/** The version the replay shows ("Version 3 of 9" → [3, 9]). */
async function where(p: Page): Promise<[number, number]> {
  const m = /Version (\d+) of (\d+)/.exec(await p.getByTestId('replay-version').innerText());
  return [Number(m![1]), Number(m![2])];
}
const at = (p: Page, v: number) =>
  p
    .getByTestId('replay-version')
    .filter({ hasText: new RegExp(`Version ${v} of`) })
    .waitFor();

/**
 * Issue 36, "Replay": a saved encounter watched from its first version to its last in the web app
 * (play, pause, step, scrub, at any speed), as the GM or as a chosen player saw it, with the
 * game-words log beside it; a read-only replay link the GM shares and revokes (docs/web.md).
 */
describe('replay in the web app', () => {
  const env = tableEnv();

  it('opens from the console; steps, scrubs and plays; switches viewer; a shared link shows the spectator’s replay until revoked', async () => {
    const url = env.srv.url;
    const { token, enc, a } = await actionPointsDuel(url, { x: 2, y: 0 });
    await http(
      url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { name: 'Shade', side: 'foes', hidden: true, stats: swordStats, position: { x: 3, y: 3 } },
      token,
    );
    await http(url, 'POST', `/encounters/${enc.id}/invites`, { role: 'player', combatantIds: [a.id] }, token);

    const gm = await env.open(DESKTOP_800);
    await gm.goto(`${url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${url}/gm/e/${enc.id}`);
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    await gm.evaluate(async () => {
      const live = window.__frayLive!;
      for (let i = 0; i < 3; i++) await live.send({ type: 'turn.end', combatantId: live.getSnapshot().state!.clock.current! });
    });
    // the GM undoes the last turn's end and ends it again: the branch left stays watchable
    const left = await gm.evaluate(async () => {
      const live = window.__frayLive!;
      const v = live.getSnapshot().version;
      await live.send({ type: 'timeline.rewind', toVersion: v - 1 });
      await live.send({ type: 'turn.end', combatantId: live.getSnapshot().state!.clock.current! });
      return v;
    });
    const top = await gm.evaluate(() => window.__frayLive!.getSnapshot().version);
    expect(top).toBe(left);

    // the console's entry point
    await gm.getByTestId('watch-replay').click();
    await at(gm, 0);
    expect(await where(gm)).toEqual([0, top]);

    // step forward and back: the log beside it marks the current version's entry
    const forward = gm.getByTestId('replay-forward');
    for (let i = 0; i < 5; i++) await forward.click();
    await at(gm, 5);
    await gm.getByTestId('replay-back').click();
    await at(gm, 4);
    expect(await gm.getByTestId('story-log').locator('li[aria-current="step"]').count()).toBeLessThanOrEqual(1);

    // scrub with the keyboard: to the end, then back to the start and three steps on
    const scrubber = gm.getByTestId('replay-scrubber');
    await scrubber.focus();
    await gm.keyboard.press('End');
    await at(gm, top);
    expect(await gm.getByText('Shade').count()).toBeGreaterThan(0); // the GM's view: the hidden one too
    await expect(gm.getByTestId('story-log').locator('li[aria-current="step"]').innerText()).resolves.toMatch(/turn|Brute|Aria|Shade/i);
    await gm.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await gm.keyboard.press('ArrowRight');
    await at(gm, 3);
    // a log entry's version goes there
    await gm.getByRole('button', { name: 'v1: go to version 1', exact: true }).click();
    await at(gm, 1);

    // the branch the undo left: the same versions, the undone end of turn in its log
    await gm.getByTestId('replay-branch').selectOption({ label: `Undone: branch 0, to version ${left}` });
    await at(gm, 1);
    await scrubber.focus();
    await gm.keyboard.press('End');
    await at(gm, left);
    await gm.getByTestId('replay-branch').selectOption({ index: 0 });
    await at(gm, top);

    // play at 8×: it runs to the last version and stops
    await gm.getByTestId('replay-speed').selectOption('8');
    await gm.getByTestId('replay-play').click();
    await gm.getByTestId('replay-play').filter({ hasText: 'Again' }).waitFor({ timeout: 20_000 });
    expect(await where(gm)).toEqual([top, top]);
    await shot(gm, 'replay-gm-1280');
    expect(await axe(gm)).toEqual([]);

    // as the player: the hidden Shade is nowhere, at any version
    await gm.getByTestId('replay-viewer').selectOption({ label: 'Player 1: Aria' });
    await gm.getByRole('heading', { name: /as player 1/ }).waitFor();
    await at(gm, top);
    expect(await gm.locator('main').innerText()).not.toContain('Shade');
    await scrubber.focus();
    await gm.keyboard.press('Home');
    await at(gm, 0);
    expect(await gm.locator('main').innerText()).not.toContain('Shade');
    await gm.setViewportSize(PHONE_390);
    await shot(gm, 'replay-player-390');
    await gm.setViewportSize(DESKTOP_800);

    // share a read-only link (a spectator's unless the GM picks otherwise)
    await gm.getByTestId('replay-link-create').click();
    const link = await gm.getByTestId('replay-link-url').inputValue();
    expect(link).toMatch(/\/replay#fray_rpl_/);
    const guest = await env.open(PHONE_390);
    await guest.goto(link);
    await guest.getByRole('heading', { name: /Replay: Bridge fight · as a spectator/ }).waitFor();
    await at(guest, 0);
    expect(await guest.getByTestId('replay-viewer').count()).toBe(0);
    expect(await guest.locator('main').innerText()).not.toContain('Shade');
    await guest.getByTestId('replay-scrubber').focus();
    await guest.keyboard.press('End');
    await at(guest, top);
    await shot(guest, 'replay-shared-390');
    expect(await axe(guest)).toEqual([]);

    // revoked: the link shows nothing any more
    await gm.getByRole('button', { name: /Revoke the link/ }).click();
    await gm.getByText('revoked').waitFor();
    await guest.reload();
    await guest.getByText(/This replay link is not valid/).waitFor();
  }, 120_000);
});
