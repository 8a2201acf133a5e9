import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { axe, DESKTOP, launch, newPage, shot, type Chrome } from './browser.js';
import { createEncounter, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { addByForm, idOf, map, noteMatches, placeByTap } from './map-flow.js';
import { http, startServer, type TestServer } from './server.js';
import type { RulesetInfo } from '../../src/lib/types.js';

/**
 * A whole fight per ruleset on the battle map, by taps and clicks only (never the raw command
 * box): a GM on a laptop, two players (one on a 390 × 844 phone) and a spectator. Screenshots of
 * each main screen go to docs/screens/ (linked from docs/web.md).
 */
const PHONE = { width: 390, height: 844 };
const SCREENS = resolve(import.meta.dirname, '../../../../docs/screens');

describe('a fight on the battle map, by taps and clicks', () => {
  let srv: TestServer;
  let chrome: Chrome;
  let rulesets: RulesetInfo[] = [];
  const contexts: BrowserContext[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer({ reactionSeconds: 60 }), launch()]);
    rulesets = (await http<{ rulesets: RulesetInfo[] }>(srv.url, 'GET', '/rulesets')).rulesets;
    mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });

  const pages: Page[] = [];
  /** On a failure, what every page showed (apps/web/artifacts/fail-N.png). */
  async function failShots(): Promise<void> {
    const log = await pages[0]
      ?.evaluate(() => window.__frayLive?.getSnapshot().log.map((e) => `${e.seq} ${String(JSON.stringify(e.command ?? null)).slice(0, 160)} → ${e.events.map((x) => (x as { type: string }).type).join(',')}`))
      .catch(() => []);
    console.error(`GM log:\n${(log ?? []).join('\n')}`);
    for (const p of pages) console.error(`${p.url()}: ${await p.locator('[data-testid="map-note"]').first().textContent({ timeout: 500 }).catch(() => '-')}`);
    for (const [i, p] of pages.entries()) await p.screenshot({ path: join(resolve(import.meta.dirname, '../../artifacts'), `fail-${i}.png`), fullPage: true }).catch(() => undefined);
  }
  async function open(viewport = DESKTOP): Promise<Page> {
    const { context, page, errors } = await newPage(chrome.browser, viewport);
    contexts.push(context);
    pages.push(page);
    page.on('console', (m: ConsoleMessage) => {
      // the home page asks whether a session exists before sign-in: Chromium logs its 401 as a failed load
      const probe = new URL(page.url()).pathname === '/' && /status of 401/.test(m.text());
      if (m.type() === 'error' && !probe) consoleErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    void errors;
    page.on('dialog', (d) => void d.accept());
    return page;
  }

  /** A screenshot kept in docs/screens/ (and apps/web/artifacts/). */
  async function keep(page: Page, name: string, at = '[data-testid="map-panel"]'): Promise<void> {
    await shot(page, name);
    // the screen as the person sees it, the map (or `at`) in view
    await page.locator(at).first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(SCREENS, `${name}.png`) });
  }

  /** Until `pred` holds in the GM's state. */
  async function gmSees(gm: Page, pred: string, arg?: unknown): Promise<void> {
    await gm.waitForFunction(({ src, a }) => new Function('s', 'a', `return ${src}`)(window.__frayLive?.getSnapshot().state, a), { src: pred, a: arg });
  }

  it('action-round: squares, a provoking move, the opportunity attack on the phone, an attack by tapping the target, a condition, the end', async () => {
    try {
      await actionRound();
    } catch (e) {
      await failShots();
      throw e;
    }
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
    await map(gm).getByText(/Map size and walls/).click();
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
    for (const [p, l] of [[p1, p1link], [p2, p2link], [watcher, watchLink]] as const) {
      await p.goto(l);
      await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    }
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gmSees(gm, `s.status === 'active' && s.clock.current === a`, orc);
    await settle([p1, p2, watcher], gm);

    // The Orc (the GM's NPC) walks away from the Hero: the map shows where it can go, and that leaving provokes
    await map(gm).locator(`[data-token="${orc}"]`).click();
    await map(gm).getByRole('button', { name: /^Move: walk/ }).click();
    await noteMatches(gm, /Tap a highlighted square/);
    expect(await map(gm).locator('.cell.reach').count()).toBeGreaterThan(20);
    // a tap on the wall says why not, with the rule
    await map(gm).locator('[data-cell="5,1"]').click();
    expect(await noteMatches(gm, /Not there/)).toMatch(/wall.*map\.walls/);
    await map(gm).locator('[data-cell="6,2"]').click();
    expect(await noteMatches(gm, /square 6, 2: 3 squares/)).toMatch(/Provokes as you leave your starting square: Hero may react/);
    await keep(gm, 'gm-map-move-preview-desktop');
    await map(gm).getByRole('button', { name: /^Confirm/ }).click();

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
    await gm.getByTestId('turn-controls').getByRole('button', { name: /^End Orc's turn/ }).click();
    await gmSees(gm, 's.clock.current === a', hero);
    await settle([p1], gm);
    await keep(p1, 'player-map-phone');
    await map(p1).locator(`[data-token="${hero}"]`).click();
    await map(p1).getByRole('button', { name: /^Move: walk/ }).click();
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
    const report: string[] = [];
    for (const [name, page] of [['GM', gm], ['player (phone)', p1], ['player', p2], ['spectator', watcher]] as const) {
      for (const v of await axe(page)) report.push(`${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
    expect(report).toEqual([]);
    await keep(gm, 'gm-console-map-desktop');
    await keep(p2, 'player-map-desktop');
    await keep(watcher, 'spectator-map-desktop');
    void ally;

    // the end
    await gm.getByTestId('turn-controls').getByRole('button', { name: 'End combat' }).click();
    await gmSees(gm, `s.status === 'ended'`);
    await settle([p1, p2, watcher], gm);
    expect(consoleErrors).toEqual([]);
  }

  /**
   * The other rulesets: the same map, drawn from their own space. The GM places everyone, the
   * acting combatant moves by tapping (through the GM's map or the player's phone), the GM applies
   * a condition and ends the combat; screenshots of the map on the phone and the desktop.
   */
  const others: Array<[string, string, Record<string, string | boolean>]> = [
    ['ocv-phases', 'hexes', {}],
    ['action-points', 'squares', {}],
    ['legends', 'zones', {}],
  ];
  it.each(others)('%s: the map (%s), placement, a move by tapping, a condition, the end', async (id, kind) => {
    try {
      await otherRuleset(id, kind);
    } catch (e) {
      await failShots();
      throw e;
    }
  }, 180_000);

  async function otherRuleset(id: string, kind: string): Promise<void> {
    const info = rulesets.find((r) => r.id === id)!;
    const gm = await open();
    await signUp(gm, srv.url);
    await createEncounter(gm, `A fight of ${info.name}`, id, 5);
    await addByForm(gm, info, 'Hero', 'heroes');
    await addByForm(gm, info, 'Brute', 'foes');
    await addByForm(gm, info, 'Ally', 'heroes');
    if (kind === 'zones') {
      // a second zone from the GM command form (built from defineZone's schema)
      const f = gm.getByRole('form', { name: 'GM command' });
      await f.getByLabel('Command').selectOption('defineZone');
      await f.locator('[id="gmc-zone.id"]').fill('yard');
      await f.locator('[id="gmc-zone.name"]').fill('Courtyard');
      await f.locator('[id="gmc-zone.neighbors"]').fill('main');
      await f.getByRole('button', { name: /^Send/ }).click();
      await gmSees(gm, 's.rs.zones.yard && s.rs.zones.main.neighbors.includes("yard")');
      for (const [name, zone] of [['Hero', 'main'], ['Brute', 'yard'], ['Ally', 'main']] as const) {
        const cid = await idOf(gm, name);
        await map(gm).locator(`[data-token="${cid}"]`).first().click();
        await map(gm).locator(`[data-zone="${zone}"]`).getByRole('button', { name: /^Place .* here/ }).click();
        await gmSees(gm, 's.combatants[a[0]].position && s.combatants[a[0]].position.zone === a[1]', [cid, zone]);
      }
    } else {
      const at = (i: number) => (kind === 'hexes' ? `${i},1` : `${i},1`);
      await placeByTap(gm, 'Hero', at(1));
      await placeByTap(gm, 'Brute', at(6));
      await placeByTap(gm, 'Ally', kind === 'hexes' ? '1,3' : '1,3');
    }
    const hero = await idOf(gm, 'Hero');
    const p1 = await open(PHONE);
    const watcher = await open();
    await p1.goto(await inviteLink(gm, 'player', ['Hero']));
    await watcher.goto(await inviteLink(gm, 'spectator'));
    for (const p of [p1, watcher]) await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gmSees(gm, `s.status === 'active'`);
    await settle([p1, watcher], gm);

    // whoever acts moves by tapping; until then the GM takes the turn-order decisions or ends turns
    let moved = false;
    for (let i = 0; i < 25 && !moved; i++) {
      const s = (await liveState(gm)).state!;
      if (s.reaction) {
        await gm.getByTestId('reaction-window').getByRole('button', { name: /Resolve/ }).click();
        await gmSees(gm, 's.reaction === null');
        continue;
      }
      const cur = s.clock.current;
      const page = cur === hero ? p1 : gm;
      if (cur) {
        await settle([p1], gm);
        const token = map(page).locator(`[data-token="${cur}"]`).first();
        if (!(await token.getAttribute('aria-pressed').catch(() => null))?.includes('true')) await token.click();
        const moves = map(page).getByRole('group', { name: /^Move / }).getByRole('button');
        const found = await moves.first().waitFor({ timeout: 3000 }).then(() => true, () => false);
        if (found) {
          await moves.first().click();
          await noteMatches(page, /Tap a highlighted|Nowhere to go|Not there|not on the map/);
          const target = kind === 'zones' ? map(page).getByRole('button', { name: /^Go here$|^Engage|^Group with|^Go next to/ }).first() : map(page).locator('.cell.reach').first();
          if (await target.count()) {
            await target.click();
            await noteMatches(page, /Tap it again or press Confirm/);
            await keep(page, `${page === p1 ? 'player' : 'gm'}-${id}-move-preview-${page === p1 ? 'phone' : 'desktop'}`);
            await map(page).getByRole('button', { name: /^Confirm/ }).click();
            await noteMatches(page, /done/);
            moved = true;
            break;
          }
          await map(page).getByRole('button', { name: 'Cancel move' }).click();
        }
      }
      // a decision or the end of the turn, as the GM
      const decision = gm.getByTestId(`actions-${cur ?? ''}`).getByRole('button', { name: /^(Keep my place|Do not move|Stay)/ });
      if (cur && (await decision.count())) await decision.first().click();
      else if (cur) await gm.getByTestId('turn-controls').getByRole('button', { name: /^End .*'s turn$/ }).click();
      else break;
      await gm.waitForFunction((v) => (window.__frayLive?.getSnapshot().version ?? 0) > v, s.version);
    }
    expect(moved, `${id}: nobody could move by tapping`).toBe(true);
    await settle([p1, watcher], gm);

    const fx = gm.getByRole('form', { name: 'Apply a condition or effect' });
    await fx.getByLabel('Target').selectOption(hero);
    await fx.getByLabel('Condition or effect').fill('stunned');
    await fx.getByRole('button', { name: 'Apply' }).click();
    await gmSees(gm, 's.effects.some((e) => e.targetId === a)', hero);
    await settle([p1, watcher], gm);
    await keep(p1, `player-${id}-map-phone`);
    await keep(gm, `gm-${id}-map-desktop`);
    await keep(watcher, `spectator-${id}-map-desktop`);
    const report: string[] = [];
    for (const [name, page] of [['GM', gm], ['player (phone)', p1], ['spectator', watcher]] as const) {
      for (const v of await axe(page)) report.push(`${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
    expect(report).toEqual([]);
    await gm.getByTestId('turn-controls').getByRole('button', { name: 'End combat' }).click();
    await gmSees(gm, `s.status === 'ended'`);
    expect(consoleErrors).toEqual([]);
  }
});
