import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Steps a GM takes in the console, through the UI only. */

let accounts = 0;

/** A new GM account with a name and password, through the home screen; signed in by the session cookie (nothing in web storage). */
export async function signUp(
  page: Page,
  base: string,
  name = `gm${Date.now().toString(36)}${++accounts}`,
  password = 'a long table password',
): Promise<string> {
  await page.goto(`${base}/`);
  await page.getByLabel('Choose a name').fill(name);
  await page.getByLabel('Choose a password').fill(password);
  await page.getByRole('button', { name: 'Create a GM account' }).click();
  await page.getByRole('heading', { name: 'Your encounters' }).waitFor();
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toMatch(/fray_(ses|gm|pat)_/);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'fray_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  return name;
}

export async function createEncounter(page: Page, name: string, ruleset: string, seed: number): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Ruleset').selectOption(ruleset);
  await page.getByLabel('Dice seed (optional)').fill(String(seed));
  await page.getByRole('button', { name: 'Create encounter' }).click();
  await page.waitForURL(/\/gm\/e\//);
  await page.getByRole('heading', { name: 'Turn order' }).waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

export interface NewCombatant {
  name: string;
  side: string;
  stats: Record<string, string | number | boolean>;
  hidden?: boolean;
  secret?: string[];
  items?: Array<{ name: string; location: string; tags?: string[]; props?: Record<string, string | number | boolean> }>;
}

/**
 * The side in a combatant form: picked by name among the encounter's sides, else *A new side…*
 * and its name (with no side yet, the name alone). Nothing is chosen for the GM.
 */
export async function chooseSide(form: Locator, side: string): Promise<void> {
  const field = form.getByLabel('Side *');
  if ((await field.evaluate((el) => el.tagName)) !== 'SELECT') return field.fill(side);
  const known = await field.locator('option').allInnerTexts();
  if (known.includes(side)) {
    await field.selectOption({ label: side });
    return;
  }
  await field.selectOption({ label: 'A new side…' });
  await form.getByLabel("New side's name *").fill(side);
}

/** Fill the schema-generated "Add a combatant" form and submit it. */
export async function addCombatant(page: Page, c: NewCombatant): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a combatant' });
  await form.getByLabel('Name *').fill(c.name);
  await chooseSide(form, c.side);
  if (c.hidden) await form.getByLabel(/Hidden/).check();
  for (const [k, v] of Object.entries(c.stats)) {
    const input = form.locator(`[id="add-stat-${k}"]`);
    if (typeof v === 'boolean') await (v ? input.check() : input.uncheck());
    else if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(String(v));
    else await input.fill(String(v));
  }
  // items in the list editor: a row per item, typed fields (no JSON)
  for (const [n, item] of (c.items ?? []).entries()) {
    await form.getByRole('button', { name: '+ Add an item' }).click();
    const row = form.getByTestId('item-row').nth(n);
    await row.getByLabel('Item name').fill(item.name);
    await row.getByLabel('Where').selectOption(item.location);
    if (item.tags) await row.getByLabel('Tags').fill(item.tags.join(', '));
    if (item.props)
      await row.getByLabel('Properties').fill(
        Object.entries(item.props)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join(', '),
      );
  }
  for (const k of c.secret ?? []) await form.getByLabel(new RegExp(`^${k}.* is secret$`)).check();
  const before = await page.locator('[data-testid^="combatant-"]').count();
  await form.getByRole('button', { name: 'Add combatant' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid^="combatant-"]').length > n, before);
}

/** The console's invite links (open while the encounter is set up, folded away once combat starts): opened. */
export async function openInvites(page: Page): Promise<void> {
  const d = page.getByTestId('invites-details');
  if ((await d.getAttribute('open')) === null) await d.locator('summary').click();
}

export async function inviteLink(page: Page, role: 'player' | 'spectator', names: string[] = []): Promise<string> {
  await openInvites(page);
  const before = await page.getByTestId(`invite-${role}`).count();
  if (role === 'player') {
    const fs = page.getByRole('group', { name: /Player invite/ });
    for (const n of names) await fs.getByLabel(n, { exact: false }).check();
    await page.getByRole('button', { name: 'Create player invite' }).click();
  } else {
    await page.getByRole('button', { name: 'Create spectator invite' }).click();
  }
  const item = page.getByTestId(`invite-${role}`).nth(before);
  await item.waitFor();
  return item.getByTestId('invite-link').inputValue();
}
