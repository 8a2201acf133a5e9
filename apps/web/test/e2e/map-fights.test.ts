import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createEncounter, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { addByForm, idOf, map, noteMatches, placeByTap } from './map-flow.js';
import { mapSession, PHONE, withFailShots, type MapSession } from './map-session.js';
import type { EncounterState } from '../../src/lib/types.js';

/**
 * A whole fight of `ocv-phases` (hexes) and `action-points` (squares) on the battle map, by taps
 * and clicks only (never the raw command box): a GM on a laptop, two players (the Hero's on a
 * 390 × 844 phone) and a spectator. Movement by tapping, an attack whose target is a tapped
 * token, an attack of opportunity provoked by the GM's NPC leaving the Hero's reach and answered
 * with the prompt on the Hero's phone, a condition from the GM's form, the end. `legends` is in
 * map-legends.test.ts; `action-round` in map.test.ts.
 */
type Pos = { x?: number; y?: number; q?: number; r?: number };
/** Squares: one square in any direction (diagonals too); hexes (axial q, r): one hex. */
function distance(kind: string, a: Pos, b: Pos): number {
  if (kind === 'hexes') {
    const dq = a.q! - b.q!;
    const dr = a.r! - b.r!;
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }
  return Math.max(Math.abs(a.x! - b.x!), Math.abs(a.y! - b.y!));
}
const parse = (kind: string, k: string): Pos => {
  const [a, b] = k.split(',').map(Number) as [number, number];
  return kind === 'hexes' ? { q: a, r: b } : { x: a, y: b };
};

const fights: Array<[string, string, RegExp]> = [
  ['ocv-phases', 'hexes', /^Strike$/],
  ['action-points', 'squares', /^Attack$/],
];
/** Stats beyond the required ones, so that nobody starts out cold (ocv-phases: STUN and END pools). */
const EXTRA: Record<string, Record<string, string>> = { 'ocv-phases': { stun: '24', endurance: '30' } };

describe('a whole fight on the battle map, by taps and clicks', () => {
  let s: MapSession;
  beforeAll(async () => {
    s = await mapSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each(fights)(
    '%s (%s): moves by tapping, an attack on a tapped token, an attack of opportunity on the phone, a condition, the end',
    async (id, kind, attackLabel) => {
      await withFailShots(s, () => fight(id, kind, attackLabel));
    },
    300_000,
  );

  /**
   * Whether the map offers `name` a move whose button matches `label` now (selecting its token
   * first); with `press`, starts that move.
   */
  async function moveButton(page: Page, cid: string, name: string, label: RegExp, press = false): Promise<boolean> {
    const token = map(page).locator(`[data-token="${cid}"]`).first();
    if ((await token.getAttribute('aria-pressed')) !== 'true') await token.click();
    const b = map(page)
      .getByRole('group', { name: `Move ${name}` })
      .getByRole('button', { name: label })
      .first();
    const there = await b.waitFor({ timeout: 1500 }).then(
      () => true,
      () => false,
    );
    if (there && press) await b.click();
    return there;
  }

  async function fight(id: string, kind: string, attackLabel: RegExp): Promise<void> {
    const info = s.rulesets.find((r) => r.id === id)!;
    const gm = await s.open();
    await signUp(gm, s.srv.url);
    await createEncounter(gm, `A fight of ${info.name}`, id, 5);
    // setup: no Start before a combatant exists (and why), no End combat; then the roster before the turn order exists
    expect(await gm.getByRole('button', { name: 'Start combat' }).isDisabled()).toBe(true);
    await gm.getByText('Add combatants first').waitFor();
    expect(await gm.getByTestId('turn-controls').getByRole('button', { name: 'End combat' }).count()).toBe(0);
    for (const [name, side] of [
      ['Hero', 'heroes'],
      ['Brute', 'foes'],
      ['Ally', 'heroes'],
    ])
      await addByForm(gm, info, name!, side!, EXTRA[id]);
    // the GM places everyone by tapping the map: the Brute next to the Hero
    expect(await gm.getByTestId('setup-roster').textContent()).toMatch(/Hero.*Brute.*Ally/);
    await placeByTap(gm, 'Hero', '2,2');
    await placeByTap(gm, 'Brute', '3,2');
    await placeByTap(gm, 'Ally', '2,5');
    const [hero, brute] = [await idOf(gm, 'Hero'), await idOf(gm, 'Brute')];
    const p1 = await s.open(PHONE);
    const p2 = await s.open();
    const watcher = await s.open();
    const links = [await inviteLink(gm, 'player', ['Hero']), await inviteLink(gm, 'player', ['Ally']), await inviteLink(gm, 'spectator')];
    for (const [i, p] of [p1, p2, watcher].entries()) {
      await p.goto(links[i]!);
      await p.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    }
    await gm.getByRole('button', { name: 'Start combat' }).click();
    await s.gmSees(gm, `s.status === 'active'`);
    await settle([p1, p2, watcher], gm);
    // a player whose turn it is not is told when it comes
    const ally = await idOf(gm, 'Ally');
    if ((await liveState(gm)).state!.clock.current !== ally)
      expect(await p2.getByTestId('up-next').textContent()).toMatch(
        /^(You're next \(Ally\)|Ally acts after .+ \(\d+(st|nd|rd|th) from now\))\.$/,
      );
    // on a desktop the turn order is at the top left, next to the map; the invite links fold away once combat starts
    const [turns, board] = [(await gm.locator('#turns').boundingBox())!, (await map(gm).boundingBox())!];
    expect(turns.x + turns.width).toBeLessThanOrEqual(board.x);
    expect(Math.abs(turns.y - board.y)).toBeLessThan(40);
    expect(await gm.getByTestId('invites-details').getAttribute('open')).toBeNull();
    const everyone = [p1, p2, watcher];
    const changed = async (v: number) => {
      await gm.waitForFunction((x) => (window.__frayLive?.getSnapshot().version ?? 0) > x, v);
      await settle(everyone, gm);
    };

    const done = { attacked: false, provoked: false, reacted: false };
    const trace: string[] = [];
    for (let i = 0; i < 40; i++) {
      const st: EncounterState = (await liveState(gm)).state!;
      // (an attack may open a window of its own first: an unarmed attack provokes from its target)
      if (done.attacked && done.reacted && !st.reaction) break;
      const at = (c: string) => st.combatants[c]!.position as Pos;
      const w = st.reaction;
      if (w) {
        if (w.eligible.includes(hero) && w.responses[hero] === 'pending') {
          // the Hero's player answers on the phone: the prompt, its countdown, the attack of opportunity
          trace.push(`${w.kind}: the Hero's player attacks`);
          const prompt = p1.getByTestId('reaction-prompt');
          await prompt.waitFor();
          expect(await prompt.getByRole('timer').count()).toBe(1);
          // the window in the ruleset's words, not its rule id ("action-points.attack-of-opportunity")
          if (w.kind.endsWith('.attack-of-opportunity'))
            expect(await prompt.getByRole('paragraph').first().textContent()).toContain('(Attack of opportunity)');
          expect(await prompt.textContent()).not.toContain(w.kind);
          expect(await gm.getByTestId('reaction-window').textContent()).not.toContain(w.kind);
          await s.keep(p1, `player-${id}-reaction-phone`, '[data-testid="reaction-prompt"]');
          await s.keep(watcher, `spectator-${id}-reaction-desktop`);
          await prompt
            .getByRole('button', { name: /^Attack of opportunity/ })
            .first()
            .click();
          const doIt = prompt.getByRole('button', { name: /^Do it: Attack of opportunity/ });
          if (
            await doIt.waitFor({ timeout: 2000 }).then(
              () => true,
              () => false,
            )
          )
            await doIt.click();
          await prompt.waitFor({ state: 'detached' });
          done.reacted = true;
        } else {
          trace.push(`${w.kind}: the GM resolves`);
          if (st.clock.current === hero && w.responses[brute] === 'pending') {
            // the player waits, in words, and cannot end the turn; the GM has the Brute's reactions in the window
            await p1.getByTestId('waiting-note').filter({ hasText: 'Waiting for the GM: Brute may react.' }).waitFor();
            expect(await p1.getByRole('button', { name: 'End my turn' }).isDisabled()).toBe(true);
            expect(await gm.getByTestId(`npc-reaction-${brute}`).getByRole('button').count()).toBeGreaterThan(0);
          }
          await gm
            .getByTestId('reaction-window')
            .getByRole('button', { name: /Resolve/ })
            .click();
        }
        await changed(st.version);
        continue;
      }
      const cur = st.clock.current;
      if (!cur) throw new Error(`${id}: nobody acts (${trace.join('; ')})`);
      const near = distance(kind, at(hero), at(brute)) === 1;
      if (cur === brute && !done.provoked && near && (await moveButton(gm, brute, 'Brute', /may provoke/))) {
        // the GM's Brute walks away from the Hero: the preview says that leaving provokes
        trace.push('the Brute leaves the Hero (provokes)');
        await moveButton(gm, brute, 'Brute', /may provoke/, true);
        await noteMatches(gm, /Tap a highlighted/);
        const reach = await map(gm)
          .locator('.cell.reach')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')!));
        const away = reach.find((k) => distance(kind, parse(kind, k), at(hero)) === 2);
        expect(away, `${id}: a cell two away from the Hero among ${reach.join(' ')}`).toBeTruthy();
        await map(gm).locator(`[data-cell="${away}"]`).click();
        expect(await noteMatches(gm, /Tap it again or press Confirm/)).toMatch(/[Pp]rovoke/);
        await s.keep(gm, `gm-${id}-move-preview-desktop`);
        await map(gm)
          .getByRole('button', { name: /^Confirm/ })
          .click();
        done.provoked = true;
        await changed(st.version);
        continue;
      }
      const attack = p1
        .getByTestId(`actions-${hero}`)
        .locator('li:not(.blocked) button', { has: p1.locator('.action-label', { hasText: attackLabel }) });
      if (cur === hero && !done.attacked && (near ? await attack.count() : await moveButton(p1, hero, 'Hero', /./))) {
        if (!near) {
          // the Hero's player taps the Hero, a move, then a square next to the Brute (twice: preview, then go)
          trace.push('the Hero walks up to the Brute');
          await moveButton(p1, hero, 'Hero', /./, true);
          await noteMatches(p1, /Tap a highlighted/);
          const reach = await map(p1)
            .locator('.cell.reach')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')!));
          const next = reach.find((k) => distance(kind, parse(kind, k), at(brute)) === 1);
          expect(next, `${id}: a cell next to the Brute among ${reach.join(' ')}`).toBeTruthy();
          await map(p1).locator(`[data-cell="${next}"]`).click();
          await noteMatches(p1, /Tap it again or press Confirm/);
          await s.keep(p1, `player-${id}-move-preview-phone`);
          await map(p1).locator(`[data-cell="${next}"]`).click();
          await noteMatches(p1, /done/);
          await changed(st.version);
          continue;
        }
        // the attack: its button in the your-turn card, the target by tapping the Brute's token
        trace.push('the Hero attacks the Brute');
        const actions = p1.getByTestId(`actions-${hero}`);
        const find = actions.getByLabel(/^Find an action/);
        if (await find.count()) await find.fill(attackLabel.source.replace(/[$^]/g, ''));
        await attack.first().click();
        await map(p1).locator(`[data-token="${brute}"]`).click();
        expect(
          await actions
            .getByLabel(/^Target/)
            .first()
            .inputValue(),
        ).toBe(brute);
        await actions.getByRole('button', { name: /^Do it/ }).click();
        // what it did, in the game's words, in the your-turn card (not "Attack done.")
        const result = p1.getByTestId('your-turn-card').getByTestId('action-done');
        await result.filter({ hasText: 'Brute' }).waitFor();
        expect(await result.textContent()).not.toMatch(/done\.$/);
        done.attacked = true;
        await changed(st.version);
        continue;
      }
      // a decision or the end of the turn: the player's own button on their turn, else the GM's
      trace.push(`${st.combatants[cur]!.name}: ends the turn`);
      const decision = gm.getByTestId(`actions-${cur}`).getByRole('button', { name: /^(Keep my place|Do not move|Stay)/ });
      if (cur === hero) await p1.getByRole('button', { name: 'End my turn' }).click();
      else if (st.combatants[cur]!.name === 'Ally') await p2.getByRole('button', { name: 'End my turn' }).click();
      else if (await decision.count()) await decision.first().click();
      else if (!st.reaction && st.combatants[cur]!.controller === null) {
        // an NPC's turn: its actions in the console's first screen, under the turn order
        expect(await gm.locator('#turns').getByTestId(`actions-${cur}`).count()).toBe(1);
        await gm
          .getByTestId('turn-controls')
          .getByRole('button', { name: /^End .*'s turn$/ })
          .click();
      } else
        await gm
          .getByTestId('turn-controls')
          .getByRole('button', { name: /^End .*'s turn$/ })
          .click();
      await changed(st.version);
    }
    expect(done, `${id}: ${trace.join('; ')}`).toEqual({ attacked: true, provoked: true, reacted: true });
    // the server took both: the Hero's attack on the Brute and its attack of opportunity
    const events = await gm.evaluate(() =>
      (window.__frayLive?.getSnapshot().log ?? []).flatMap((e) => e.events as Array<Record<string, unknown>>),
    );
    expect(events.filter((e) => /\.attack-resolved$/.test(String(e.type)) && e.combatantId === hero && e.targetId === brute)).toHaveLength(
      2,
    );

    // a condition from the GM's form; everyone's map shows it as a badge
    const fx = gm.getByRole('form', { name: 'Apply a condition or effect' });
    await fx.getByLabel('Target').selectOption(brute);
    await fx.getByLabel('Condition or effect').fill('prone');
    await fx.getByRole('button', { name: 'Apply' }).click();
    await s.gmSees(gm, 's.effects.some((e) => e.targetId === a)', brute);
    await settle(everyone, gm);
    await watcher.locator(`[data-token="${brute}"] + .token-text .token-badge`).first().waitFor();
    expect(
      await s.axeReport([
        ['GM', gm],
        ['player (phone)', p1],
        ['player', p2],
        ['spectator', watcher],
      ]),
    ).toEqual([]);
    await s.keep(p1, `player-${id}-map-phone`);
    await s.keep(gm, `gm-${id}-map-desktop`);
    await s.keep(watcher, `spectator-${id}-map-desktop`);

    // the end
    await gm.getByTestId('turn-controls').getByRole('button', { name: 'End combat' }).click();
    await s.gmSees(gm, `s.status === 'ended'`);
    await settle(everyone, gm);
    // the players see the end first, and no stale result line
    expect(await p1.getByTestId('fight-over').textContent()).toMatch(/The fight is over.*Hero/);
    expect(await p1.getByTestId('action-done').count()).toBe(0);
    expect(s.consoleErrors).toEqual([]);
  }
});
