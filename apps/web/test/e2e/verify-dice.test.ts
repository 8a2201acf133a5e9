import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FrayClient } from '@fray/client';
import { shot } from './browser.js';
import { liveState } from './helpers.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';

/**
 * docs/dice.md, "Verify": "a 'Verify the dice' button in the web app (GM and players; shows per
 * roll: verified / GM override (with its reason) / forced roll / could not check, in plain words)".
 * A fight with committed dice (a secret roll, a forced one, an override with its reason, a
 * player's roll), combat ends, and the player on a phone and the GM on a desktop check the dice.
 */
describe('"Verify the dice" in the browser', () => {
  const env = tableEnv();

  const diceOf = async (page: Page) => (await liveState(page)).state?.dice ?? null;

  it('before the end: the commitment and when the dice become checkable; after it: every roll the player saw checks out', async () => {
    const url = env.srv.url;
    const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Fair dice', ruleset: 'legends' }, token);
    await http(
      url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { id: 'aria', name: 'Aria', side: 'heroes', stats: { DEX: 12, SPD: 10, STR: 11 } },
      token,
    );
    await http(
      url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { id: 'orc', name: 'Orc', side: 'monsters', stats: { DEX: 9, SPD: 10, STR: 12 } },
      token,
    );
    const invite = await http<{ token: string }>(
      url,
      'POST',
      `/encounters/${enc.id}/invites`,
      { role: 'player', combatantIds: ['aria'] },
      token,
    );
    const gmClient = await FrayClient.connect(url, token);
    const gm = await gmClient.join(enc.id);
    const cmd = async (c: Record<string, unknown>) => {
      const ack = await gm.command({ type: String(c.type), ...c });
      if (!ack.ok) throw new Error(`${String(c.type)}: ${ack.error.code} ${ack.error.message}`);
      return ack;
    };

    const player = await env.open({ width: 390, height: 844 });
    await player.goto(`${url}/play/${enc.id}#${invite.token}`);
    await player.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    // both clients contribute by themselves before combat starts
    await player.waitForFunction(() => (window.__frayLive?.getSnapshot().state?.dice?.contributions.length ?? 0) >= 2);
    const commitment = (await diceOf(player))!.commitment;
    const section = player.locator('#verify-dice');
    await section.scrollIntoViewIfNeeded();
    await section.getByText(commitment).waitFor();
    await section.getByTestId('dice-not-yet').filter({ hasText: 'The dice will be checkable when combat ends' }).waitFor();
    expect(await section.getByRole('button', { name: 'Verify the dice' }).count()).toBe(0);
    await shot(player, 'verify-dice-before-phone');

    // the fight: rolls in the open, a secret one, a forced one, an override with its reason, the player's own
    await cmd({ type: 'combat.start' });
    await cmd({ type: 'dice.roll', formula: '1d20+2', purpose: 'Orc attack', secret: false });
    await cmd({ type: 'dice.roll', formula: '2d6', purpose: 'Ambush', secret: true });
    await cmd({ type: 'dice.force', formula: '1d20', total: 20 });
    await cmd({ type: 'dice.roll', formula: '1d20', purpose: 'Orc rallies', secret: false });
    const dmg = await cmd({ type: 'dice.roll', formula: '1d8', purpose: 'Orc damage', secret: false });
    const rolled = (dmg.ok ? dmg.events : []).find((e) => (e as { type?: string }).type === 'dice.rolled') as
      { rollId?: string } | undefined;
    const rollId = String(rolled?.rollId);
    await cmd({ type: 'dice.override', rollId, total: 1, reason: 'Aria’s shield' });
    const mine = await player.evaluate(() => window.__frayLive!.send({ type: 'dice.roll', formula: '1d20', purpose: 'Aria dodges' }));
    expect(mine.ok).toBe(true);
    await cmd({ type: 'combat.end' });
    await player.waitForFunction(() => window.__frayLive?.getSnapshot().state?.dice?.revealed != null);

    // the player presses the button: the log it holds, checked in its browser
    const seen = await player.evaluate(
      async () =>
        ((await window.__frayLive!.fetchLog()) ?? [])
          .flatMap((e) => e.events)
          .filter((e) => (e as { type?: string }).type === 'dice.rolled').length,
    );
    await section.getByRole('button', { name: 'Verify the dice' }).click();
    const summary = section.getByTestId('dice-summary');
    await summary.waitFor();
    const text = await summary.innerText();
    expect(text).toMatch(
      new RegExp(`^✓ All ${seen} rolls check out\\. Of these: 1 GM override \\(shown with the reason\\), 1 roll forced by the GM\\.`),
    );
    expect(text).toMatch(/\d+ draws? of the dice went to rolls you could not see/);
    expect(await section.getByText('Ambush').count()).toBe(0);
    const override = section.locator('li[data-status="override"]').first();
    await expect.poll(() => override.innerText()).toMatch(/GM override.*Orc damage.*changed the total to 1\. Reason: Aria’s shield/s);
    await expect
      .poll(() => section.locator('li[data-status="forced"]').first().innerText())
      .toMatch(/forced.*Orc rallies.*Forced roll: the GM set this result in advance/s);
    await section.getByText('Every roll').click();
    await expect.poll(() => section.locator('details li[data-status="verified"]').count()).toBe(seen - 2);
    await section.scrollIntoViewIfNeeded();
    await shot(player, 'verify-dice-after-phone');

    // the GM on a desktop: its whole log, no gaps
    const desk = await env.open({ width: 1280, height: 800 });
    await desk.goto(`${url}/`);
    await desk.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await desk.goto(`${url}/gm/e/${enc.id}`);
    const gmSection = desk.locator('#verify-dice');
    await gmSection.getByRole('button', { name: 'Verify the dice' }).click();
    await expect.poll(() => gmSection.getByTestId('dice-summary').innerText()).toMatch(new RegExp(`^✓ All ${seen + 1} rolls check out\\.`));
    expect(await gmSection.getByTestId('dice-summary').innerText()).not.toMatch(/could not see/);
    await gmSection.scrollIntoViewIfNeeded();
    await shot(desk, 'verify-dice-after-desktop');
    gmClient.close();
  });
});
