import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from './browser.js';
import { chooseSide } from './gm-flow.js';
import { liveState } from './helpers.js';
import { http } from './server.js';
import { tableEnv } from './table-env.js';
import type { EncounterState } from '../../src/lib/types.js';

const PHONE_390 = { width: 390, height: 844 };
const DESKTOP_800 = { width: 1280, height: 800 };

/**
 * The GM's console run by taps and clicks (docs/web.md, "GM console"): whom to act for, in the
 * turn order with the fallen last and the hidden marked; a quick ± on every vital; "Damage or
 * healing?" after a hit the rules leave to the GM; a side the GM picks; a phone's one column.
 */
describe('the GM console', () => {
  const env = tableEnv();

  /** A GM account and a freeform encounter: Aria (heroes), the Brute, a hidden Scout and a Goblin (foes). */
  async function inn(): Promise<{ token: string; id: string; ids: Record<string, string> }> {
    const url = env.srv.url;
    const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'The inn brawl', ruleset: 'freeform', seed: 3 }, token);
    const ids: Record<string, string> = {};
    for (const [name, side, hp, hidden] of [
      ['Aria', 'heroes', 12, false],
      ['Brute', 'foes', 20, false],
      ['Scout', 'foes', 6, true],
      ['Goblin', 'foes', 5, false],
    ] as const) {
      const c = await http<{ id: string }>(url, 'POST', `/encounters/${enc.id}/combatants`, { name, side, hidden, stats: { hp } }, token);
      ids[name] = c.id;
    }
    return { token, id: enc.id, ids };
  }

  /** The GM's console, signed in with the account's token (traded for a session on the first visit). */
  async function gmConsole(token: string, id: string, viewport = DESKTOP_800): Promise<Page> {
    const gm = await env.open(viewport);
    await gm.goto(`${env.srv.url}/`);
    await gm.evaluate((t) => localStorage.setItem('fray.account', JSON.stringify({ accountId: null, token: t })), token);
    await gm.goto(`${env.srv.url}/gm/e/${id}`);
    await gm.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    return gm;
  }

  /** What the server holds (GET /encounters/:id, not the page's copy). */
  const held = async (token: string, id: string): Promise<EncounterState> =>
    (await http<{ state: EncounterState }>(env.srv.url, 'GET', `/encounters/${id}`, undefined, token)).state;
  const hpOf = async (token: string, id: string, cid: string): Promise<unknown> => (await held(token, id)).combatants[cid]!.data.hp;

  /** Until the page has seen a newer version than `v`. */
  const after = (p: Page, v: number) => p.waitForFunction((n) => (window.__frayLive?.getSnapshot().version ?? -1) > n, v);

  /** The quick ± of a vital on a combatant's card: the amount, then −N or +N. */
  async function step(gm: Page, name: string, vital: string, n: number, sign: '−' | '+'): Promise<void> {
    const g = gm.getByRole('group', { name: `${vital} of ${name}` });
    await g.getByRole('spinbutton').fill(String(n));
    const v = (await liveState(gm)).version;
    await g.getByRole('button', { name: `${name}: ${vital} ${sign}${n}`, exact: false }).click();
    await after(gm, v);
  }

  it('± on a vital changes what the server holds; Act for lists whoever acts first, the turn order from there, the hidden marked, the fallen last and dimmed', async () => {
    const { token, id, ids } = await inn();
    const gm = await gmConsole(token, id);
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');

    // −1, then −4 and +4 with the amount typed: Hit points of the Brute as the server holds them
    await step(gm, 'Brute', 'Hit points', 1, '−');
    expect(await hpOf(token, id, ids.Brute!)).toBe(19);
    await step(gm, 'Brute', 'Hit points', 4, '−');
    expect(await hpOf(token, id, ids.Brute!)).toBe(15);
    await step(gm, 'Brute', 'Hit points', 4, '+');
    expect(await hpOf(token, id, ids.Brute!)).toBe(19);
    // the Goblin falls (5 damage: 0 HP)
    await step(gm, 'Goblin', 'Hit points', 5, '−');
    expect(await hpOf(token, id, ids.Goblin!)).toBe(0);

    const { order, current } = (await held(token, id)).clock;
    const from = order.indexOf(current!);
    const expected = [...order.slice(from), ...order.slice(0, from)].filter((c) => c !== ids.Goblin).concat(ids.Goblin!);
    const list = gm.getByTestId('act-list');
    const shown = await list.locator('[data-testid^="act-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)));
    expect(shown).toEqual(expected);
    // whoever acts: first, marked, and picked
    const first = list.getByTestId(`act-${current}`);
    await expect(first.innerText()).resolves.toMatch(/^▶ .*acting now/s);
    await expect(first.getByRole('radio').isChecked()).resolves.toBe(true);
    // the hidden Scout says so; the fallen Goblin too, dimmed
    await expect(list.getByTestId(`act-${ids.Scout}`).innerText()).resolves.toContain('hidden');
    const goblin = list.getByTestId(`act-${ids.Goblin}`);
    await expect(goblin.innerText()).resolves.toContain('fallen');
    expect(Number(await goblin.evaluate((e) => getComputedStyle(e).opacity))).toBeLessThan(0.8);
    await shot(gm, 'console-act-for-desktop');
    // picking another shows its actions
    await list.getByTestId(`act-${ids.Brute}`).click();
    await expect(list.getByTestId(`act-${ids.Brute}`).getByRole('radio').isChecked()).resolves.toBe(true);
  });

  it("an NPC turn's result line goes with it: the next NPC's actions start clean", async () => {
    const { token, id } = await inn();
    const gm = await gmConsole(token, id);
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    const first = (await held(token, id)).clock.current!;
    const turn = gm.getByTestId('npc-turn');
    await turn.getByTestId(`actions-${first}`).getByRole('button', { name: 'End turn' }).click();
    await gm.waitForFunction((c) => window.__frayLive?.getSnapshot().state?.clock.current !== c, first);
    const next = (await held(token, id)).clock.current!;
    expect(next).not.toBe(first);
    await turn.getByTestId(`actions-${next}`).getByRole('button', { name: 'End turn' }).waitFor();
    expect(await turn.getByRole('status').count()).toBe(0);
    await expect(turn.innerText()).resolves.not.toContain('done.');
    await shot(gm, 'console-npc-next-turn-desktop');
    await gm.setViewportSize(PHONE_390);
    await shot(gm, 'console-npc-next-turn-phone');
  });

  it('after an attack the rules leave to the GM, the console asks "Damage or healing?": one click applies it, "Nothing" lets it go', async () => {
    const { token, id, ids } = await inn();
    const gm = await gmConsole(token, id, PHONE_390);
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await gm.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    const attack = (target: string) =>
      gm.evaluate(async (t) => {
        const live = window.__frayLive!;
        const cur = live.getSnapshot().state!.clock.current!;
        const r = await live.send({ type: 'act', combatantId: cur, kind: 'attack', description: 'a bottle to the head', targetId: t });
        return r.ok;
      }, target);
    // whoever acts attacks someone else
    const cur = (await held(token, id)).clock.current!;
    const target = cur === ids.Brute ? ids.Aria! : ids.Brute!;
    const name = target === ids.Brute ? 'Brute' : 'Aria';
    const before = Number(await hpOf(token, id, target));
    expect(await attack(target)).toBe(true);
    const ask = gm.getByRole('form', { name: `Damage or healing for ${name}` });
    await ask.waitFor();
    await expect(ask.innerText()).resolves.toMatch(new RegExp(`Damage or healing\\?.*attacks ${name}: a bottle to the head`, 's'));
    // at the top of a phone's screen, with the turn
    const box = await ask.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(844);
    await shot(gm, 'console-damage-asked-phone');
    // no amount: a clear complaint, nothing sent
    await ask.getByRole('button', { name: 'Damage', exact: true }).click();
    await expect(ask.getByRole('alert').innerText()).resolves.toMatch(/Give the amount of Hit points/);
    // the GM's laptop asks too
    const laptop = await gmConsole(token, id, DESKTOP_800);
    await laptop.getByRole('form', { name: `Damage or healing for ${name}` }).waitFor();
    await ask.getByRole('spinbutton').fill('6');
    const v = (await liveState(gm)).version;
    await ask.getByRole('button', { name: 'Damage', exact: true }).click();
    await after(gm, v);
    expect(await hpOf(token, id, target)).toBe(before - 6);
    await ask.waitFor({ state: 'detached' });
    // answered on the phone: the laptop stops asking (the target's vitals moved)
    await laptop.getByTestId('harm-ask').waitFor({ state: 'detached' });
    // another: the GM says it did nothing; nothing changes, the question goes
    expect(await attack(target)).toBe(true);
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Nothing' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await hpOf(token, id, target)).toBe(before - 6);
    // and does not come back after a reload
    await gm.reload();
    await gm.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await expect(gm.getByTestId('harm-ask').count()).resolves.toBe(0);
  });

  it('a new combatant’s side is chosen by the GM: no default; the sides by name, or a new one', async () => {
    const url = env.srv.url;
    const { token } = await http<{ token: string }>(url, 'POST', '/accounts', {});
    const enc = await http<{ id: string }>(url, 'POST', '/encounters', { name: 'Wolves', ruleset: 'freeform' }, token);
    const gm = await gmConsole(token, enc.id, PHONE_390);
    const form = gm.getByRole('form', { name: 'Add a combatant' });
    // the first: the side is named, nothing filled in for the GM
    await expect(form.getByLabel('Side *').inputValue()).resolves.toBe('');
    await form.getByLabel('Name *').fill('Aria');
    await form.locator('[id="add-stat-hp"]').fill('12');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await expect(form.getByRole('alert').first().innerText()).resolves.toMatch(/Side is required/);
    await chooseSide(form, 'heroes');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() => Object.keys(window.__frayLive?.getSnapshot().state?.combatants ?? {}).length === 1);
    // the next: a choice of the sides by name, none chosen
    const side = form.getByLabel('Side *');
    await expect(side.evaluate((e: HTMLSelectElement) => e.selectedOptions[0]!.text)).resolves.toBe('— choose a side —');
    expect(await side.locator('option').allInnerTexts()).toEqual(['— choose a side —', 'heroes', 'A new side…']);
    await form.getByLabel('Name *').fill('Grey wolf');
    await form.locator('[id="add-stat-hp"]').fill('9');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await expect(form.getByRole('alert').first().innerText()).resolves.toMatch(/Side is required: choose one/);
    expect(Object.keys((await held(token, enc.id)).combatants)).toHaveLength(1);
    await shot(gm, 'console-side-required-phone');
    await chooseSide(form, 'wolves');
    await form.getByRole('button', { name: 'Add combatant' }).click();
    await gm.waitForFunction(() => Object.keys(window.__frayLive?.getSnapshot().state?.combatants ?? {}).length === 2);
    const sides = Object.values((await held(token, enc.id)).combatants).map((c) => [c.name, c.side]);
    expect(sides).toEqual(
      expect.arrayContaining([
        ['Aria', 'heroes'],
        ['Grey wolf', 'wolves'],
      ]),
    );
    expect(await form.getByLabel('Side *').locator('option').allInnerTexts()).toEqual([
      '— choose a side —',
      'heroes',
      'wolves',
      'A new side…',
    ]);
  });

  it('on a 390 × 844 phone: one column, the turn first, the other sections folded (remembered); on a laptop two columns, open', async () => {
    const { token, id } = await inn();
    const phone = await gmConsole(token, id, PHONE_390);
    await phone.getByRole('button', { name: 'Start combat' }).click();
    await phone.waitForFunction(() => window.__frayLive?.getSnapshot().state?.status === 'active');
    const top = (p: Page, sel: string) => p.locator(sel).evaluate((e) => e.getBoundingClientRect());
    const turns = await top(phone, '#turns');
    // the turn comes right under the header, End X's turn in the first screen
    const end = await phone.getByRole('button', { name: /^End .*'s turn$/ }).boundingBox();
    expect(end!.y + end!.height).toBeLessThan(844);
    for (const sel of ['#act', '#combatants', '#dice', '#log']) {
      const r = await top(phone, sel);
      expect([sel, r.top > turns.top, Math.round(r.left)]).toEqual([sel, true, Math.round(turns.left)]);
    }
    for (const f of ['combatants', 'dice', 'gm-commands', 'log', 'effects'])
      await expect(phone.getByTestId(`fold-${f}`).getAttribute('open')).resolves.toBeNull();
    await shot(phone, 'console-fight-phone');
    // opened by a tap, and still open after a reload
    await phone.locator('#log summary').click();
    await expect(phone.getByTestId('fold-log').getAttribute('open')).resolves.toBe('');
    // the browser fires `toggle` a task after the tap: the choice is stored then (a reload before it would beat it)
    await phone.waitForFunction(
      () => (JSON.parse(localStorage.getItem('fray.console.folds') ?? '{}') as Record<string, boolean>).log === true,
    );
    await phone.reload();
    await phone.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await expect(phone.getByTestId('fold-log').getAttribute('open')).resolves.toBe('');
    await expect(phone.getByTestId('fold-dice').getAttribute('open')).resolves.toBeNull();

    const laptop = await gmConsole(token, id, DESKTOP_800);
    const [t, side] = [await top(laptop, '#turns'), await top(laptop, '#act')];
    // the turn order and Act for side by side; the tools in a column of their own
    expect(side.left).toBeGreaterThan(t.right - 1);
    expect(Math.abs(side.top - t.top)).toBeLessThan(30);
    const [cards, dice] = [await top(laptop, '#combatants'), await top(laptop, '#dice')];
    expect(dice.left).toBeGreaterThan(cards.right - 1);
    for (const f of ['combatants', 'dice', 'log']) await expect(laptop.getByTestId(`fold-${f}`).getAttribute('open')).resolves.toBe('');
    await shot(laptop, 'console-fight-desktop');
  });
});
