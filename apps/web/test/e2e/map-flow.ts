import type { Page } from 'playwright-core';
import type { RulesetInfo } from '../../src/lib/types.js';
import { fieldsOf } from '../../src/lib/schema-form.js';
import { chooseSide } from './gm-flow.js';
import { liveState } from './helpers.js';

/** Steps on the battle map and the schema forms, through taps and clicks only. */

/** A valid value for each required stat: 10 clamped to the schema's range, or its first choice; then `extra`. */
export async function addByForm(
  page: Page,
  info: RulesetInfo,
  name: string,
  side: string,
  extra: Record<string, string | boolean> = {},
): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a combatant' });
  await form.getByLabel('Name *').fill(name);
  await chooseSide(form, side);
  for (const f of fieldsOf(info.stats.schema, info.stats.docs)) {
    const input = form.locator(`[id="add-stat-${f.name}"]`);
    if (f.name in extra) {
      const v = extra[f.name]!;
      if (typeof v === 'boolean') await (v ? input.check() : input.uncheck());
      else if (f.kind === 'select') await input.selectOption(v);
      else await input.fill(v);
      continue;
    }
    if (!f.required) continue;
    if (f.kind === 'integer' || f.kind === 'number') await input.fill(String(Math.min(f.max ?? 10, Math.max(f.min ?? 0, 10))));
    else if (f.kind === 'select') await input.selectOption(f.choices![0]!);
    else if (f.kind === 'text' || f.kind === 'list') await input.fill('x');
    else if (f.kind === 'json') await input.fill('[]');
  }
  const before = await page.locator('[data-testid^="combatant-"]').count();
  await form.getByRole('button', { name: 'Add combatant' }).click();
  const added = page.waitForFunction((n) => document.querySelectorAll('[data-testid^="combatant-"]').length > n, before);
  const refused = form
    .getByRole('alert')
    .first()
    .waitFor()
    .then(async () => {
      throw new Error(`combatant refused: ${await form.getByRole('alert').allTextContents()}`);
    });
  await Promise.race([added, refused]);
}

export const map = (page: Page) => page.getByTestId('map-panel');

/** The id of the combatant with this name, from the page's state. */
export async function idOf(page: Page, name: string): Promise<string> {
  const s = (await liveState(page)).state!;
  const c = Object.values(s.combatants).find((x) => x.name === name);
  if (!c) throw new Error(`no combatant ${name}`);
  return c.id;
}

/** GM: tap a token that is not on the map yet, then the cell to put it on. */
export async function placeByTap(gm: Page, name: string, cell: string): Promise<void> {
  const id = await idOf(gm, name);
  await map(gm).locator(`.map-unplaced [data-token="${id}"]`).click();
  await map(gm).locator(`[data-cell="${cell}"]`).click();
  await gm.waitForFunction(
    ([i, k]) => {
      const p = window.__frayLive?.getSnapshot().state?.combatants[i!]?.position as Record<string, number> | null;
      return !!p && `${p.x ?? p.q},${p.y ?? p.r}` === k;
    },
    [id, cell] as const,
  );
}

/** The text the map shows after a tap (the path, its cost, or why not). */
export async function mapNote(page: Page): Promise<string> {
  const n = map(page).getByTestId('map-note');
  await n.waitFor();
  return (await n.textContent()) ?? '';
}

/** Wait until the map's note says something matching `re` (it changes as the server answers). */
export async function noteMatches(page: Page, re: RegExp): Promise<string> {
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector('[data-testid="map-note"]')?.textContent ?? ''),
    re.source,
  );
  return mapNote(page);
}
