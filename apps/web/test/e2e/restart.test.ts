import { tableEnv } from './table-env.js';
import { describe, expect, it } from 'vitest';
import { liveState, settle } from './helpers.js';
import { http } from './server.js';

/**
 * Issue 32, "Connection truth": during a planned restart (what SIGTERM runs: the server's graceful
 * stop, then a new process on the same address and database) the badge and a banner say so on
 * every page; a command clicked meanwhile shows as waiting, then as applied, once.
 */
describe('a planned restart', () => {
  const env = tableEnv();
  const open = env.open.bind(env);

  it('"the badge during a SIGTERM restart": restarting, then live; a command clicked meanwhile is pending, then applied once', async () => {
    const { token } = await http<{ token: string }>(env.srv.url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(
      env.srv.url,
      'POST',
      '/encounters',
      { name: 'Restart', ruleset: 'action-points', seed: 5 },
      token,
    );
    await http(
      env.srv.url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { id: 'hero', name: 'Hero', side: 'heroes', stats: { hp: 10 } },
      token,
    );
    await http(
      env.srv.url,
      'POST',
      `/encounters/${enc.id}/combatants`,
      { id: 'ogre', name: 'Ogre', side: 'foes', stats: { hp: 30 } },
      token,
    );
    const inv = await http<{ token: string }>(
      env.srv.url,
      'POST',
      `/encounters/${enc.id}/invites`,
      { role: 'player', combatantIds: ['hero'] },
      token,
    );
    const gm = await open();
    await gm.goto(`${env.srv.url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${env.srv.url}/gm/e/${enc.id}`);
    const player = await open({ width: 390, height: 844 });
    await player.goto(`${env.srv.url}/play/${enc.id}#${inv.token}`);
    for (const p of [gm, player]) await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();

    const stopped = env.srv.stop();
    for (const p of [gm, player]) {
      await p.getByTestId('connection').filter({ hasText: 'Server restarting' }).waitFor();
      await expect(p.getByTestId('offline-banner').textContent()).resolves.toMatch(/restarting/);
    }
    await stopped;
    // still down: the badge has not gone back to Live
    await new Promise((r) => setTimeout(r, 1500));
    for (const p of [gm, player]) await expect(p.getByTestId('connection').textContent()).resolves.not.toMatch(/Live/);

    // the GM damages the ogre while the server is down: the page says it waits
    const card = gm.getByTestId('combatant-ogre');
    await card.getByLabel('Amount of Hit points for Ogre').fill('4');
    await card.getByRole('button', { name: 'Ogre: Hit points −4 (damage)' }).click();
    await expect(gm.getByTestId('pending-commands').textContent()).resolves.toMatch(/Waiting to send: Ogre: 4 Hit points damage/);

    await env.srv.start();
    for (const p of [gm, player]) await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor({ timeout: 20_000 });
    await gm.getByTestId('settled-command').filter({ hasText: 'Applied: Ogre: 4 Hit points damage' }).waitFor({ timeout: 20_000 });
    await gm.getByTestId('pending-commands').waitFor({ state: 'detached' });
    await settle([player], gm);
    // applied exactly once
    expect((await liveState(gm)).state!.combatants.ogre!.data.hp).toBe(26);
    expect((await liveState(player)).state!.combatants.ogre!.data.hp).toBe(26);
    await player.getByTestId('other-ogre').getByTestId('vitals-ogre').waitFor();
  });
});
