import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launch, newPage, shot, type Chrome } from './browser.js';
import { addCombatant, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { startServer, type TestServer } from './server.js';

/**
 * A whole `freeform` fight from the web client only, as a table runs it: the GM on a laptop
 * (1280×800) names the encounter's vitals, adds two PCs and 3 × Bandit, enters one initiative and
 * rolls the rest, and runs two rounds; Aria's player on a phone (390×844) attacks with a roll on
 * her turn. A condition of 1 turn runs out at the end of its bearer's turn; the GM damages and heals
 * HP, Mana and a rising Stress. Nothing is typed as JSON.
 */
const LAPTOP = { width: 1280, height: 800 };
const PHONE_390 = { width: 390, height: 844 };

describe('a freeform fight: the GM on a laptop, a player on a phone', () => {
  let srv: TestServer;
  let chrome: Chrome;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer(), launch()]);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });

  async function open(viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    const { context, page, errors } = await newPage(chrome.browser, viewport);
    contexts.push(context);
    return { page, errors };
  }

  /** The GM's quick ± on one vital of one combatant (by its label): the amount, then the button that harms or heals. */
  async function adjust(gm: Page, name: string, vital: string, amount: number, how: 'Damage' | 'Heal'): Promise<void> {
    const group = gm.getByRole('group', { name: `Damage or heal ${name}` }).getByRole('group', { name: `${vital} of ${name}` });
    await group.getByRole('spinbutton').fill(String(amount));
    const v = (await liveState(gm)).version;
    await group.getByRole('button', { name: `(${how === 'Damage' ? 'damage' : 'heal'})` }).click();
    await gm.waitForFunction((n) => (window.__frayLive?.getSnapshot().version ?? -1) > n, v);
  }

  const vitalText = (page: Page, id: string, key: string) =>
    page.getByTestId(`combatant-${id}`).getByTestId(`vital-${key}`).first().innerText();

  it('names vitals, adds PCs and 3 × Bandit, rolls and enters initiative, acts with a roll, ticks a condition, damages and heals, for two rounds', async () => {
    const { page: gm, errors: gmErrors } = await open(LAPTOP);
    await signUp(gm, srv.url);
    // the encounter and its own vitals, in words
    await gm.getByLabel('Name', { exact: true }).fill('The inn brawl');
    await gm.getByLabel('Ruleset').selectOption('freeform');
    await gm.getByLabel('Dice seed (optional)').fill('7');
    await gm.getByText(/^Ruleset options/).click();
    await gm.locator('#opt-vitals').fill('Mana, Stress');
    await gm.locator('#opt-risingVitals').fill('Stress');
    await shot(gm, 'freeform-gm-new-encounter');
    await gm.getByRole('button', { name: 'Create encounter' }).click();
    await gm.waitForURL(/\/gm\/e\//);
    await gm.getByRole('heading', { name: 'Turn order' }).waitFor();
    const encounterId = decodeURIComponent(new URL(gm.url()).pathname.split('/').pop()!);

    // a number field per named vital, no JSON field
    const form = gm.getByRole('form', { name: 'Add a combatant' });
    await expect(form.getByRole('spinbutton', { name: /^Max Mana/ }).count()).resolves.toBe(1);
    await expect(form.getByRole('spinbutton', { name: /^Max Stress/ }).count()).resolves.toBe(1);
    await expect(form.locator('textarea[placeholder="JSON"]').count()).resolves.toBe(0);
    await addCombatant(gm, { name: 'Aria', side: 'heroes', stats: { hp: 12, initiativeBonus: 2, 'vitals.Mana': 10, 'vitals.Stress': 6 } });
    await addCombatant(gm, { name: 'Bram', side: 'heroes', stats: { hp: 15, 'vitals.Stress': 6 } });
    const quick = gm.getByRole('form', { name: 'Quick add' });
    await quick.getByLabel('How many').fill('3');
    await quick.getByLabel('Stat block or combatant to copy').selectOption('s:0'); // the first sample: Bandit
    await quick.getByRole('button', { name: 'Add' }).click();
    await gm.waitForFunction(() => document.querySelectorAll('[data-testid^="combatant-"]').length >= 5);
    await shot(gm, 'freeform-gm-laptop-setup');
    let state = (await liveState(gm)).state!;
    const ids = Object.fromEntries(Object.values(state.combatants).map((c) => [c.name, c.id]));
    const bandits = Object.values(state.combatants).filter((c) => c.name.startsWith('Bandit'));
    expect(bandits).toHaveLength(3);
    expect(state.combatants[ids.Aria!]!.stats).toMatchObject({ hp: 12, vitals: { Mana: 10, Stress: 6 } });
    expect(state.combatants[ids.Aria!]!.data).toMatchObject({ hp: 12, Mana: 10, Stress: 0 });
    expect(await vitalText(gm, ids.Aria!, 'Mana')).toBe('Mana 10/10');
    expect(await vitalText(gm, ids.Aria!, 'Stress')).toBe('Stress 0/6');
    // a combatant without a maximum has no such vital: Bram has no Mana, a Bandit only HP
    await expect(gm.getByTestId(`vitals-${ids.Bram!}`).first().innerText()).resolves.not.toContain('Mana');
    await expect(gm.getByTestId(`vitals-${bandits[0]!.id}`).first().innerText()).resolves.toBe('HP 11/11');

    // Aria's player on a phone
    const link = await inviteLink(gm, 'player', ['Aria']);
    const { page: phone, errors: phoneErrors } = await open(PHONE_390);
    await phone.goto(link);
    await phone.getByRole('heading', { name: 'The inn brawl' }).waitFor();

    // the GM enters Bram's initiative; the others roll when combat starts
    const cmd = gm.getByRole('form', { name: 'GM command' });
    await cmd.locator('#gm-command-type').selectOption('initiative.set');
    await cmd.locator('#gmc-combatantId').selectOption(ids.Bram!);
    await cmd.locator('#gmc-value').fill('20');
    await cmd.getByRole('button', { name: /^Send/ }).click();
    await gm.waitForFunction(
      (id) =>
        (window.__frayLive?.getSnapshot().state as { combatants: Record<string, { data: { initiative: unknown } }> } | undefined)
          ?.combatants[id]?.data.initiative === 20,
      ids.Bram!,
    );
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => (window.__frayLive?.getSnapshot().state as { status?: string } | undefined)?.status === 'active');
    state = (await liveState(gm)).state!;
    // the entered value stands; the others rolled
    expect((state.combatants[ids.Bram!]!.data as { initiative: number }).initiative).toBe(20);
    const inits = Object.values(state.combatants).map((c) => (c.data as { initiative: number }).initiative);
    expect(inits.every((n) => typeof n === 'number')).toBe(true);

    // a condition of 1 turn on the first Bandit: it runs out at the end of that Bandit's next turn
    const fx = gm.getByRole('form', { name: 'Apply a condition or effect' });
    await fx.getByLabel('Target').selectOption(bandits[0]!.id);
    await fx.getByLabel('Condition or effect').fill('Dazed');
    await fx.locator('#fx-count').fill('1');
    // the units are the ruleset's (a select), the result is said in the form, which clears for the next
    await fx.getByLabel('Duration unit').selectOption('turn');
    await fx.getByRole('button', { name: 'Apply' }).click();
    await gm.getByTestId(`combatant-${bandits[0]!.id}`).getByText(/Dazed/).first().waitFor();
    await fx
      .getByRole('status')
      .filter({ hasText: /^✓ Bandit \d+ is Dazed\.$/ })
      .waitFor();
    expect(await fx.getByLabel('Condition or effect').inputValue()).toBe('');

    // the GM's damage and healing on HP, Mana and the rising Stress
    await adjust(gm, 'Aria', 'Hit points', 5, 'Damage');
    await adjust(gm, 'Aria', 'Mana', 4, 'Damage');
    await adjust(gm, 'Aria', 'Stress', 2, 'Damage');
    await adjust(gm, 'Aria', 'Hit points', 2, 'Heal');
    expect(await vitalText(gm, ids.Aria!, 'hp')).toBe('HP 9/12');
    expect(await vitalText(gm, ids.Aria!, 'Mana')).toBe('Mana 6/10');
    expect(await vitalText(gm, ids.Aria!, 'Stress')).toBe('Stress 2/6');
    await gm.getByText('Aria: HP +2 (now 9).').first().waitFor();
    await gm.getByText('Aria: Stress +2 (now 2).').first().waitFor();
    await settle([phone], gm);
    // the others' vitals in words on the player's phone
    await expect(phone.getByTestId(`vitals-${bandits[0]!.id}`).first().innerText()).resolves.toBe('HP: unhurt');
    // the player sees her own numbers, and only words for the others
    const mine = phone.getByTestId(`vitals-${ids.Aria!}`).first();
    // her own card spells the labels out (HP → Hit points); a short form elsewhere has its label as a title
    await expect(mine.innerText()).resolves.toMatch(/Hit points 9\/12[\s\S]*Mana 6\/10[\s\S]*Stress 2\/6/);
    await expect(
      phone.getByTestId(`vitals-${bandits[0]!.id}`).first().locator('.vital-text').first().getAttribute('title'),
    ).resolves.toMatch(/^Hit points: /);
    await shot(gm, 'freeform-gm-laptop-round1');
    await shot(phone, 'freeform-player-phone-round1');

    // two rounds: Aria's player attacks a Bandit with a roll on her turn; the GM acts for one Bandit and ends the others' turns
    let attacked = false;
    let gmActed = false;
    let dazedGone = false;
    for (let step = 0; step < 20; step++) {
      state = (await liveState(gm)).state!;
      if (state.clock.round > 2) break;
      const cur = state.clock.current!;
      if (cur === ids.Aria) {
        await phone.getByRole('button', { name: 'Attack' }).first().click();
        const f = phone.getByRole('form', { name: 'Attack: choose' });
        await f.getByLabel('What happens').fill('a spear thrust');
        await f.getByLabel(/^Target/).selectOption(bandits[1]!.id);
        await f.getByLabel(/^Roll/).fill('1d20+3');
        if (!attacked) await shot(phone, 'freeform-player-phone-attack');
        await f.getByRole('button', { name: 'Do it: Attack' }).click();
        await phone
          .getByText(/Aria attacks Bandit[^:]*: a spear thrust \(rolls \d+\)/)
          .first()
          .waitFor();
        // her initiative roll shows the bonus that made its value
        await phone
          .getByText(/Aria: initiative — 1d20\+2 /)
          .first()
          .waitFor();
        attacked = true;
        // one way to end the turn on the card: the End my turn bar (the ruleset's "End turn" is that bar)
        await expect(
          phone
            .getByTestId('your-turn-card')
            .getByRole('button', { name: /^End (my )?turn/ })
            .count(),
        ).resolves.toBe(1);
        await phone.getByRole('button', { name: 'End my turn' }).click();
      } else {
        if (!gmActed && cur === bandits[2]!.id) {
          await gm.getByTestId('act-list').getByTestId(`act-${cur}`).click();
          await gm.getByTestId(`actions-${cur}`).getByRole('button', { name: 'Attack' }).first().click();
          const f = gm.getByRole('form', { name: 'Attack: choose' });
          await f.getByLabel('What happens').fill('a rusty knife');
          await f.getByLabel(/^Target/).selectOption(ids.Bram!);
          await f.getByLabel(/^Roll/).fill('1d20+1');
          await f.getByRole('button', { name: 'Do it: Attack' }).click();
          await gm
            .getByText(/attacks Bram: a rusty knife \(rolls \d+\)/)
            .first()
            .waitFor();
          gmActed = true;
        }
        const name = state.combatants[cur]!.name;
        await gm.getByRole('button', { name: `End ${name}'s turn` }).click();
      }
      await gm.waitForFunction((v) => (window.__frayLive?.getSnapshot().version ?? -1) > v, (await liveState(gm)).version - 1);
      await gm.waitForFunction(
        (c) => (window.__frayLive?.getSnapshot().state as { clock: { current: string } } | undefined)?.clock.current !== c,
        cur,
      );
      const after = (await liveState(gm)).state!;
      if (cur === bandits[0]!.id && after.effects.every((e) => e.name !== 'Dazed')) dazedGone = true;
      if (cur !== bandits[0]!.id && !dazedGone) expect(after.effects.some((e) => e.name === 'Dazed')).toBe(true);
    }
    state = (await liveState(gm)).state!;
    expect(state.clock.round).toBe(3);
    expect(attacked && gmActed && dazedGone).toBe(true);
    await settle([phone], gm);
    await shot(gm, 'freeform-gm-laptop-round3');
    await shot(phone, 'freeform-player-phone-round3');
    expect(gmErrors).toEqual([]);
    expect(phoneErrors).toEqual([]);
    void encounterId;
  });
});
