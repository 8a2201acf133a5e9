import { tableEnv } from './table-env.js';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { inviteLink } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { http } from './server.js';

/** Issue 32, "Invites that survive", and GM rolls secret by default. */
describe('invites that survive', () => {
  const env = tableEnv();
  const open = env.open.bind(env);

  async function asGm(token: string, encounterId: string): Promise<Page> {
    const gm = await open();
    await gm.goto(`${env.srv.url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${env.srv.url}/gm/e/${encounterId}`);
    return gm;
  }

  it('"a re-shown invite works and the old one fails"; revoking ends a page; GM rolls are secret by default', async () => {
    const { token } = await http<{ token: string }>(env.srv.url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(env.srv.url, 'POST', '/encounters', { name: 'Invites', ruleset: 'legends', seed: 9 }, token);
    await http(
      env.srv.url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { id: 'aria', name: 'Aria', side: 'heroes', stats: { DEX: 10, SPD: 10, STR: 10 } },
      token,
    );
    const first = await asGm(token, enc.id);
    const oldLink = await inviteLink(first, 'player', ['Aria']);
    const player = await open({ width: 390, height: 844 });
    await player.goto(oldLink);
    await player.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();

    // another browser: the GM sees the invite and shows its link again
    const second = await asGm(token, enc.id);
    const item = second.getByTestId('invite-player').first();
    await item.getByText('The link was shown in another browser').waitFor();
    await item.getByRole('button', { name: /^Show link again: Player: Aria/ }).click();
    const newLink = await second.getByTestId('invite-player').getByTestId('invite-link').inputValue();
    expect(newLink).not.toBe(oldLink);
    await second
      .getByTestId('invite-player')
      .getByRole('button', { name: 'QR code' })
      .or(second.getByTestId('invite-player').getByText('QR code'))
      .first()
      .click();
    await second.getByRole('img', { name: /QR code of the Player: Aria invite link/ }).waitFor();

    // the old link stops working (the open page is told), the new one works, for the same player
    await player.getByTestId('join-error').waitFor({ timeout: 15_000 });
    await expect(player.getByTestId('join-error').textContent()).resolves.toMatch(/not valid/);
    const again = await open({ width: 390, height: 844 });
    await again.goto(newLink);
    await again.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await again.getByRole('article', { name: 'Aria' }).waitFor();
    const stale = await open();
    await stale.goto(oldLink);
    await stale.getByTestId('join-error').waitFor();

    // a GM roll with the defaults is secret: the player never sees it
    const roll = second.getByRole('form', { name: 'Roll dice' });
    expect(await roll.getByLabel(/Secret roll/).isChecked()).toBe(true);
    await roll.getByLabel('For', { exact: true }).fill('ambush perception');
    await roll.getByRole('button', { name: 'Roll' }).click();
    await second.getByText('Rolled 1d20.').waitFor();
    await settle([again], second);
    await expect(again.locator('body').textContent()).resolves.not.toContain('ambush perception');
    expect((await liveState(second)).state!.rolls.at(-1)).toMatchObject({ purpose: 'ambush perception', gmOnly: true });

    // revoke: the page on it ends with a readable error
    second.on('dialog', (d) => void d.accept());
    await second.getByRole('button', { name: 'Revoke the Player: Aria invite' }).click();
    await again.getByTestId('join-error').waitFor({ timeout: 15_000 });
    await second.getByText('2 revoked or replaced invites.').waitFor();
  });
});
