import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launch, newPage, PHONE, shot, type Chrome } from './browser.js';
import { chooseSide, createEncounter, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { http, startServer, type TestServer } from './server.js';
import type { EncounterState, RulesetInfo } from '../../src/lib/types.js';
import { fieldsOf } from '../../src/lib/schema-form.js';

/**
 * One round of every other ruleset the server offers, played through the web client only:
 * a GM (who also runs an NPC) and a player on a phone. The UI is generic, so the same steps work
 * for every ruleset: whoever must act takes an allowed action without parameters when the turn
 * needs one (a decision, a phase step) and then ends the turn.
 */
const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, unknown> };
const otherIds = Object.keys(registry).filter((id) => id !== 'legends');

describe('one round of each other ruleset in the browser', () => {
  let srv: TestServer;
  let chrome: Chrome;
  let rulesets: RulesetInfo[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [srv, chrome] = await Promise.all([startServer({ reactionSeconds: 30 }), launch()]);
    rulesets = (await http<{ rulesets: RulesetInfo[] }>(srv.url, 'GET', '/rulesets')).rulesets;
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

  /** A valid value for each required stat: 10 clamped to the schema's range, or its first choice. */
  async function fillStats(page: Page, info: RulesetInfo): Promise<void> {
    const form = page.getByRole('form', { name: 'Add a combatant' });
    for (const f of fieldsOf(info.stats.schema, info.stats.docs)) {
      if (!f.required) continue;
      const input = form.locator(`[id="add-stat-${f.name}"]`);
      if (f.kind === 'integer' || f.kind === 'number') await input.fill(String(Math.min(f.max ?? 10, Math.max(f.min ?? 0, 10))));
      else if (f.kind === 'select') await input.selectOption(f.choices![0]!);
      else if (f.kind === 'text') await input.fill('x');
      else if (f.kind === 'list') await input.fill('x');
      else if (f.kind === 'json') await input.fill('[]');
    }
  }

  async function add(page: Page, info: RulesetInfo, name: string, side: string): Promise<void> {
    const form = page.getByRole('form', { name: 'Add a combatant' });
    await form.getByLabel('Name *').fill(name);
    await chooseSide(form, side);
    await fillStats(page, info);
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

  const preferred = [/^Keep my place/, /^Do not move/];

  let gmPage: Page | null = null;
  it.each(otherIds)(
    'plays a round of %s',
    async (id) => {
      const info = rulesets.find((r) => r.id === id)!;
      if (!gmPage) {
        gmPage = await open();
        await signUp(gmPage, srv.url);
      }
      const gm: Page = gmPage;
      const report: string[] = [];
      {
        await gm.goto(`${srv.url}/gm`);
        await createEncounter(gm, `A round of ${info.name}`, info.id, 7);
        await add(gm, info, 'Hero', 'heroes');
        await add(gm, info, 'Brute', 'foes');
        const link = await inviteLink(gm, 'player', ['Hero']);
        const player = await open(PHONE);
        await player.goto(link);
        await player.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
        await gm.getByRole('button', { name: 'Start combat' }).click();
        await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
        await settle([player], gm);
        const start = (await liveState(gm)).state!.clock.round;
        const trace: string[] = [];
        const playerId = (await liveState(player)).playerId;

        const click = async (page: Page, name: RegExp | string, scope?: string) => {
          const before = (await liveState(gm)).version;
          const root = scope ? page.getByTestId(scope) : page;
          await root.getByRole('button', { name }).first().click();
          const moved = gm
            .waitForFunction((v) => (window.__frayLive?.getSnapshot().version ?? -1) > v, before, { timeout: 5000 })
            .then(
              () => 'ok',
              () => 'no change',
            );
          const failed = page
            .getByRole('alert')
            .first()
            .waitFor({ timeout: 5000 })
            .then(
              async () => `refused: ${(await page.getByRole('alert').first().textContent()) ?? ''}`,
              () => 'no change',
            );
          const r = await Promise.race([moved, failed]);
          await settle([player], gm);
          return r;
        };

        for (let i = 0; i < 40; i++) {
          const s: EncounterState = (await liveState(gm)).state!;
          if (s.clock.round > start || s.status !== 'active') break;
          const w = s.reaction;
          if (w) {
            const who = w.eligible.find((id) => w.responses[id] === 'pending');
            const mine = who && s.combatants[who]?.controller === playerId;
            trace.push(`reaction ${w.kind}: ${mine ? 'player passes' : 'GM resolves'}`);
            if (mine) await click(player, /^Pass/, `actions-${who}`);
            else await click(gm, /Resolve/, 'reaction-window');
            continue;
          }
          const cur = s.clock.current;
          if (!cur) throw new Error(`${info.id}: nobody acts in phase ${s.clock.phase} (round ${s.clock.round})`);
          const isPlayer = s.combatants[cur]?.controller === playerId;
          for (const p of [gm, player]) for (const b of await p.getByRole('button', { name: 'Dismiss error' }).all()) await b.click();
          const page = isPlayer ? player : gm;
          if (!isPlayer) await gm.getByTestId('act-list').getByTestId(`act-${cur}`).click();
          const panel = page.getByTestId(`actions-${cur}`);
          await panel.waitFor();
          await page.waitForFunction(
            (id) => !document.querySelector(`[data-testid="actions-${id}"]`)?.textContent?.includes('Loading'),
            cur,
          );
          const allowed = (await panel.locator('li:not(.blocked) button .action-label').allTextContents()).map((x) => x.trim());
          const pick = preferred.map((re) => allowed.find((a) => re.test(a))).find(Boolean);
          const who = `${s.combatants[cur]!.name} (${s.clock.phase ?? '-'})`;
          if (pick) {
            trace.push(
              `${who}: ${pick} → ${await click(page, new RegExp(`^${pick.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), `actions-${cur}`)}`,
            );
            continue;
          }
          const end = isPlayer ? await click(player, 'End my turn') : await click(gm, /^End .*'s turn$/, 'turn-controls');
          trace.push(`${who}: end turn → ${end} [allowed: ${allowed.join(' | ')}]`);
          if (end !== 'ok') throw new Error(`${info.id}: ${trace.join('\n')}`);
        }
        const s = (await liveState(gm)).state!;
        report.push(`${info.id}:\n  ${trace.join('\n  ')}`);
        expect(s.clock.round, `${info.id}\n${trace.join('\n')}`).toBe(start + 1);
        // the player's page shows the same clock as the GM's
        const ps = (await liveState(player)).state!;
        expect(ps.clock.round).toBe(s.clock.round);
        if (id === 'action-points') {
          // a reaction window for the player: the GM rules that the Brute provokes from the Hero,
          // with the GM tools form (provokers ticked by name, no JSON)
          const ids = Object.fromEntries(Object.values(s.combatants).map((c) => [c.name, c.id]));
          const gmc = gm.getByRole('form', { name: 'GM command' });
          await gmc.getByLabel('Command').selectOption('provoke');
          await gmc.locator('[id="gmc-combatantId"]').selectOption(ids.Brute!);
          await gmc.getByRole('group', { name: /^From/ }).getByLabel('Hero').check();
          await gmc.locator('[id="gmc-reason"]').fill('The Brute dashes past');
          const send = gmc.getByRole('button', { name: 'Send: Provoke' });
          await send.click();
          const outcome = await Promise.race([
            gm
              .getByText('Provoke: done.')
              .waitFor()
              .then(() => 'ok'),
            gm
              .getByRole('alert')
              .first()
              .waitFor()
              .then(async () => (await gm.getByRole('alert').first().textContent()) ?? ''),
          ]);
          expect(outcome).toBe('ok');
          const prompt = player.getByTestId('reaction-prompt');
          await prompt.waitFor();
          await expect(prompt.textContent()).resolves.toMatch(/You may react.*\d+s left.*The Brute dashes past/s);
          await expect(prompt.getByRole('timer').getAttribute('aria-label')).resolves.toMatch(/Time left to react: \d+ seconds left/);
          await gm.getByTestId('reaction-window').waitFor();
          await shot(player, 'player-reaction-phone');
          await shot(gm, 'gm-reaction-desktop');
          await prompt.getByRole('button', { name: /^Pass/ }).click();
          await prompt.waitFor({ state: 'detached' });
          await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.reaction === null);
          // again, and this time the GM closes the window without waiting for the player
          await send.click();
          await prompt.waitFor();
          await gm.getByTestId('reaction-window').getByRole('button', { name: 'Resolve / skip the reaction window' }).click();
          await prompt.waitFor({ state: 'detached' });
          await gm
            .getByTestId('story-log')
            .getByText(/does not react\./)
            .first()
            .waitFor();
        }
        await shot(player, `player-${info.id}-phone`);
        await shot(gm, `gm-console-${info.id}-desktop`);
        await player.context().close();
      }
    },
    90_000,
  );
});
