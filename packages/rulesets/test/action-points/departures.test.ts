import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, find, legal, ok, types, until, type St } from './helpers.js';

/** Where Fray departed from "Action Points and Dynamic Combat" (issue 30): each test quotes the sentence it enforces. */

const bow = { id: 'bow', name: 'Longbow', kind: 'bow', category: 'ranged', damage: '1d8' };
const archer = (options: Record<string, unknown> = {}) =>
  encounter(
    [
      { id: 'elf', side: 'a', stats: { weapons: [bow] }, at: { x: 0, y: 0 } },
      { id: 'orc', side: 'b', stats: { hp: 99 }, at: { x: 8, y: 0 } },
    ],
    options,
  );

describe('a bow nocked in the ready-missile phase', () => {
  const rule =
    '"In the third phase, thrown weapons in hand and other ranged weapons that were not fired previously may be launched. For example, an arrow that was nocked and drawn in the second action phase as a free action may be released."';

  it(`${rule}: nocked during the ready-missile phase, the arrow is released from the thrown phase on`, () => {
    let s = until(archer(), 'elf', 'ready-missile');
    s = act(s, 'elf', 'draw-nock').state;
    const e = err(s, { type: 'act', combatantId: 'elf', action: 'attack', targetId: 'orc', weaponId: 'bow' });
    expect(e).toMatchObject({ code: 'WRONG_PHASE', rule: 'action-points.nocked-this-phase' });
    expect(e.message).toContain('Readied missiles');
    const opt = legal(s, 'elf').find((o) => o.action === 'attack')!;
    expect(opt).toMatchObject({ earliestPhase: 'thrown', allowed: false, blocked: { rule: 'action-points.nocked-this-phase' } });
    // the next phase, the same arrow flies
    s = until(end(s, 'elf').state, 'elf', 'thrown');
    const r = act(s, 'elf', 'attack', { targetId: 'orc', weaponId: 'bow' });
    expect(types(r.events)).toContain('action-points.attack-resolved');
    expect(r.state.combatants.elf!.data.nocked).toBeNull();
  });

  it('"Readied missiles (arrows already nocked and drawn) ... are resolved first": an arrow nocked before the phase began fires in it', () => {
    let s = until(archer(), 'elf', 'thrown');
    s = act(s, 'elf', 'draw-nock').state; // nocked in round 1's thrown phase, not fired
    s = until(end(s, 'elf').state, 'elf', 'ready-missile');
    expect(s.clock.round).toBe(2);
    const r = act(s, 'elf', 'attack', { targetId: 'orc', weaponId: 'bow' });
    expect(find(r.events, 'action-points.action-taken')).toMatchObject({ phase: 'ready-missile' });
  });

  it('option nockedFiresSamePhase: true keeps the reading where the bow fires in the phase it was nocked in', () => {
    let s = until(archer({ nockedFiresSamePhase: true }), 'elf', 'ready-missile');
    s = act(s, 'elf', 'draw-nock').state;
    const r = act(s, 'elf', 'attack', { targetId: 'orc', weaponId: 'bow' });
    expect(find(r.events, 'action-points.action-taken')).toMatchObject({ phase: 'ready-missile' });
  });
});

describe("removing a dirty trick's condition", () => {
  const rule =
    '"The target or an ally adjacent to the target can remove the condition by spending 1 AP. Removing a condition applied by a dirty trick does not provoke attacks of opportunity."';
  const fight = (allyAt = { x: 2, y: 0 }) =>
    encounter([
      {
        id: 'pc',
        side: 'a',
        stats: {
          dexterity: 16,
          hp: 30,
          cmb: 100,
          feats: ['improved-dirty-trick'],
          weapons: [{ id: 'dg', name: 'Dagger', category: 'light' }],
        },
        at: { x: 0, y: 0 },
      },
      {
        id: 'foe',
        side: 'b',
        stats: { dexterity: 12, hp: 30, weapons: [{ id: 'cl', name: 'Club', category: 'light' }] },
        at: { x: 1, y: 0 },
      },
      { id: 'ally', side: 'b', stats: { dexterity: 10, hp: 30 }, at: allyAt },
    ]);
  /** pc's dirty trick blinds the foe (2 AP: fast and average phases); then the foe has its place in the average phase. */
  const tricked = (allyAt?: { x: number; y: number }): St => {
    let s = until(fight(allyAt), 'pc', 'fast');
    s = act(s, 'pc', 'dirty-trick', { targetId: 'foe', condition: 'blinded' }).state;
    s = until(end(s, 'pc').state, 'pc', 'average');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    expect(s.effects.some((e) => e.targetId === 'foe' && e.condition === 'blinded')).toBe(true);
    return until(end(s, 'pc').state, 'foe', 'average');
  };

  it(`${rule}: the target spends 1 AP and provokes no attack of opportunity from the foe threatening it`, () => {
    const s = tricked();
    expect(legal(s, 'foe').find((o) => o.action === 'remove-dirty-trick')).toMatchObject({
      allowed: true,
      cost: { ap: 1 },
      provokes: null,
    });
    const ap = s.combatants.foe!.data.ap;
    const r = act(s, 'foe', 'remove-dirty-trick');
    expect(r.state.reaction).toBeNull();
    expect(types(r.events)).not.toContain('reaction.opened');
    expect(find(r.events, 'effect.removed')).toBeTruthy();
    expect(r.state.effects.some((e) => e.targetId === 'foe' && e.condition === 'blinded')).toBe(false);
    expect(r.state.combatants.foe!.data.ap).toBe(ap - 1);
  });

  it(`${rule}: an adjacent ally may remove it; a distant ally, a foe, or a condition not from a dirty trick may not`, () => {
    let s = tricked();
    s = until(end(s, 'foe').state, 'ally', 'average');
    const r = act(s, 'ally', 'remove-dirty-trick', { targetId: 'foe' });
    expect(r.state.effects.some((e) => e.condition === 'blinded')).toBe(false);
    expect(r.state.combatants.ally!.data.ap).toBe(s.combatants.ally!.data.ap - 1);

    let far = tricked({ x: 5, y: 5 });
    far = until(end(far, 'foe').state, 'ally', 'average');
    expect(err(far, { type: 'act', combatantId: 'ally', action: 'remove-dirty-trick', targetId: 'foe' })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-points.remove-dirty-trick',
    });
    expect(legal(far, 'ally').find((o) => o.action === 'remove-dirty-trick')!.blocked?.rule).toBe('action-points.remove-dirty-trick');
    expect(err(far, { type: 'act', combatantId: 'ally', action: 'remove-dirty-trick' }).rule).toBe('action-points.remove-dirty-trick');

    // a blindness the GM applied is not a dirty trick's condition
    let gmBlind = until(fight(), 'foe', 'ready-missile');
    gmBlind = ok(gmBlind, { type: 'effect.apply', targetId: 'foe', name: 'Blinded', condition: 'blinded' }).state;
    expect(err(gmBlind, { type: 'act', combatantId: 'foe', action: 'remove-dirty-trick' }).rule).toBe('action-points.remove-dirty-trick');
  });

  it(`${rule}: the foe who played the trick cannot remove it`, () => {
    let s = tricked();
    s = until(end(s, 'foe').state, 'pc', 'slow');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'remove-dirty-trick', targetId: 'foe' })).toMatchObject({
      rule: 'action-points.remove-dirty-trick',
    });
  });
});
