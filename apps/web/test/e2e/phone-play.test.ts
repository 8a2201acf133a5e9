import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phoneTable, untilHeroActs } from './phone-flow.js';
import { tableEnv } from './table-env.js';

/**
 * Each ruleset's player page on a phone (390×844, touch) on the hero's turn, set up by a GM
 * through the UI: it fits the screen's width, every control is a 44 px touch target, and the
 * action list does not repeat its heading in every label ("Speak (free)" under FREE).
 */
const rulesets = ['legends', 'ocv-phases', 'action-round', 'action-points', 'freeform'];

/** What is wider than the screen, and the visible controls smaller than 44 px (tag: text). */
async function layout(page: Page): Promise<{ scrollWidth: number; small: string[] }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    small: [...document.querySelectorAll('main button, main summary, main select, main [role="button"]')]
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0 && r.height < 44)
      .map(({ e, r }) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}" ${Math.round(r.height)}px`),
  }));
}

describe('the player page on a phone, every ruleset', () => {
  const env = tableEnv();

  it.each(rulesets)(
    '%s: fits 390 px, 44 px targets, labels without their heading',
    async (id) => {
      const { gm, player, hero } = await phoneTable(env, id);
      await untilHeroActs(gm, player, hero);
      const card = player.getByTestId('your-turn-card');
      await card.locator('button.action').first().waitFor();

      const { scrollWidth, small } = await layout(player);
      expect(scrollWidth, 'no sideways scroll').toBeLessThanOrEqual(390);
      expect(small, 'touch targets under 44 px').toEqual([]);
      const end = await card.getByRole('button', { name: /^End my turn/ }).boundingBox();
      expect(end!.height).toBeGreaterThanOrEqual(44);

      // the quick-added hero is not on the map yet: the map says so, and who places it
      if (id !== 'freeform')
        await player
          .getByTestId('not-placed-note')
          .getByText(/token is not on the map yet: the GM places it/)
          .waitFor();

      // under a kind's heading (FREE, MAJOR…) no label ends with that heading again, no cost says only "1 <heading>"
      for (const group of await card.locator('details.action-group, .kind-group').all()) {
        const heading = (await group.locator('> summary, > .kind-heading').first().textContent())!.replace(/\s*\(\d+\)$/, '').trim();
        for (const b of await group.locator('li button.action').all()) {
          const label = (await b.locator('.action-label').textContent())!;
          expect(label.toLowerCase(), `${id}: "${label}" under ${heading}`).not.toMatch(new RegExp(`\\(${heading.toLowerCase()}\\)$`));
          const cost = await b.locator('.cost').allTextContents();
          expect(cost.join(' ').toLowerCase()).not.toBe(`cost: 1 ${heading.toLowerCase()}`);
        }
      }
    },
    90_000,
  );

  it('legends: the ranged attack picks the weapon among the hero’s items, by name', async () => {
    const { gm, player, hero, foe } = await phoneTable(env, 'legends');
    await untilHeroActs(gm, player, hero);
    const card = player.getByTestId('your-turn-card');
    const decide = card.locator('li:not(.blocked) button.action').filter({ hasText: /^Keep my place/ });
    if (await decide.count()) {
      await decide.first().click();
      await untilHeroActs(gm, player, hero);
    }
    await card.getByRole('button', { name: /^Ranged attack/ }).click();
    const weapon = card.getByLabel('Weapon');
    expect(await weapon.evaluate((el) => el.tagName)).toBe('SELECT');
    // the Archer's bow, by the name its item has ("Short bow"), not its id
    expect(await weapon.locator('option').allTextContents()).toContain('Short bow');
    await weapon.selectOption({ label: 'Short bow' });
    await card.getByLabel('Target').selectOption(foe);
    expect(await weapon.inputValue()).toBe('short-bow');
    // what the attack did (done, or the rule that refuses it) is read on the screen, not under the End my turn bar
    await card.getByRole('button', { name: /^Do it: Ranged attack/ }).click();
    // (a hit is the GM's to rule on: the player is told so in words)
    const said = card.getByTestId('action-done').or(card.getByRole('alert')).or(player.getByTestId('waiting-note')).first();
    await said.waitFor();
    const box = (await said.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, 'on the first screen').toBeLessThanOrEqual(844);
    // a major action ends the turn (the End my turn bar goes); while it stays, the result is above it
    const end = card.getByRole('button', { name: /^End my turn/ });
    if (await end.isVisible()) expect(box.y + box.height, 'above the End my turn bar').toBeLessThanOrEqual((await end.boundingBox())!.y);
  }, 90_000);

  it('freeform: an empty typed field asks to fill it in; the attack then says what happened', async () => {
    const { gm, player, hero, foe } = await phoneTable(env, 'freeform');
    await untilHeroActs(gm, player, hero);
    const card = player.getByTestId('your-turn-card');
    await card.getByRole('button', { name: /^Attack/ }).click();
    await card.getByRole('button', { name: 'Do it: Attack' }).click();
    await card.getByText('Fill in what happens.').waitFor();
    await card.getByLabel('What happens').fill('A slash at the bandit');
    await card.getByLabel(/^Target/).selectOption(foe);
    await card.getByRole('button', { name: 'Do it: Attack' }).click();
    await expect(card.getByTestId('action-done').textContent()).resolves.toMatch(/slash at the bandit/i);
  }, 90_000);
});
