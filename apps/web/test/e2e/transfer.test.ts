import { tableEnv } from './table-env.js';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { axe, DESKTOP, newPage, PHONE, shot } from './browser.js';
import { addCombatant, createEncounter, signUp } from './gm-flow.js';

/**
 * Issue 34 in Chromium: "Export one encounter … as a versioned JSON file from the GM console (a
 * button)", and the file imported from the encounter list of another GM, at phone and desktop size.
 */
describe('moving an encounter in the browser', () => {
  const env = tableEnv();
  const { contexts } = env;

  it('the GM exports an encounter from the console, and another GM imports the file from the list', async () => {
    const a = await newPage(env.chrome.browser, DESKTOP);
    contexts.push(a.context);
    await signUp(a.page, env.srv.url);
    await createEncounter(a.page, 'Bridge at dusk', 'legends', 5);
    await addCombatant(a.page, { name: 'Ayla', side: 'heroes', stats: { DEX: 12, SPD: 10, STR: 9 } });
    await a.page.getByRole('heading', { name: 'Move this encounter' }).scrollIntoViewIfNeeded();
    await shot(a.page, 'export-console-desktop');
    const [download] = await Promise.all([
      a.page.waitForEvent('download'),
      a.page.getByRole('button', { name: 'Export encounter' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Bridge-at-dusk.fray-encounter.json');
    const path = await download.path();
    const file = JSON.parse(await readFile(path, 'utf8')) as { format: string; encounter: { name: string }; log: unknown[] };
    expect(file).toMatchObject({ format: 'fray-encounter', encounter: { name: 'Bridge at dusk' } });
    expect(file.log).toHaveLength(1);
    expect(a.errors).toEqual([]);

    const b = await newPage(env.chrome.browser, PHONE);
    contexts.push(b.context);
    await signUp(b.page, env.srv.url);
    await b.page.getByLabel('Import an encounter or account file').setInputFiles(path);
    await b.page.getByRole('status').filter({ hasText: 'Imported Bridge at dusk.' }).waitFor();
    await b.page.getByTestId('encounter-row').filter({ hasText: 'Bridge at dusk' }).waitFor();
    await shot(b.page, 'import-list-phone');
    expect(await axe(b.page)).toEqual([]);
    // a file that is not an export says so
    await b.page
      .getByLabel('Import an encounter or account file')
      .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":') });
    await b.page.getByRole('status').filter({ hasText: 'not a Fray export' }).waitFor();
    expect(b.errors).toEqual([]);
  });
});
