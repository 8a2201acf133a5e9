import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createEncounter, inviteLink, signUp } from './gm-flow.js';
import { liveState, settle } from './helpers.js';
import { addByForm, idOf, map, noteMatches } from './map-flow.js';
import { mapSession, PHONE, withFailShots, type MapSession } from './map-session.js';
import type { EncounterState } from '../../src/lib/types.js';

/**
 * A whole fight of `legends` on its zone map, by taps and clicks only (never the raw command
 * box): a GM on a laptop, two players (the Hero's on a 390 × 844 phone) and a spectator.
 * `legends` has no attack of opportunity; its reaction window is reactive movement
 * (`legends.reactive-movement`: "you may prepare reactive movement as a response to a later
 * character's movement"). The Hero prepares it watching the Brute; the GM moves the Brute into
 * the Hero's zone; the Hero's player answers the prompt on the phone by engaging the Brute;
 * in the action phase the Hero attacks the engaged Brute (target by tapping its token); a
 * condition; the end.
 */
describe('a whole fight of legends on the zone map, by taps and clicks', () => {
  let s: MapSession;
  beforeAll(async () => {
    s = await mapSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('legends (zones): a second zone, placement, reactive movement answered on the phone, a melee attack on a tapped token, a condition, the end', async () => {
    await withFailShots(s, fight);
  }, 300_000);

  async function fight(): Promise<void> {
    const id = 'legends';
    const info = s.rulesets.find((r) => r.id === id)!;
    const gm = await s.open();
    await signUp(gm, s.srv.url);
    await createEncounter(gm, `A fight of ${info.name}`, id, 5);
    // the Hero decides first (turn order is a d12 roll on DEX), the Brute last
    await addByForm(gm, info, 'Hero', 'heroes', { DEX: '30', SPD: '20' });
    await addByForm(gm, info, 'Brute', 'foes', { DEX: '0', SPD: '20' });
    await addByForm(gm, info, 'Ally', 'heroes', { DEX: '12', SPD: '10' });
    // a second zone from the GM command form (built from defineZone's schema)
    const f = gm.getByRole('form', { name: 'GM command' });
    // nothing chosen at first (a stray Send must not end the fight)
    expect(await f.getByLabel('Command').inputValue()).toBe('');
    expect(await f.getByRole('button', { name: /^Send/ }).isDisabled()).toBe(true);
    await f.getByLabel('Command').selectOption('defineZone');
    // a new zone by its name alone (its id made from it), its neighbour picked by name
    expect(await f.locator('[id="gmc-zone.id"]').inputValue()).toBe('');
    await expect(f.locator('[id="gmc-zone.id"] option').first().textContent()).resolves.toBe('A new zone (named below)');
    await f.locator('[id="gmc-zone.name"]').fill('Courtyard');
    await f.locator('[id="gmc-zone.neighbors"]').getByLabel('The battlefield').check();
    await f.getByRole('button', { name: /^Send/ }).click();
    await s.gmSees(
      gm,
      's.rs.zones.courtyard && s.rs.zones.courtyard.name === "Courtyard" && s.rs.zones.main.neighbors.includes("courtyard")',
    );
    for (const [name, zone] of [
      ['Hero', 'main'],
      ['Brute', 'courtyard'],
      ['Ally', 'main'],
    ] as const) {
      const cid = await idOf(gm, name);
      await map(gm).locator(`[data-token="${cid}"]`).first().click();
      await map(gm)
        .locator(`[data-zone="${zone}"]`)
        .getByRole('button', { name: /^Place .* here/ })
        .click();
      await s.gmSees(gm, 's.combatants[a[0]].position && s.combatants[a[0]].position.zone === a[1]', [cid, zone]);
    }
    const [hero, brute, ally] = [await idOf(gm, 'Hero'), await idOf(gm, 'Brute'), await idOf(gm, 'Ally')];
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
    const everyone = [p1, p2, watcher];
    await settle(everyone, gm);
    const changed = async (v: number) => {
      await gm.waitForFunction((x) => (window.__frayLive?.getSnapshot().version ?? 0) > x, v);
      await settle(everyone, gm);
    };
    const pageOf = (c: string) => (c === hero ? p1 : c === ally ? p2 : gm);
    /** The action `label` in `c`'s panel on its controller's page (the your-turn card, the prompt, the GM's console). */
    const action = (c: string, label: RegExp) => {
      const page = pageOf(c);
      return page
        .getByTestId(`actions-${c}`)
        .locator('li:not(.blocked) button', { has: page.locator('.action-label', { hasText: label }) })
        .first();
    };
    /** Press an action; if it asks for fields, fill `fill` and press Do it. */
    const doAction = async (c: string, label: RegExp, fill?: (form: ReturnType<Page['getByRole']>) => Promise<void>) => {
      const page = pageOf(c);
      const panel = page.getByTestId(`actions-${c}`);
      const find = panel.getByLabel(/^Find an action/);
      if (await find.count()) await find.fill(label.source.replace(/[$^\\]/g, '').split(' ')[0]!);
      await action(c, label).click();
      const form = panel.getByRole('form').first();
      if (
        await form.waitFor({ timeout: 1500 }).then(
          () => true,
          () => false,
        )
      ) {
        await fill?.(form);
        await form.getByRole('button', { name: /^Do it|^Next: choose on the map/ }).click();
      }
    };
    /** Tap the destination on the zone map (twice: preview, then go). */
    const goTo = async (page: Page, target: ReturnType<Page['locator']>, shotName: string) => {
      await noteMatches(page, /Tap a highlighted|Choose|zone/);
      await target.click();
      await noteMatches(page, /Tap it again or press Confirm/);
      await s.keep(page, shotName);
      await map(page)
        .getByRole('button', { name: /^Confirm/ })
        .click();
    };

    // (round 1 has no movement phase: the fight opens with the action phase)
    const engaged = (st: EncounterState) => {
      const [a, b] = [hero, brute].map((c) => (st.combatants[c]!.position as { engagement?: string | null }).engagement);
      return !!a && a === b;
    };
    const done = { prepared: false, brute: false, reacted: false, attacked: false };
    const trace: string[] = [];
    for (let i = 0; i < 40; i++) {
      const st: EncounterState = (await liveState(gm)).state!;
      if (done.attacked && !st.reaction) break;
      const w = st.reaction;
      const cur = st.clock.current;
      trace.push(`${st.clock.phase}/${cur ? st.combatants[cur]!.name : '-'}${w ? ` [${w.kind}]` : ''}`);
      if (w) {
        if (w.eligible.includes(hero) && w.responses[hero] === 'pending') {
          // the prompt on the Hero's phone: the prepared reactive movement, engaging the Brute on the zone map
          const prompt = p1.getByTestId('reaction-prompt');
          await prompt.waitFor();
          expect(await prompt.textContent()).toMatch(/You may react/);
          await s.keep(p1, 'player-legends-reaction-phone', '[data-testid="reaction-prompt"]');
          await doAction(hero, /^Use your prepared reactive movement/);
          await goTo(p1, map(p1).getByRole('button', { name: 'Engage Brute' }), 'player-legends-move-preview-phone');
          done.reacted = true;
        } else
          await gm
            .getByTestId('reaction-window')
            .getByRole('button', { name: /Resolve/ })
            .click();
        await changed(st.version);
        continue;
      }
      const pending = (st.rs as { pending?: Array<{ combatantId: string; finished: boolean }> } | undefined)?.pending?.find(
        (p) => !p.finished,
      );
      if (pending) {
        // after seeing the roll: rush (+SPD to reach further, at the cost of fatigue)
        await doAction(pending.combatantId, /^Finish your movement/, async (form) => {
          const rush = form.getByLabel(/^Rush/i).first();
          // it starts on "No rush", its doc says what the margin is
          expect(await rush.inputValue()).toBe('none');
          await form.getByText(/^The margin is how far the movement roll beat its target/).waitFor();
          await rush.selectOption('self');
        });
      } else if (cur === hero && st.clock.phase === 'movement' && !done.prepared) {
        await doAction(hero, /^Prepare reactive movement/, async (form) => {
          await map(p1).locator(`[data-token="${brute}"]`).first().click();
          expect(
            await form
              .getByLabel(/^Watch/i)
              .first()
              .inputValue(),
          ).toBe(brute);
          await form
            .getByLabel(/^Anticipate/i)
            .first()
            .fill('The Brute charges out of the courtyard');
        });
        done.prepared = true;
      } else if (cur === brute && st.clock.phase === 'movement' && !done.brute) {
        // the GM moves the Brute from the courtyard into the hall by tapping (its turn selected its token)
        expect(await map(gm).locator(`[data-token="${brute}"]`).first().getAttribute('aria-pressed')).toBe('true');
        await map(gm)
          .getByRole('group', { name: 'Move Brute' })
          .getByRole('button', { name: /^Movement roll/ })
          .click();
        await goTo(gm, map(gm).locator('[data-zone="main"]').getByRole('button', { name: 'Go here' }), 'gm-legends-move-preview-desktop');
        done.brute = true;
      } else if (cur === hero && st.clock.phase === 'movement' && done.reacted && !engaged(st)) {
        // the reactive movement fell short of the Brute: the Hero's player engages it by tapping
        await map(p1).locator(`[data-token="${hero}"]`).first().click();
        await map(p1)
          .getByRole('group', { name: 'Move Hero' })
          .getByRole('button', { name: /^Movement roll/ })
          .click();
        await goTo(p1, map(p1).getByRole('button', { name: 'Engage Brute' }), 'player-legends-move-preview-phone');
      } else if (cur === hero && st.clock.phase === 'action' && engaged(st) && !done.attacked) {
        // the attack: its button, the target by tapping the Brute's token
        await doAction(hero, /^Melee attack/, async (form) => {
          await map(p1).locator(`[data-token="${brute}"]`).first().click();
          expect(
            await form
              .getByLabel(/^Target/)
              .first()
              .inputValue(),
          ).toBe(brute);
        });
        done.attacked = true;
      } else if (cur) {
        const decision = action(cur, /^(Keep my place|Do not move|Stay)/);
        if (await decision.count()) await decision.click();
        else if (cur !== brute) await pageOf(cur).getByRole('button', { name: 'End my turn' }).click();
        else
          await gm
            .getByTestId('turn-controls')
            .getByRole('button', { name: /^End .*'s turn$/ })
            .click();
      } else {
        // the end of the movement phase (group defense): the GM advances with the GM tools form
        await f.getByLabel('Command').selectOption('advancePhase');
        await f.getByRole('button', { name: /^Send/ }).click();
      }
      await changed(st.version);
    }
    console.log(`legends on the map: ${trace.join('; ')}`);
    expect(done, trace.join('; ')).toEqual({ prepared: true, brute: true, reacted: true, attacked: true });
    const events = await gm.evaluate(() =>
      (window.__frayLive?.getSnapshot().log ?? []).flatMap((e) => e.events as Array<Record<string, unknown>>),
    );
    expect(events.filter((e) => e.type === 'legends.attacked' && e.combatantId === hero).length).toBe(1);
    await settle(everyone, gm);

    const fx = gm.getByRole('form', { name: 'Apply a condition or effect' });
    await fx.getByLabel('Target').selectOption(brute);
    await fx.getByLabel('Condition or effect').fill('stunned');
    await fx.getByRole('button', { name: 'Apply' }).click();
    await s.gmSees(gm, 's.effects.some((e) => e.targetId === a)', brute);
    await settle(everyone, gm);
    await s.keep(p1, 'player-legends-map-phone');
    await s.keep(gm, 'gm-legends-map-desktop');
    await s.keep(watcher, 'spectator-legends-map-desktop');
    expect(
      await s.axeReport([
        ['GM', gm],
        ['player (phone)', p1],
        ['player', p2],
        ['spectator', watcher],
      ]),
    ).toEqual([]);
    await gm.getByTestId('turn-controls').getByRole('button', { name: 'End combat' }).click();
    await s.gmSees(gm, `s.status === 'ended'`);
    expect(s.consoleErrors).toEqual([]);
  }
});
