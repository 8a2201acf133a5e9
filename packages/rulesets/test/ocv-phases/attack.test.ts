import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, force, gm, hex, ok, refused } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';
import { ocvPhases } from '../../src/ocv-phases/index.js';

const duel = (
  opts: {
    options?: Record<string, unknown>;
    a?: Record<string, unknown>;
    b?: Record<string, unknown>;
    map?: Record<string, unknown>;
    bAt?: { q: number; r: number };
  } = {},
) =>
  encounter(
    [
      { id: 'a', side: 'x', cv: 6, at: hex(0, 0), stats: opts.a },
      { id: 'b', side: 'y', cv: 4, at: opts.bAt ?? hex(1, 0), stats: opts.b },
    ],
    { options: { offerAbort: false, ...(opts.options ?? {}) }, map: opts.map },
  ).s;

function attack(s: S, faces: number[], extra: Record<string, unknown> = {}) {
  s = force(s, faces);
  const r = ok(s, cmd('attack', 'a', { manoeuvre: 'strike', targetId: 'b', ...extra }));
  return {
    state: r.state,
    roll: r.events.find((e) => e.type === 'dice.rolled')!,
    res: r.events.find((e) => e.type === 'ocv-phases.attack-resolved')!,
  };
}

describe('attack roll', () => {
  it('"The attacker rolls 3d6 and adds their OCV (including modifiers such as combat levels). The target number is 10 plus the defender\'s DCV" — each roll an event', () => {
    const s = duel({ a: { combatLevels: 2 } });
    const { roll, res } = attack(s, [4, 4, 4]);
    expect(roll).toMatchObject({ formula: '3d6+8', total: 20, combatantId: 'a' });
    expect(String(roll.purpose)).toContain('OCV 8');
    expect(res).toMatchObject({ ocv: 8, dcv: 4, need: 14, total: 20, hit: true });
    const miss = attack(s, [1, 2, 2]).res;
    expect(miss).toMatchObject({ total: 13, need: 14, hit: false });
    expect(attack(s, [2, 2, 2]).res).toMatchObject({ total: 14, hit: true }); // meets the target number
  });

  it('the log sentence says what the rule says: "The target number is 10 plus the defender\'s DCV" is a number to reach, "or more"', () => {
    const s = duel();
    const sentence = ocvPhases.display!.events['ocv-phases.attack-resolved']!;
    const templates = typeof sentence === 'string' ? [{ text: sentence }] : sentence;
    const say = (e: Record<string, unknown>) =>
      templates
        .find((t) => Object.entries(t.when ?? {}).every(([k, v]) => e[k] === v))!
        .text.replace(/\{(\w+)\}/g, (_: string, k: string) => String(e[k]));
    for (const faces of [
      [2, 2, 2],
      [1, 2, 2],
      [6, 6, 6],
    ]) {
      const { res } = attack(s, faces);
      const m = /rolled (\d+), needed (\d+) or more/.exec(say(res));
      expect(m, say(res)).not.toBeNull();
      expect(Number(m![1]) >= Number(m![2])).toBe(res.hit);
    }
  });

  it('"(including modifiers such as being Stunned or underwater)"', () => {
    let s = duel({ b: { dcv: 6 } });
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'b', name: 'Stunned', condition: 'stunned' }).state;
    expect(attack(s, [1, 1, 1]).res).toMatchObject({ dcv: 3, need: 13 });
    let w = duel({ b: { dcv: 6 } });
    w = ok(w, { type: 'effect.apply', by: gm, targetId: 'b', name: 'Underwater', condition: 'underwater' }).state;
    expect(attack(w, [1, 1, 1]).res).toMatchObject({ dcv: 4, need: 14 });
  });

  it("manoeuvre modifiers: Haymaker lowers the attacker's DCV until its next action; Disarm has -2 OCV", () => {
    let s = duel();
    s = force(s, [1, 1, 1]);
    s = ok(s, cmd('attack', 'a', { manoeuvre: 'haymaker', targetId: 'b' })).state;
    expect(s.rs.attacks.at(-1)).toMatchObject({ ocv: 6 });
    s = end(s);
    s = force(s, [1, 1, 1]);
    s = ok(s, cmd('attack', 'b', { manoeuvre: 'disarm', targetId: 'a' })).state;
    expect(s.rs.attacks.at(-1)).toMatchObject({ ocv: 2, need: 11 }); // a: DCV 6 - 5
  });

  it('the GM overriding an attack roll re-resolves the hit', () => {
    const { state, roll, res } = attack(duel(), [1, 1, 1]);
    expect(res.hit).toBe(false);
    const r = ok(state, { type: 'dice.override', by: gm, rollId: roll.rollId, total: 18 });
    expect(r.events.find((e) => e.type === 'ocv-phases.attack-reresolved')).toMatchObject({ hit: true });
    expect(r.state.rs.attacks.at(-1)!.hit).toBe(true);
  });
});

describe('space', () => {
  it('"You can strike any adjacent opponent with a melee attack"', () => {
    const s = duel({ bAt: hex(2, 0) });
    refused(s, cmd('attack', 'a', { manoeuvre: 'strike', targetId: 'b' }), 'ocv-phases.melee-reach');
    expect(attack(duel(), [3, 3, 3]).res.hit).toBeDefined();
  });

  it('"characters with Growth or Stretching have more reach, and thus threaten more hexes"', () => {
    const s = duel({ bAt: hex(2, 0), a: { reach: 2 } });
    expect(attack(s, [3, 3, 3]).res).toBeDefined();
  });

  it('"You can fire at any target that is within the attack\'s maximum range and in line of sight" — GM-marked blocking hexes', () => {
    const s = duel({ bAt: hex(5, 0) });
    refused(s, cmd('attack', 'a', { manoeuvre: 'other-attack', targetId: 'b', range: 4 }), 'ocv-phases.ranged');
    expect(attack(s, [3, 3, 3], { manoeuvre: 'other-attack', range: 10 }).res).toBeDefined();
    const walled = duel({ bAt: hex(5, 0), map: { blocking: [hex(3, 0)] } });
    refused(walled, cmd('attack', 'a', { manoeuvre: 'other-attack', targetId: 'b', range: 10 }), 'ocv-phases.line-of-sight');
    // a grab is melee only
    refused(s, cmd('attack', 'a', { manoeuvre: 'grab', targetId: 'b', range: 10 }), 'ocv-phases.melee-reach');
  });

  it('movement goes hex by hex, not through walls or opponents, within its allowance', () => {
    const s = duel({ map: { blocking: [hex(0, 1)], difficult: [hex(-1, 1)] } });
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 2)] }), 'ocv-phases.hexes');
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1)] }), 'ocv-phases.hexes');
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(1, 0)] }), 'ocv-phases.hexes');
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 0), hex(-2, 0), hex(-3, 0), hex(-4, 0)] }), 'ocv-phases.movement');
    // difficult terrain costs 2: 3 hexes of allowance = the difficult hex + 1
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 1), hex(-2, 1), hex(-3, 1)] }), 'ocv-phases.movement');
    let moved = ok(s, cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 1), hex(-2, 1)] })).state;
    expect(moved.reaction?.kind).toBe('ocv-phases.attack-of-opportunity'); // b threatens a's hex
    moved = ok(moved, cmd('reaction.pass', 'b')).state;
    expect(moved.combatants.a!.position).toEqual(hex(-2, 1));
  });
});
