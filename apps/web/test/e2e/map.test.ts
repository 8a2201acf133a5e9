import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createEncounter, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { addByForm, idOf, map, noteMatches, placeByTap } from './map-flow.js';
import { mapSession, PHONE, withFailShots, type MapSession } from './map-session.js';
import type { RulesetInfo } from '../../src/lib/types.js';

/**
 * A whole fight of `action-round` on the battle map, by taps and clicks only (never the raw
 * command box): a GM on a laptop, two players (one on a 390 × 844 phone) and a spectator. The
 * other rulesets' fights are in map-fights.test.ts. Screens go to docs/screens/ with
 * `FRAY_SCREENS=1` (linked from docs/web.md), else to apps/web/artifacts/screens/.
 */
describe('a fight on the battle map, by taps and clicks', () => {
  let s: MapSession;
  let rulesets: RulesetInfo[] = [];
  let srv: MapSession['srv'];
  beforeAll(async () => {
    s = await mapSession();
    ({ rulesets, srv } = s);
  });
  afterAll(async () => {
    await s?.close();
  });
  const open = (v?: { width: number; height: number }) => s.open(v);
  const keep = (page: Page, name: string, at?: string) => s.keep(page, name, at);
  const gmSees = (gm: Page, pred: string, arg?: unknown) => s.gmSees(gm, pred, arg);

  it('action-round: squares, a provoking move, the opportunity attack on the phone, an attack by tapping the target, a condition, the end', async () => {
    await withFailShots(s, actionRound);
  }, 180_000);

  async function actionRound(): Promise<void> {
    const info = rulesets.find((r) => r.id === 'action-round')!;
    const gm = await open();
    await signUp(gm, srv.url);
    await createEncounter(gm, 'Ambush at the ford', 'action-round', 11);
    await addByForm(gm, info, 'Orc', 'foes', { initiative: '40', naturalWeapons: true });
    await addByForm(gm, info, 'Hero', 'heroes', { initiative: '20', naturalWeapons: true });
    await addByForm(gm, info, 'Ally', 'heroes', { initiative: '0' });
    // the GM places everyone by tapping the map
    await placeByTap(gm, 'Hero', '2,2');
    await placeByTap(gm, 'Orc', '3,2');
    await placeByTap(gm, 'Ally', '2,5');
    const [orc, hero, ally] = [await idOf(gm, 'Orc'), await idOf(gm, 'Hero'), await idOf(gm, 'Ally')];
    // a wall, from the GM's map tools
    await map(gm)
      .getByText(/Map size and walls/)
      .click();
    await map(gm).getByRole('button', { name: 'Edit walls' }).click();
    await map(gm).locator('[data-cell="5,1"]').click();
    await gmSees(gm, 's.options.map && s.options.map.walls.length === 1');
    await map(gm).getByRole('button', { name: 'Done editing walls' }).click();

    const p1link = await inviteLink(gm, 'player', ['Hero']);
    const p2link = await inviteLink(gm, 'player', ['Ally']);
    const watchLink = await inviteLink(gm, 'spectator');
    const p1 = await open(PHONE);
    const p2 = await open();
    const watcher = await open();
    for (const [p, l] of [
      [p1, p1link],
      [p2, p2link],
      [watcher, watchLink],
    ] as const) {
      await p.goto(l);
      await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    }
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gmSees(gm, `s.status === 'active' && s.clock.current === a`, orc);
    await settle([p1, p2, watcher], gm);

    // The Orc (the GM's NPC) walks away from the Hero: the map shows where it can go, and that leaving provokes
    // its turn selected its token: its moves are on offer at once
    await gmSees(gm, 's.clock.current === a', orc);
    await map(gm).locator(`[data-token="${orc}"][aria-pressed="true"]`).waitFor();
    await map(gm)
      .getByRole('button', { name: /^Move: walk/ })
      .click();
    await noteMatches(gm, /Tap a highlighted square/);
    expect(await map(gm).locator('.cell.reach').count()).toBeGreaterThan(20);
    // a tap on the wall says why not, with the rule
    await map(gm).locator('[data-cell="5,1"]').click();
    expect(await noteMatches(gm, /Not there/)).toMatch(/wall.*map\.walls/);
    await map(gm).locator('[data-cell="6,2"]').click();
    expect(await noteMatches(gm, /square 6, 2: 3 squares/)).toMatch(/Provokes as you leave your starting square: Hero may react/);
    await keep(gm, 'gm-map-move-preview-desktop');
    await map(gm)
      .getByRole('button', { name: /^Confirm/ })
      .click();

    // the Hero's player gets the prompt on the phone, with its countdown; the map highlights the Orc
    const prompt = p1.getByTestId('reaction-prompt');
    await prompt.waitFor();
    await expect(prompt.getByRole('timer').count()).resolves.toBe(1);
    await p1.locator(`.token.moving[data-token="${orc}"]`).waitFor();
    await keep(p1, 'player-reaction-phone');
    await keep(watcher, 'spectator-reaction-desktop');
    await prompt.getByRole('button', { name: /^Opportunity attack/ }).click();
    await prompt.waitFor({ state: 'detached' });
    await gmSees(gm, 's.reaction === null');
    await settle([p1, p2, watcher], gm);

    // the Orc's turn ends; the Hero's player moves next to it by tapping and attacks it by tapping its token
    await gm
      .getByTestId('turn-controls')
      .getByRole('button', { name: /^End Orc's turn/ })
      .click();
    await gmSees(gm, 's.clock.current === a', hero);
    await settle([p1], gm);
    await keep(p1, 'player-map-phone');
    // on a touch screen each token is a 44-px tap target (an invisible circle) and its name 12 px or more
    const hit = await map(p1).locator(`[data-token="${hero}"] .token-hit`).boundingBox();
    expect(hit!.width).toBeGreaterThanOrEqual(44);
    const namePx = await map(p1)
      .locator('.token-name')
      .first()
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize) * (e.closest('svg')?.getScreenCTM()?.a ?? 0));
    expect(namePx).toBeGreaterThanOrEqual(12);
    await map(p1).locator(`[data-token="${hero}"]`).click();
    await map(p1)
      .getByRole('button', { name: /^Move: walk/ })
      .click();
    await noteMatches(p1, /Tap a highlighted square/);
    const orcAt = (await liveState(p1)).state!.combatants[orc]!.position as { x: number; y: number };
    const next = `${orcAt.x - 1},${orcAt.y}`;
    await map(p1).locator(`[data-cell="${next}"]`).click();
    await noteMatches(p1, /Tap it again or press Confirm/);
    await keep(p1, 'player-move-preview-phone');
    await map(p1).locator(`[data-cell="${next}"]`).click();
    await noteMatches(p1, /Move: walk — done/);
    await settle([p1], gm);
    const actions = p1.getByTestId(`actions-${hero}`);
    // the phone's your-turn card folds its groups when many actions are possible: find it
    if (await actions.getByLabel(/^Find an action/).count()) await actions.getByLabel(/^Find an action/).fill('attack, close');
    await actions.getByRole('button', { name: /^Attack, close/ }).click();
    await map(p1).locator(`[data-token="${orc}"]`).click();
    expect(await actions.getByLabel('Target').inputValue()).toBe(orc);
    const before = (await liveState(gm)).version;
    await actions.getByRole('button', { name: /^Do it: Attack, close/ }).click();
    await gm.waitForFunction((v) => (window.__frayLive?.getSnapshot().version ?? 0) > v, before);

    // a condition from the GM's form; everyone's map shows it as a badge
    const fx = gm.getByRole('form', { name: 'Apply a condition or effect' });
    await fx.getByLabel('Target').selectOption(orc);
    await fx.getByLabel('Condition or effect').fill('prone');
    await fx.getByRole('button', { name: 'Apply' }).click();
    await gmSees(gm, 's.effects.some((e) => e.targetId === a)', orc);
    await settle([p1, p2, watcher], gm);
    await watcher.locator(`[data-token="${orc}"] + .token-text .token-badge`).first().waitFor();
    // the map passes axe-core's WCAG 2 A/AA checks on every screen
    expect(
      await s.axeReport([
        ['GM', gm],
        ['player (phone)', p1],
        ['player', p2],
        ['spectator', watcher],
      ]),
    ).toEqual([]);
    await keep(gm, 'gm-console-map-desktop');
    await keep(p2, 'player-map-desktop');
    await keep(watcher, 'spectator-map-desktop');
    void ally;

    // the end
    await gm.getByTestId('turn-controls').getByRole('button', { name: 'End combat' }).click();
    await gmSees(gm, `s.status === 'ended'`);
    await settle([p1, p2, watcher], gm);
    expect(s.consoleErrors).toEqual([]);
  }
});
