import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RulesetDisplay } from '@fray/engine';
import { axe, DESKTOP, launch, newPage, SCREENS, shot, type Chrome } from './browser.js';
import { liveState, settle } from './helpers.js';
import { http, startServer, type TestServer } from './server.js';
import type { RulesetInfo } from '../../src/lib/types.js';

/**
 * Issue 32, "what a GM and players see at a glance", in every ruleset: vitals in the turn order
 * change after the GM's damage, a player never sees an internal state field, the log tells an
 * attack in the game's words; screenshots of the phone and GM screens go to docs/screens/ with `FRAY_SCREENS=1`.
 */
const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, unknown> };
export const PHONE_390 = { width: 390, height: 844 };

const STATS: Record<string, Record<string, unknown>> = {
  legends: { DEX: 12, SPD: 10, STR: 11 },
  'ocv-phases': { combatValue: 5, stun: 24, endurance: 30 },
  'action-round': { defense: 2, toughness: 1 },
  'action-points': { hp: 12, weapons: [{ id: 'sword', name: 'Sword', category: 'one-handed', damage: '1d8' }] },
  freeform: { hp: 12 },
};
const POSITIONS: Record<string, unknown[]> = {
  'action-points': [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
  ],
  'action-round': [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
  ],
  'ocv-phases': [
    { q: 0, r: 0 },
    { q: 1, r: 0 },
  ],
};

describe('the table at a glance, in every ruleset', () => {
  let srv: TestServer;
  let chrome: Chrome;
  let rulesets: RulesetInfo[] = [];
  let token = '';
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer({ reactionSeconds: 30 }), launch()]);
    rulesets = (await http<{ rulesets: RulesetInfo[] }>(srv.url, 'GET', '/rulesets')).rulesets;
    token = (await http<{ token: string }>(srv.url, 'POST', '/accounts', { name: 'GM' })).token;
    mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await chrome?.close();
    await srv?.close();
  });

  async function open(viewport = DESKTOP): Promise<Page> {
    const { context, page } = await newPage(chrome.browser, viewport);
    contexts.push(context);
    return page;
  }

  /** The GM takes the first allowed attack on the other combatant (through the page's connection), ending turns until one is offered. */
  async function attack(gm: Page): Promise<string[]> {
    return gm.evaluate(async () => {
      const live = window.__frayLive!;
      for (let i = 0; i < 30; i++) {
        const s = live.getSnapshot().state!;
        const cur = s.clock.current;
        if (!cur) return [];
        const opts = await live.actions(cur);
        const atk = opts.find(
          (o) => o.allowed && /attack/i.test(`${o.label} ${o.action ?? ''}`) && o.params?.some((p) => p.kind === 'combatant'),
        );
        if (!atk) {
          await live.send({ type: 'turn.end', combatantId: cur });
          continue;
        }
        const other = Object.keys(s.combatants).find((id) => id !== cur)!;
        const target = atk.params!.find((p) => p.kind === 'combatant')!;
        const r = await live.send({ ...(atk.template ?? {}), type: atk.command, combatantId: cur, [target.name]: other });
        return r.ok ? (r.events as { type: string }[]).map((e) => e.type) : [`refused: ${r.error.message}`];
      }
      return [];
    });
  }

  /** The GM moves the fight on (ending turns, or taking a step without parameters) until `id` acts. */
  async function untilTurnOf(gm: Page, id: string): Promise<boolean> {
    return gm.evaluate(async (who) => {
      const live = window.__frayLive!;
      for (let i = 0; i < 60; i++) {
        const s = live.getSnapshot().state!;
        if (s.clock.current === who) return true;
        if (s.reaction) {
          await live.send({ type: 'reaction.resolve' });
          continue;
        }
        const cur = s.clock.current;
        if (cur) {
          const r = await live.send({ type: 'turn.end', combatantId: cur });
          if (r.ok) continue;
        }
        // no one acting, or the turn cannot end yet: the first allowed step without parameters
        let moved = false;
        for (const c of cur ? [cur] : Object.keys(s.combatants)) {
          const opts = await live.actions(c);
          const step = opts.find((o) => o.allowed && (o.params ?? []).every((p) => p.optional) && !/attack/i.test(o.label));
          if (step && (await live.send({ ...(step.template ?? {}), type: step.command, combatantId: c })).ok) {
            moved = true;
            break;
          }
        }
        if (!moved) return false;
      }
      return false;
    }, id);
  }

  it.each(Object.keys(registry))('%s: vitals, words, screens', async (id) => {
    const info = rulesets.find((r) => r.id === id)!;
    const display = info.display as RulesetDisplay;
    // a GM's encounter with a player's hero and an NPC (the HTTP API a GM's script would use)
    const enc = await http<{ id: string }>(
      srv.url,
      'POST',
      '/encounters',
      { name: `Bridge fight (${info.name})`, ruleset: id, seed: 7 },
      token,
    );
    const add = (name: string, side: string, i: number) =>
      http<{ combatantId?: string; id?: string }>(
        srv.url,
        'POST',
        `/encounters/${enc.id}/combatants`,
        { name, side, stats: STATS[id], ...(POSITIONS[id] ? { position: POSITIONS[id]![i] } : {}) },
        token,
      );
    await add('Aria', 'heroes', 0);
    await add('Brute', 'foes', 1);
    const full = await http<{ state: { combatants: Record<string, { id: string; name: string }> } }>(
      srv.url,
      'GET',
      `/encounters/${enc.id}`,
      undefined,
      token,
    );
    const ids = Object.fromEntries(Object.values(full.state.combatants).map((c) => [c.name, c.id]));
    const inv = await http<{ token: string }>(
      srv.url,
      'POST',
      `/encounters/${enc.id}/invites`,
      { role: 'player', combatantIds: [ids.Aria] },
      token,
    );

    const gm = await open();
    await gm.goto(`${srv.url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${srv.url}/gm/e/${enc.id}`);
    const player = await open(PHONE_390);
    await player.goto(`${srv.url}/play/${enc.id}#${inv.token}`);
    await player.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    await settle([player], gm);

    // "vitals change after damage": the GM damages the Brute in one action; the turn order shows it
    const vital = display.vitals.find((v) => v.adjustable)!;
    const brute = () => gm.getByTestId('turn-order').getByTestId(`vitals-${ids.Brute}`).getByTestId(`vital-${vital.key}`);
    const before = await brute().textContent();
    const card = gm.getByTestId(`combatant-${ids.Brute}`);
    // the vital's quick ±: the amount, then the button that harms (− for hit points, + for a damage track)
    await card.getByLabel(`Amount of ${vital.label} for Brute`).fill('2');
    await card.getByRole('button', { name: `Brute: ${vital.label} ${vital.direction === 'down' ? '−' : '+'}2 (damage)` }).click();
    await gm.waitForFunction(([sel, old]) => document.querySelector(sel)?.textContent !== old, [
      `[data-testid="turn-order"] [data-testid="vitals-${ids.Brute}"] [data-testid="vital-${vital.key}"]`,
      before,
    ] as const);
    const after = (await brute().textContent())!;
    const num = (t: string | null) => Number(/(-?\d+)/.exec(t ?? '')![1]);
    expect(num(after) - num(before)).toBe(vital.direction === 'down' ? -2 : 2);
    await settle([player], gm);
    // the player: numbers for their own hero, a bar and a word for the Brute when it has a maximum
    const playerBrute = player.getByTestId('turn-order').getByTestId(`vitals-${ids.Brute}`).getByTestId(`vital-${vital.key}`);
    if (vital.max !== undefined) {
      await expect(playerBrute.textContent()).resolves.not.toMatch(/\d+\/\d+/);
      const meter = playerBrute.getByRole('meter');
      expect(Number(await meter.getAttribute('aria-valuenow'))).toBeLessThan(100);
    }
    await expect(player.getByTestId('turn-order').getByTestId(`vitals-${ids.Aria}`).textContent()).resolves.toMatch(/\d/);
    // the damage is told in the log, in words
    await gm.getByTestId('story-log').locator('p').filter({ hasText: 'Brute' }).first().waitFor();

    // "no internal field shown to a player": no label on the player's page names an internal field
    const labels = await player.locator('dt').allTextContents();
    const internal = new Set(display.internal);
    expect(labels.filter((l) => internal.has(l) || [...internal].some((k) => l === k.split('.').pop()))).toEqual([]);
    expect(labels.filter((l) => /^[a-z]+[A-Z]\w*(\.\w+)?$|\.\w/.test(l))).toEqual([]);

    // "the log sentence for an attack", where an attack resolves
    if (id === 'action-points' || id === 'action-round') {
      const events = await attack(gm);
      expect(events).toContain(`${id}.attack-resolved`);
      await settle([player], gm);
      const line = player
        .getByTestId('story-log')
        .locator('p')
        .filter({ hasText: /(Aria|Brute) (hits|misses) (Aria|Brute)/ })
        .first();
      await line.waitFor();
      const text = (await line.textContent())!;
      if (id === 'action-points')
        expect(text).toMatch(
          /^(Aria|Brute) (hits (Aria|Brute): \d+ against AC \d+, \d+ damage\.|misses (Aria|Brute): \d+ against AC \d+\.)/,
        );
      else expect(text).toMatch(/^(Aria|Brute) (hits|misses) (Aria|Brute) \(close attack against defense \d+\)\./);
      // the roll beside it: formula, dice, total
      await expect(player.getByTestId('story-log').getByTestId('story-roll').first().textContent()).resolves.toMatch(
        /: .+ — (\d*d\d+.* \[.+\] = -?\d+|-?\d+)/,
      );
    }

    // "the your-turn view's height on the phone": at most two screens of 390x844, End my turn in reach
    expect(await untilTurnOf(gm, ids.Aria!)).toBe(true);
    await settle([player], gm);
    const turnCard = player.getByTestId('your-turn-card');
    await turnCard.getByRole('button', { name: 'End my turn' }).waitFor();
    // what to do in this phase, in the ruleset's words (action-points: declare, then end the turn)
    const phase = (await liveState(player)).state!.clock.phase;
    const hint = phase ? display.phaseHints?.[phase] : undefined;
    if (hint) expect(await turnCard.getByTestId('phase-hint').textContent()).toContain(hint);
    await turnCard.getByTestId(`actions-${ids.Aria}`).locator('.action-group').first().waitFor();
    // grouped by kind; with many, a search box finds one across the folded groups
    const groups = await turnCard.locator('.action-group > summary').allTextContents();
    expect(groups.length).toBeGreaterThan(0);
    // the ruleset's common actions first, the rest under "More actions" (kinds in words, no ids); 44-px headers
    if (id === 'action-round') {
      expect(await turnCard.locator('.common-actions li').count()).toBeGreaterThan(0);
      expect(groups.filter((g) => !/^Not possible now/.test(g))).toEqual([expect.stringMatching(/^More actions \(\d+\)$/)]);
      const labels = await turnCard.locator('.action-label').allTextContents();
      expect(labels.filter((l) => /: [a-z]+-[a-z]+/.test(l))).toEqual([]);
    }
    const heights = await turnCard
      .locator('.action-group > summary')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(heights.filter((h) => h < 44)).toEqual([]);
    await player.evaluate(() => window.scrollTo(0, 0));
    const bottom = await turnCard.evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
    console.log(`${id}: the your-turn turnCard ends ${Math.round(bottom)} px down the page (two screens: ${2 * PHONE_390.height})`);
    expect(bottom).toBeLessThanOrEqual(2 * PHONE_390.height);
    const end = await turnCard.getByRole('button', { name: 'End my turn' }).boundingBox();
    expect(end!.y + end!.height).toBeLessThanOrEqual(PHONE_390.height);
    await player.screenshot({ path: resolve(SCREENS, `${id}-phone-your-turn.png`) });

    // axe-core: no serious or critical violation on either page
    expect(await axe(gm)).toEqual([]);
    expect(await axe(player)).toEqual([]);

    await player.evaluate(() => window.scrollTo(0, 0));
    await gm.evaluate(() => window.scrollTo(0, 0));
    await player.screenshot({ path: resolve(SCREENS, `${id}-phone.png`) });
    await gm.screenshot({ path: resolve(SCREENS, `${id}-gm.png`) });
    await shot(player, `table-${id}-phone`);
    await shot(gm, `table-${id}-gm`);
    expect((await liveState(player)).state!.status).toBe('active');
  });
});
