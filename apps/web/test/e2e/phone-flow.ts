import type { Page } from 'playwright-core';
import { createEncounter, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import type { TableEnv } from './table-env.js';

/** A phone as a player holds it: 390×844 (touch, mobile viewport). */
export const PHONE_390 = { width: 390, height: 844 };

/**
 * Through the UI only: a GM (desktop) creates an encounter of `ruleset`, quick-adds the ruleset's
 * second sample (the hero, the player's) and its first (the foe), invites a player for the hero,
 * and starts combat; the player's page is open on a phone.
 */
export async function phoneTable(env: TableEnv, ruleset: string): Promise<{ gm: Page; player: Page; hero: string; foe: string }> {
  const gm = await env.open({ width: 1280, height: 800 });
  await signUp(gm, env.srv.url);
  await gm.goto(`${env.srv.url}/gm`);
  await createEncounter(gm, `Phone ${ruleset}`, ruleset, 5);
  const quick = gm.getByRole('form', { name: 'Quick add' });
  const from = quick.getByLabel('Stat block or combatant to copy');
  const samples = await from.locator('optgroup').first().locator('option').allTextContents();
  await quick.getByLabel('How many').fill('1');
  for (const [n, sample] of [samples[1]!, samples[0]!].entries()) {
    await from.selectOption({ label: sample });
    await quick.getByRole('button', { name: 'Add' }).click();
    await gm.waitForFunction((k) => Object.keys(window.__frayLive?.getSnapshot().state?.combatants ?? {}).length === k, n + 1);
  }
  const [hero, foe] = Object.values((await liveState(gm)).state!.combatants);
  const link = await inviteLink(gm, 'player', [hero!.name]);
  const player = await env.open(PHONE_390);
  await player.goto(link);
  await player.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
  await gm.getByRole('button', { name: 'Start combat' }).click();
  await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
  await settle([player], gm);
  return { gm, player, hero: hero!.id, foe: foe!.id };
}

const keepPlace = /^(Keep my place|Do not move)/;

/** The GM plays the foe's turns (keeping its place in a decision, then ending its turn) until the hero acts. */
export async function untilHeroActs(gm: Page, player: Page, hero: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await settle([player], gm);
    const s = (await liveState(gm)).state!;
    if (s.clock.current === hero) return;
    const cur = s.clock.current;
    if (!cur) throw new Error(`nobody acts in round ${s.clock.round}`);
    const before = (await liveState(gm)).version;
    await gm.getByTestId('act-list').getByTestId(`act-${cur}`).click();
    const panel = gm.getByTestId(`actions-${cur}`);
    await panel.locator('button.action').first().waitFor();
    const keep = panel.locator('li:not(.blocked) button.action').filter({ hasText: keepPlace });
    if (await keep.count()) await keep.first().click();
    else
      await gm
        .getByTestId('turn-controls')
        .getByRole('button', { name: /^End .*'s turn$/ })
        .click();
    await gm.waitForFunction((v) => (window.__frayLive?.getSnapshot().version ?? -1) > v, before);
  }
  throw new Error('the hero never got a turn');
}
