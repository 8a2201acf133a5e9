import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ARTIFACTS, launch, newPage, type Chrome } from './browser.js';
import { addCombatant, chooseSide, createEncounter, signUp } from './gm-flow.js';
import { liveState } from './helpers.js';
import { startServer, type TestServer } from './server.js';
import type { Combatant, EncounterState } from '../../src/lib/types.js';

/**
 * A GM sets up every combatant by taps and clicks, in the game's words, without JSON: action-round's
 * attack and damage by attack kind, its skills and powers, its commander; ocv-phases' skills;
 * legends' zone picked by name and a new zone named in the form, a mount picked by name; every
 * ruleset's options in the encounter creation form. What the server holds is checked after each.
 */
const LAPTOP = { width: 1280, height: 800 };
const PHONE_390 = { width: 390, height: 844 };

describe('stats and options by the form only, in the game’s words', () => {
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
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });

  const addForm = () => gm.getByRole('form', { name: 'Add a combatant' });
  const stat = (name: string) => addForm().locator(`[id="add-stat-${name}"]`);
  const combatant = async (name: string): Promise<Combatant> => {
    const s: EncounterState = (await liveState(gm)).state!;
    const c = Object.values(s.combatants).find((x) => x.name === name);
    if (!c) throw new Error(`no ${name}`);
    return c;
  };
  /** The form (or part of it) at 1280 × 800 and on a 390 × 844 phone, into apps/web/artifacts/. */
  const shots = async (what: Locator, name: string) => {
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
  const newEncounter = async (ruleset: string) => {
    await gm.goto(`${srv.url}/gm`);
    await createEncounter(gm, `Stat forms: ${ruleset}`, ruleset, 5);
  };

  it('the encounter creation form: every ruleset’s options have inputs of their own, a dice formula is checked before sending', async () => {
    await gm.goto(`${srv.url}/gm`);
    const form = gm.getByRole('form', { name: 'Create an encounter' });
    for (const id of ['legends', 'action-points', 'ocv-phases', 'action-round', 'freeform']) {
      await form.getByLabel('Ruleset').selectOption(id);
      const details = form.locator('details.options');
      if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
      expect([id, await form.locator('textarea').count()]).toEqual([id, 0]);
    }
    // action-points: a speed per size, chosen; an action picked by its label
    await form.getByLabel('Ruleset').selectOption('action-points');
    await expect(form.locator('[id="opt-baseSpeedBySize.large"]').inputValue()).resolves.toBe('average');
    await form.getByRole('button', { name: 'Add to Earliest phase overrides' }).click();
    const row = form.getByTestId('rows-earliestPhaseOverrides');
    await row.getByLabel('Action (1)').selectOption({ label: 'Aid another' });
    await row.getByLabel('Earliest phase (1)').selectOption('fast');
    await shots(form, 'stat-forms-options-action-points');
    // ocv-phases: a die the game cannot read is refused in words, before anything is sent
    await form.getByLabel('Ruleset').selectOption('ocv-phases');
    await expect(form.locator('#opt-tieBreakDie').getAttribute('placeholder')).resolves.toBe('e.g. 1d6');
    await form.locator('#opt-tieBreakDie').fill('one d6');
    await form.getByRole('button', { name: 'Create encounter' }).click();
    await form.getByText('Tie-break die must be written like 1d6').first().waitFor();
    expect(new URL(gm.url()).pathname).toBe('/gm');
  });

  it('action-round: attack and damage by attack kind, skills, a power and a commander, by clicks; the server holds them', async () => {
    await newEncounter('action-round');
    await addCombatant(gm, { name: 'Captain', side: 'heroes', stats: {} });
    const form = addForm();
    await expect(form.locator('textarea').count()).resolves.toBe(0);
    await form.getByLabel('Name *').fill('Vess');
    await chooseSide(form, 'heroes');
    await stat('attack.close').fill('6');
    await stat('attack.ranged').fill('4');
    await stat('damage.close').fill('41');
    await form.getByRole('button', { name: 'Add to Skills' }).click();
    await form.getByRole('button', { name: 'Add to Skills' }).click();
    const skills = form.getByTestId('rows-skills');
    await skills.getByLabel('Skill (1)').fill('athletics');
    await skills.getByLabel('Ranks (1)').fill('3');
    await skills.getByLabel('Skill (2)').fill('wits');
    await skills.getByLabel('Ranks (2)').fill('2');
    await form.getByRole('button', { name: 'Add to Powers' }).click();
    const powers = form.getByTestId('rows-powers');
    await powers.getByLabel('Name (1)').fill('Fire Blast');
    await powers.getByLabel('Rank (1)').fill('6');
    await powers.getByLabel('Effect (1)').selectOption('damage');
    await stat('commander').selectOption({ label: 'Captain (heroes)' });
    // out of the game's range: said by the field, nothing sent
    const before = (await liveState(gm)).version;
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await form.getByText('Close damage rank must be at most 40').first().waitFor();
    expect((await liveState(gm)).version).toBe(before);
    await shots(form, 'stat-forms-action-round');
    await stat('damage.close').fill('5');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() => Object.values(window.__frayLive?.getSnapshot().state?.combatants ?? {}).some((c) => c.name === 'Vess'));
    const vess = await combatant('Vess');
    const captain = await combatant('Captain');
    expect(vess.stats).toMatchObject({
      attack: { close: 6, ranged: 4, court: 0, rumor: 0 },
      damage: { close: 5, ranged: 0, court: 0, rumor: 0 },
      skills: { athletics: 3, wits: 2 },
      powers: [{ id: 'fire-blast', name: 'Fire Blast', rank: 6, effect: 'damage' }],
      commander: captain.id,
    });
    // edited in the same form: the rows come back filled
    await gm.getByRole('button', { name: 'Edit Vess' }).click();
    const edit = gm.getByRole('form', { name: 'Edit Vess' });
    await expect(edit.getByTestId('rows-skills').getByLabel('Skill (2)').inputValue()).resolves.toBe('wits');
    await expect(edit.locator(`[id="edit-${vess.id}-stat-attack.close"]`).inputValue()).resolves.toBe('6');
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  it('ocv-phases: skills as rows of a skill and its roll', async () => {
    await newEncounter('ocv-phases');
    const form = addForm();
    await expect(form.locator('textarea').count()).resolves.toBe(0);
    await form.getByLabel('Name *').fill('Nightwing');
    await chooseSide(form, 'heroes');
    await stat('combatValue').fill('6');
    for (const [n, [skill, roll]] of [
      ['acrobatics', '12'],
      ['stealth', '11'],
    ].entries()) {
      await form.getByRole('button', { name: 'Add to Skills' }).click();
      await form
        .getByTestId('rows-skills')
        .getByLabel(`Skill (${n + 1})`)
        .fill(skill!);
      await form
        .getByTestId('rows-skills')
        .getByLabel(`Roll (3d6 or less) (${n + 1})`)
        .fill(roll!);
    }
    await shots(form.getByTestId('rows-skills'), 'stat-forms-ocv-skills');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() =>
      Object.values(window.__frayLive?.getSnapshot().state?.combatants ?? {}).some((c) => c.name === 'Nightwing'),
    );
    expect((await combatant('Nightwing')).stats).toMatchObject({ combatValue: 6, skills: { acrobatics: 12, stealth: 11 } });
  });

  it('legends: a new zone by its name only, a zone picked by its name, a mount picked by name', async () => {
    await newEncounter('legends');
    const form = addForm();
    await expect(form.locator('textarea').count()).resolves.toBe(0);
    const zone = form.locator('[id="add-pos-position.zone"]');
    // the zones by name: the one every fight starts with, and a new one
    expect(await zone.locator('option').allTextContents()).toEqual(['(default)', 'The battlefield', '+ A new zone…']);
    await form.getByLabel('Name *').fill('Aria');
    await chooseSide(form, 'heroes');
    for (const k of ['DEX', 'SPD', 'STR']) await stat(k).fill('10');
    await zone.selectOption({ label: '+ A new zone…' });
    await form.getByLabel("New zone's name *").fill('Old Courtyard');
    await shots(form.locator('fieldset').filter({ hasText: 'Position' }), 'stat-forms-legends-new-zone');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() => Object.values(window.__frayLive?.getSnapshot().state?.combatants ?? {}).some((c) => c.name === 'Aria'));
    const s = (await liveState(gm)).state!;
    expect((s.rs as { zones: Record<string, { name: string }> }).zones['old-courtyard']).toMatchObject({ name: 'Old Courtyard' });
    expect((await combatant('Aria')).position).toMatchObject({ zone: 'old-courtyard' });
    // the next one picks it by its name; a mount is picked by name too
    await addCombatant(gm, { name: 'Pony', side: 'heroes', stats: { DEX: 8, SPD: 14, STR: 12, kind: 'animal' } });
    const pony = await combatant('Pony');
    await form.getByLabel('Name *').fill('Borin');
    await chooseSide(form, 'heroes');
    for (const k of ['DEX', 'SPD', 'STR']) await stat(k).fill('9');
    await stat('mountId').selectOption({ label: 'Pony (heroes)' });
    await zone.selectOption({ label: 'Old Courtyard' });
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() => Object.values(window.__frayLive?.getSnapshot().state?.combatants ?? {}).some((c) => c.name === 'Borin'));
    const borin = await combatant('Borin');
    expect([borin.stats.mountId, borin.position]).toEqual([pony.id, expect.objectContaining({ zone: 'old-courtyard' })]);
    expect(Object.keys((((await liveState(gm)).state!.rs ?? {}) as { zones: object }).zones).sort()).toEqual(['main', 'old-courtyard']);
    expect(errors).toEqual([]);
  });
});
