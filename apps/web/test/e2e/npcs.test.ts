import { tableEnv } from './table-env.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newPage } from './browser.js';
import { liveState } from './helpers.js';
import { http } from './server.js';

/** Issue 32, "Quick NPCs", through the GM console of a `legends` encounter. */
describe('quick NPCs', () => {
  const env = tableEnv();
  const { contexts } = env;

  it('"4 × goblin" in one step with numbered names, a duplicate, import (validated) and export as JSON; the add form folds away once combat starts', async () => {
    const { token } = await http<{ token: string }>(env.srv.url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(env.srv.url, 'POST', '/encounters', { name: 'Goblin cave', ruleset: 'legends', seed: 3 }, token);
    const { context, page: gm } = await newPage(env.chrome.browser);
    contexts.push(context);
    await gm.goto(`${env.srv.url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${env.srv.url}/gm/e/${enc.id}`);
    const names = async () =>
      Object.values((await liveState(gm)).state?.combatants ?? {})
        .map((c) => c.name)
        .sort();

    const quick = gm.getByRole('form', { name: 'Quick add' });
    await quick.getByLabel('How many').fill('4');
    await quick
      .getByLabel('Stat block or combatant to copy')
      .selectOption({ label: 'Goblin — Quick, weak, cowardly; fights with a knife.' });
    await quick.getByRole('button', { name: 'Add' }).click();
    await gm.getByText('4 × Goblin added: Goblin 1, Goblin 2, Goblin 3, Goblin 4.').waitFor();
    await gm.waitForFunction(() => Object.keys(window.__frayLive?.getSnapshot().state?.combatants ?? {}).length === 4);
    expect(await names()).toEqual(['Goblin 1', 'Goblin 2', 'Goblin 3', 'Goblin 4']);
    const goblin = Object.values((await liveState(gm)).state!.combatants)[0]!;
    expect(goblin.stats).toMatchObject({ DEX: 12, SPD: 12, STR: 8 });
    expect(goblin.items.map((i) => i.name)).toEqual(['Knife']);

    await gm.getByRole('button', { name: 'Duplicate Goblin 2' }).click();
    await gm.waitForFunction(() => Object.keys(window.__frayLive?.getSnapshot().state?.combatants ?? {}).length === 5);
    expect(await names()).toContain('Goblin 5');

    // export: the file holds every combatant as the import reads it
    const [download] = await Promise.all([
      gm.waitForEvent('download'),
      gm.getByRole('button', { name: 'Export all (party and NPCs)' }).click(),
    ]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      fray: string;
      ruleset: string;
      combatants: { name: string; stats: object }[];
    };
    expect(file).toMatchObject({ fray: 'bestiary', ruleset: 'legends' });
    expect(file.combatants.map((c) => c.name).sort()).toEqual(await names());

    // a bad file: every error names the entry and the field; nothing is added
    const bad = {
      fray: 'bestiary',
      version: 1,
      ruleset: 'legends',
      combatants: [
        { name: 'Ogre', side: 'ogres', stats: { DEX: 99, SPD: 5, STR: 20 } },
        { name: '', side: 'x', stats: {} },
      ],
    };
    await gm
      .getByTestId('import-file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
    const errors = gm.getByTestId('import-errors');
    await errors.waitFor();
    await expect(errors.textContent()).resolves.toMatch(/Entry 1 \(“Ogre”\): stats\.DEX .*40/);
    await expect(errors.textContent()).resolves.toMatch(/Entry 2: name must be a text/);
    await expect(errors.textContent()).resolves.toMatch(/Entry 2: stats\.DEX is required/);
    expect((await names()).length).toBe(5);

    // the exported file, imported back: five more, same stats
    await gm
      .getByTestId('import-file')
      .setInputFiles({ name: 'combatants.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await gm.getByText('5 combatants imported from combatants.json.').waitFor();
    await gm.waitForFunction(() => Object.keys(window.__frayLive?.getSnapshot().state?.combatants ?? {}).length === 10);

    // the full add form is open in setup, folded once combat starts
    const full = gm.getByRole('form', { name: 'Add a combatant' });
    expect(await full.isVisible()).toBe(true);
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    await full.waitFor({ state: 'hidden' });
    await quick.waitFor();
  });
});
