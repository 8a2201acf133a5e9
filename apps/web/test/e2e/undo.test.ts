import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from './browser.js';
import { actionPointsDuel, liveState, settle } from './helpers.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';

const PHONE_390 = { width: 390, height: 844 };
const DESKTOP_800 = { width: 1280, height: 800 };

/** What a page renders from: its version, branch and state (the live connection's snapshot). */
const view = (p: Page) =>
  p.evaluate(() => {
    const s = window.__frayLive!.getSnapshot();
    return { version: s.version, branch: s.branch, state: s.state, log: s.log.map((e) => e.seq) };
  });

/**
 * Issue 36, "Undo the last command is one click in the GM console — a button with a confirm that
 * says what will be undone in the game's words", and "every client converges at once" (docs/timeline.md).
 */
describe('undo in the GM console', () => {
  const env = tableEnv();

  it('undoes an attack: the confirm tells it in the log’s words; the GM, a player and a spectator all go back to the state before it', async () => {
    const url = env.srv.url;
    const { token, enc, a } = await actionPointsDuel(url, { x: 1, y: 0 });
    const inv = await http<{ token: string }>(
      url,
      'POST',
      `/encounters/${enc.id}/invites`,
      { role: 'player', combatantIds: [a.id] },
      token,
    );
    const spec = await http<{ token: string }>(url, 'POST', `/encounters/${enc.id}/invites`, { role: 'spectator' }, token);

    const gm = await env.open(DESKTOP_800);
    await gm.goto(`${url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${url}/gm/e/${enc.id}`);
    const player = await env.open(PHONE_390);
    await player.goto(`${url}/play/${enc.id}#${inv.token}`);
    const watcher = await env.open(PHONE_390);
    await watcher.goto(`${url}/play/${enc.id}#${spec.token}`);
    for (const p of [player, watcher]) await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    // turns go by until the one acting can attack (action points: not every turn offers it)
    const ready = await gm.evaluate(async () => {
      const live = window.__frayLive!;
      for (let i = 0; i < 30; i++) {
        const cur = live.getSnapshot().state!.clock.current!;
        const opts = await live.actions(cur);
        if (opts.some((o) => o.allowed && /attack/i.test(`${o.label} ${o.action ?? ''}`) && o.params?.some((p) => p.kind === 'combatant')))
          return true;
        await live.send({ type: 'turn.end', combatantId: cur });
      }
      return false;
    });
    expect(ready).toBe(true);
    await settle([player, watcher], gm);
    const before = { gm: await view(gm), player: await view(player), watcher: await view(watcher) };

    // the attack, as the acting combatant (through the GM's connection)
    const events = await gm.evaluate(async () => {
      const live = window.__frayLive!;
      const s = live.getSnapshot().state!;
      const cur = s.clock.current!;
      const atk = (await live.actions(cur)).find(
        (o) => o.allowed && /attack/i.test(`${o.label} ${o.action ?? ''}`) && o.params?.some((p) => p.kind === 'combatant'),
      )!;
      const other = Object.keys(s.combatants).find((id) => id !== cur)!;
      const target = atk.params!.find((p) => p.kind === 'combatant')!;
      const r = await live.send({ ...(atk.template ?? {}), type: atk.command, combatantId: cur, [target.name]: other });
      return r.ok ? (r.events as { type: string }[]).map((e) => e.type) : [`refused: ${r.error.message}`];
    });
    expect(events).toContain('action-points.attack-resolved');
    const attacked = await settle([player, watcher], gm);
    expect(attacked).toBe(before.gm.version + 1);
    // the attack's sentence, as the log tells it
    const told = (await gm.getByTestId('story-log').locator('li').first().innerText()).split('\n')[0]!;
    expect(told).toMatch(/Aria|Brute/);

    const headerBefore = (await gm.locator('.topbar').first().boundingBox())!.height;
    await gm.getByTestId('undo').click();
    const confirm = gm.getByTestId('undo-confirm');
    // a popover over the page: the header keeps its height
    await confirm.waitFor();
    expect((await gm.locator('.topbar').first().boundingBox())!.height).toBe(headerBefore);
    expect(await confirm.getByTestId('undo-what').innerText()).toContain(told);
    await shot(gm, 'undo-confirm-gm-1280');
    await gm.setViewportSize(PHONE_390);
    await shot(gm, 'undo-confirm-gm-390');
    await confirm.getByTestId('undo-yes').click();

    // every page converges at once on the state before the attack, on the new branch
    for (const p of [gm, player, watcher])
      await p.waitForFunction(
        (v) => window.__frayLive!.getSnapshot().version === v && window.__frayLive!.getSnapshot().branch === 1,
        before.gm.version,
      );
    const after = { gm: await view(gm), player: await view(player), watcher: await view(watcher) };
    for (const k of ['gm', 'player', 'watcher'] as const) {
      expect(after[k].state).toEqual(before[k].state);
      expect(after[k].log.every((s) => s <= before.gm.version)).toBe(true);
    }
    await gm.getByText(/Undone: .*Aria/).waitFor();
    // every player and spectator reads it in their log, in the game's words (what they saw of it)
    for (const p of [player, watcher])
      await p
        .getByTestId('rewind-line')
        .filter({ hasText: /^The GM undid the last action: .*(Aria|Brute)/ })
        .waitFor();
    await player.getByTestId('rewind-line').scrollIntoViewIfNeeded();
    await shot(player, 'undo-after-player-390');
    // the game goes on from there for everyone (commands carry the new branch)
    const ended = await gm.evaluate(async () => {
      const live = window.__frayLive!;
      return (await live.send({ type: 'turn.end', combatantId: live.getSnapshot().state!.clock.current! })).ok;
    });
    expect(ended).toBe(true);
    expect(await settle([player, watcher], gm)).toBe(before.gm.version + 1);
    expect((await liveState(player)).state?.clock.current).toBe((await liveState(gm)).state?.clock.current);

    // "Fork from here…": a new encounter from a chosen moment (default now); the GM opens its console
    await gm.setViewportSize(DESKTOP_800);
    await gm.getByTestId('fork').click();
    const form = gm.getByTestId('fork-form');
    const moment = form.getByTestId('fork-version');
    expect(await moment.inputValue()).toBe(String(before.gm.version + 1));
    await moment.fill('9999');
    await form.getByText(/Choose a moment from 0 \(the start\)/).waitFor();
    expect(await form.getByTestId('fork-yes').isDisabled()).toBe(true);
    await moment.fill(String(before.gm.version));
    await form
      .getByTestId('fork-moment')
      .filter({ hasText: `Moment ${before.gm.version}` })
      .waitFor();
    await shot(gm, 'fork-form-gm-1280');
    await gm.setViewportSize(PHONE_390);
    await shot(gm, 'fork-form-gm-390');
    await form.getByTestId('fork-yes').click();
    await gm.getByTestId('fork-open').click();
    await gm.waitForURL((u) => u.pathname.startsWith('/gm/e/') && !u.pathname.endsWith(enc.id));
    await gm.waitForFunction(
      (v) =>
        window.__frayLive?.getSnapshot().state?.name === `Bridge fight (from version ${v})` &&
        window.__frayLive.getSnapshot().version === v,
      before.gm.version,
    );
    expect((await liveState(gm)).state?.combatants).toEqual(before.gm.state?.combatants);
    await shot(gm, 'fork-opened-gm-390');
  }, 120_000);
});
