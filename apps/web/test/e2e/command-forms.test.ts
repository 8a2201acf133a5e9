import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ARTIFACTS, launch, newPage, type Chrome } from './browser.js';
import { addCombatant, chooseSide, createEncounter, signUp } from './gm-flow.js';
import { liveState, waitForVersion } from './helpers.js';
import { startServer, type TestServer } from './server.js';
import type { Combatant } from '../../src/lib/types.js';

/**
 * The GM's forms without JSON or ids, in a real Chromium: a power's row error on the row's own
 * input and its alternate effects ticked by the other powers' names; a combatant placed by the
 * command form's square fields (the server holds the position); the expert JSON fallback asks
 * before sending and shows the server's refusal beside it; the card says attack bonuses in words.
 */
const LAPTOP = { width: 1280, height: 800 };
const PHONE_390 = { width: 390, height: 844 };

describe('GM command and stat forms in the game’s words', () => {
  let srv: TestServer;
  let chrome: Chrome;
  const contexts: BrowserContext[] = [];
  let gm: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer(), launch()]);
    const opened = await newPage(chrome.browser, LAPTOP);
    contexts.push(opened.context);
    gm = opened.page;
    errors = opened.errors;
    await signUp(gm, srv.url);
    await createEncounter(gm, 'Command forms', 'action-round', 11);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });

  const combatant = async (name: string): Promise<Combatant> => {
    const c = Object.values((await liveState(gm)).state!.combatants).find((x) => x.name === name);
    if (!c) throw new Error(`no ${name}`);
    return c;
  };
  /** The part of the page at 1280 × 800 and on a 390 × 844 phone, into apps/web/artifacts/. */
  const shots = async (what: Locator, name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const [vp, suffix] of [
      [LAPTOP, 'desktop'],
      [PHONE_390, 'phone'],
    ] as const) {
      await gm.setViewportSize(vp);
      await what.scrollIntoViewIfNeeded();
      await what.screenshot({ path: join(ARTIFACTS, `${name}-${suffix}.png`) });
    }
    await gm.setViewportSize(LAPTOP);
  };
  const commandForm = () => gm.getByRole('form', { name: 'GM command' });

  it("a power's error is on its own row's input; its alternate effects are the other powers, ticked by name", async () => {
    const form = gm.getByRole('form', { name: 'Add a combatant' });
    await form.getByLabel('Name *').fill('Aria');
    await chooseSide(form, 'heroes');
    await form.locator('[id="add-stat-attack.close"]').fill('6');
    await form.locator('[id="add-stat-attack.ranged"]').fill('4');
    const powers = form.getByTestId('rows-powers');
    await form.getByRole('button', { name: 'Add to Powers' }).click();
    await form.getByRole('button', { name: 'Add to Powers' }).click();
    await powers.getByLabel('Name (1)').fill('Fire Blast');
    await powers.getByLabel('Rank (1)').fill('6');
    await powers.getByLabel('Name (2)').fill('Ice Wall');
    await powers.getByLabel('Rank (2)').fill('99');
    // the second power's alternates offer the first by its name (and nothing typed)
    const alternates = powers.locator('[id="add-stat-powers-1-alternates"]');
    await alternates.getByLabel('Fire Blast').check();
    const before = (await liveState(gm)).version;
    await form.getByRole('button', { name: 'Add combatant' }).click();
    const rank2 = powers.locator('[id="add-stat-powers-1-rank"]');
    await expect.poll(() => rank2.getAttribute('aria-invalid')).toBe('true');
    await expect(powers.locator('[id="add-stat-powers-1-rank-err"]').textContent()).resolves.toBe('✕ Rank (2) must be at most 40');
    expect(await powers.locator('[id="add-stat-powers-0-rank"]').getAttribute('aria-invalid')).toBeNull();
    expect((await liveState(gm)).version).toBe(before);
    await shots(powers, 'command-forms-power-row-error');
    await rank2.fill('5');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() => Object.values(window.__frayLive?.getSnapshot().state?.combatants ?? {}).some((c) => c.name === 'Aria'));
    expect((await combatant('Aria')).stats).toMatchObject({
      attack: { close: 6, ranged: 4 },
      powers: [
        { name: 'Fire Blast', rank: 6, alternates: [] },
        { name: 'Ice Wall', rank: 5, alternates: ['Fire Blast'] },
      ],
    });
    // the card: the attack bonuses in the game's words
    const card = gm.getByTestId(`combatant-${(await combatant('Aria')).id}`);
    await card
      .getByText('Stats', { exact: false })
      .first()
      .click()
      .catch(() => undefined);
    await expect.poll(() => card.locator('dd', { hasText: 'close +6, ranged +4' }).count()).toBe(1);
  });

  it('Place combatant: picked by name, its square by column and row; the server holds the position', async () => {
    await addCombatant(gm, { name: 'Goblin', side: 'foes', stats: {} });
    const goblin = await combatant('Goblin');
    const form = commandForm();
    await form.getByLabel('Command').selectOption('combatant.place');
    expect(await form.locator('textarea').count()).toBe(0);
    await form.getByLabel('Combatant *').selectOption({ label: 'Goblin (foes)' });
    await form.getByLabel('Column (x) *').fill('3');
    await form.getByLabel('Row (y) *').fill('4');
    await shots(form, 'command-forms-place');
    await form.getByRole('button', { name: 'Send: Place a combatant' }).click();
    await expect.poll(async () => (await combatant('Goblin')).position).toEqual({ x: 3, y: 4 });
    expect(goblin.id).toBeTruthy();
  });

  it('the expert JSON fallback asks before sending, sends nothing on Cancel, and shows the server’s refusal beside it', async () => {
    const form = commandForm();
    await form.getByLabel('Command').selectOption('combatant.place');
    const goblin = await combatant('Goblin');
    await form.getByLabel('Combatant *').selectOption({ label: 'Goblin (foes)' });
    await form.getByLabel('Column (x) *').fill('7');
    const raw = form.getByTestId('raw-json');
    await raw.locator('summary').click();
    const box = raw.getByLabel('Place a combatant: fields (JSON)');
    // prefilled from the form: what the form would send
    expect(JSON.parse(await box.inputValue())).toEqual({ combatantId: goblin.id, position: { x: 7 } });
    await box.fill('{"combatantId": "nobody", "position": {"x": 1, "y": 1}}');
    const before = (await liveState(gm)).version;
    await raw.getByRole('button', { name: 'Send as JSON…' }).click();
    const confirm = raw.getByRole('alertdialog', { name: 'Send this JSON?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.count()).toBe(0);
    expect((await liveState(gm)).version).toBe(before);
    await raw.getByRole('button', { name: 'Send as JSON…' }).click();
    await shots(raw, 'command-forms-json-confirm');
    await confirm.getByRole('button', { name: 'Yes, send it' }).click();
    const refusal = raw.getByTestId('raw-json-refusal');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/nobody/);
    await expect(refusal.textContent()).resolves.toMatch(/\(NOT_FOUND\)|\(INVALID_COMMAND\)|\([A-Z_]+\)/);
    expect((await liveState(gm)).version).toBe(before);
    await shots(raw, 'command-forms-json-refusal');
    // a good one goes through once confirmed
    await box.fill(JSON.stringify({ combatantId: goblin.id, position: { x: 5, y: 2 } }));
    await raw.getByRole('button', { name: 'Send as JSON…' }).click();
    await confirm.getByRole('button', { name: 'Yes, send it' }).click();
    await waitForVersion(gm, before + 1);
    expect((await combatant('Goblin')).position).toEqual({ x: 5, y: 2 });
    await raw.getByText('✓ Place a combatant: done.').waitFor();
    expect(errors).toEqual([]);
  });

  it("an action whose command takes an object (action-round's Stance) asks its parts by choices and numbers; the server holds them", async () => {
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    const acting = (await liveState(gm)).state!.clock.current!;
    await gm
      .getByRole('button', { name: /^Stance/ })
      .first()
      .click();
    const form = gm.getByRole('form', { name: 'Stance: choose' });
    expect(await form.locator('input[type="text"], textarea').count()).toBe(0);
    await form.getByLabel(/^Disadvantage · On/).selectOption({ label: 'Defense' });
    await form.getByLabel(/^Disadvantage · How much/).fill('2');
    await form.getByLabel(/^Advantage · On/).selectOption({ label: 'Attacks' });
    // a number out of the game's range is refused on its own field, nothing sent
    await form.getByLabel(/^Advantage · How much/).fill('9');
    const before = (await liveState(gm)).version;
    await form.getByRole('button', { name: /^Do it/ }).click();
    await form.getByText(/How much \(the same\) must be at most 5/).waitFor();
    expect((await liveState(gm)).version).toBe(before);
    await form.getByLabel(/^Advantage · How much/).fill('2');
    await shots(form, 'command-forms-stance');
    await form.getByRole('button', { name: /^Do it/ }).click();
    await expect
      .poll(async () => (await liveState(gm)).state!.combatants[acting]!.data)
      .toMatchObject({ stance: { penalty: { on: 'defense', n: 2 }, bonus: { on: 'attack', n: 2 } } });
    expect(errors).toEqual([]);
  });
});
