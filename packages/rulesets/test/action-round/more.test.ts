import { describe, expect, it } from 'vitest';
import { act, conds, data, endTurn, events, force, gm, legal, passAll, pos, refuse, run, setup } from './helpers.js';

const far = (id: string, side: string, x: number, y = 0, stats: Record<string, unknown> = {}) => ({
  id,
  side,
  at: [x, y] as [number, number],
  stats,
});

describe('ASSIST [Standard]', () => {
  it('"must delay to the same point in the initiative order": assisting a skill check needs the ally next in the order', () => {
    let { s } = setup([
      far('helper', 'pc', 0, 0, { skills: { lore: 2 } }),
      far('orc', 'npc', 9, 9),
      far('sage', 'pc', 1, 0, { skills: { lore: 1 } }),
    ]);
    expect(refuse(s, { type: 'assist', by: gm, combatantId: 'helper', mode: 'skill', allyId: 'sage', skill: 'lore' }).rule).toBe(
      'action-round.assist-delay',
    );
    expect(legal(s, 'helper').find((o) => o.action === 'assist-skill')?.blocked?.rule).toBe('action-round.assist-delay');
    s = act(s, 'delay', 'helper').state;
    s = endTurn(s, 'orc');
    s = act(s, 'act-now', 'helper').state;
    expect(s.clock.order).toEqual(['orc', 'helper', 'sage']);
    // "Make an Easy DC (DC 10) skill check. Success grants your ally +1 Advantage per degree of success."
    s = force(s, 16);
    const r = act(s, 'assist', 'helper', { mode: 'skill', allyId: 'sage', skill: 'lore' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 10, total: 18, degrees: 2 });
    s = endTurn(r.state, 'helper');
    s = force(s, 10);
    const use = act(s, 'use-skill', 'sage', { skill: 'lore', dc: 'easy' });
    expect(events(use, 'dice.rolled')[0]!.formula).toBe('1d20+3');
    expect(data(use.state, 'sage').assistDegrees).toBe(0);
  });

  it('"the degrees of success (and failure) are added together"; "two or more degrees impose -1 Disadvantage per additional degree"', () => {
    let { s } = setup([far('a', 'pc', 0, 0), far('b', 'pc', 0, 2), far('sage', 'pc', 0, 4)]);
    // a and b both delay to the sage's point in the order, then assist one after the other
    s = act(s, 'delay', 'a').state;
    s = act(s, 'delay', 'b').state;
    s = act(s, 'act-now', 'a').state;
    s = act(force(s, 1), 'assist', 'a', { mode: 'skill', allyId: 'sage', skill: 'lore' }).state; // 1 vs 10: two degrees of failure
    s = endTurn(s, 'a');
    expect(s.clock.current).toBe('sage');
    s = act(s, 'act-now', 'b').state;
    expect(s.clock.order).toEqual(['a', 'b', 'sage']);
    s = act(force(s, 1), 'assist', 'b', { mode: 'skill', allyId: 'sage', skill: 'lore' }).state;
    expect(data(s, 'sage').assistDegrees).toBe(-4);
    s = endTurn(s, 'b');
    s = force(s, 10);
    const r = act(s, 'use-skill', 'sage', { skill: 'lore', dc: 'easy' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20-3');
  });

  it('AID / DISTRACT: "an attack check against a Moderate DC (DC 10 + Power Level) to grant an ally a bonus ... until the start of your next turn"', () => {
    let { s } = setup(
      [far('helper', 'pc', 0, 0, { naturalWeapons: true }), far('orc', 'npc', 1, 0), far('ally', 'pc', 0, 1, { naturalWeapons: true })],
      { powerLevel: 4 },
    );
    s = force(s, 19);
    let r = act(s, 'assist', 'helper', { mode: 'aid', allyId: 'ally', targetId: 'orc' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 14, degrees: 2 });
    s = endTurn(endTurn(r.state, 'helper'), 'orc');
    s = force(s, 5);
    r = act(s, 'attack', 'ally', { kind: 'close', targetId: 'orc' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20+2');
    s = endTurn(r.state, 'ally');
    expect(s.effects.filter((e) => (e.data as { kind?: string }).kind === 'aid')).toEqual([]);
  });

  it('COMBINE: "a Lore check ... against a Hard DC (DC 10 + Power level x 2)"', () => {
    const bolt = { id: 'bolt', name: 'Bolt', range: 'ranged', rank: 4, effect: 'damage' };
    let { s } = setup(
      [
        far('helper', 'pc', 0, 0, { skills: { lore: 5 }, powers: [{ ...bolt, id: 'blast', name: 'Blast' }] }),
        far('ally', 'pc', 0, 1, { powers: [bolt] }),
      ],
      { powerLevel: 4 },
    );
    s = force(s, 15);
    const r = act(s, 'assist', 'helper', { mode: 'combine', allyId: 'ally' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 18, success: true });
    expect(r.state.effects.find((e) => e.targetId === 'ally')?.data).toMatchObject({ kind: 'power-bonus', n: 1, powerIds: ['bolt'] });
  });
});

describe('ASSESSMENT [Standard, OA] and its counter', () => {
  it('ANALYZE: "+1 Advantage to Defense per degree of success against the opponent’s attacks ... up to a maximum bonus of +5"', () => {
    let { s } = setup([
      far('hero', 'pc', 0, 0, { skills: { insight: 10 } }),
      far('orc', 'npc', 5, 0, { skills: { deception: 2 }, naturalWeapons: true }),
    ]);
    s = force(s, 20);
    const r = act(s, 'assess', 'hero', { targetId: 'orc', skill: 'insight', benefit: 'analyze' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 12 }); // "opposed by the target’s passive Deception check"
    expect(data(r.state, 'hero').analyze['orc']).toBe(5);
    // the orc's attacks now face defense 10 + 5
    s = run(endTurn(r.state, 'hero'), { type: 'combatant.place', by: gm, combatantId: 'orc', position: { x: 1, y: 0 } }).state;
    s = force(s, 1);
    expect(events(act(s, 'attack', 'orc', { kind: 'close', targetId: 'hero' }), 'action-round.check')[0]).toMatchObject({ dc: 15 });
  });

  it('"The opponent can attempt a Deception or Stealth check as a move action ... subtract 1 degree advantage per degrees of success"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { skills: { insight: 10 } }), far('orc', 'npc', 5, 0, { skills: { deception: 2 } })]);
    s = force(s, 20);
    s = endTurn(act(s, 'assess', 'hero', { targetId: 'orc', skill: 'insight', benefit: 'analyze' }).state, 'hero');
    s = force(s, 1, 19); // hero's insight rolls 1 (11), orc's deception 21: 2 degrees
    s = act(s, 'conceal', 'orc', { assessorId: 'hero', skill: 'deception' }).state;
    expect(data(s, 'hero').analyze['orc']).toBe(3);
  });

  it('APPRAISAL tells relative attack and defense; "With more than one degree of failure, the GM may lie"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { skills: { insight: 0 } }), far('orc', 'npc', 5, 0, { defense: 3, attack: { close: 4 } })]);
    let r = act(force(s, 10), 'assess', 'hero', { targetId: 'orc', skill: 'insight', benefit: 'appraisal' });
    expect(events(r, 'action-round.appraisal')[0]).toMatchObject({ attack: 'higher', defense: 'higher' });
    r = act(force(s, 1), 'assess', 'hero', { targetId: 'orc', skill: 'insight', benefit: 'appraisal' });
    expect(events(r, 'action-round.assessment-failed')[0]).toMatchObject({ gmMayLie: true });
    s = r.state;
  });
});

describe('GAMBIT, COMMAND, INFLUENCE', () => {
  it('GAMBIT: "a skill check vs a Mod DC ... Success grants you or an ally +1 Advantage per degree of success until the end of their next turn"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { skills: { acrobatics: 5 } }), far('orc', 'npc', 9, 0), far('ally', 'pc', 0, 2)], {
      powerLevel: 5,
    });
    s = force(s, 19);
    const r = act(s, 'gambit', 'hero', { skill: 'acrobatics', beneficiaryId: 'ally' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 15, degrees: 2 });
    expect(r.state.effects.find((e) => e.targetId === 'ally')?.data).toMatchObject({ kind: 'advantage', n: 2 });
    // "until the end of their next turn"
    s = endTurn(endTurn(r.state, 'hero'), 'orc');
    expect(s.effects).toHaveLength(1);
    s = endTurn(s, 'ally');
    expect(s.effects).toHaveLength(0);
  });

  it('GAMBIT: "or a Passive Reaction or Guile if threatened"; "move at his speed -1 rank, by taking a -1 Disadvantage"', () => {
    let { s } = setup([
      far('hero', 'pc', 0, 0, { skills: { acrobatics: 5 } }),
      far('orc', 'npc', 1, 0, { naturalWeapons: true, skills: { guile: 7 } }),
    ]);
    const r = act(s, 'gambit', 'hero', {
      skill: 'acrobatics',
      movement: 'reduced',
      path: [
        { x: -1, y: 0 },
        { x: -2, y: 0 },
        { x: -3, y: 0 },
      ],
    });
    s = force(passAll(r.state), 10);
    expect(s.rolls.at(-1)!.formula).toBe('1d20+4');
    expect(s.effects.length).toBe(1);
  });

  it('COMMAND: "Issuing a command to a character or creature under your control requires a move action ... two commands per round as two move actions"', () => {
    let { s } = setup([far('boss', 'npc', 0, 0), far('wolf', 'npc', 1, 0, { commander: 'boss' }), far('hero', 'pc', 9, 9)]);
    s = act(s, 'command', 'boss', { minionIds: ['wolf'], order: 'attack' }).state;
    s = act(s, 'command', 'boss', { minionIds: ['wolf'], order: 'guard' }).state;
    expect(data(s, 'boss').slots).toMatchObject({ standard: 0, move: 0 });
    expect(refuse(s, { type: 'command', by: gm, combatantId: 'boss', minionIds: ['wolf'], order: 'sit' }).code).toBe('BUDGET_EXHAUSTED');
    expect(
      refuse(setup([far('boss', 'npc', 0, 0), far('hero', 'pc', 9, 9)]).s, {
        type: 'command',
        by: gm,
        combatantId: 'boss',
        minionIds: ['hero'],
        order: 'x',
      }).rule,
    ).toBe('action-round.command');
  });

  it('INFLUENCE: "Success improves or worsens ... by one step, while three degrees ... two steps"; "failure by two degrees worsens ..."', () => {
    const scene = () =>
      setup([far('hero', 'pc', 0, 0, { skills: { persuasion: 4 } }), far('duke', 'npc', 3, 0)], { encounterType: 'conflict' }).s;
    let r = act(force(scene(), 10, 20), 'influence', 'hero', { targetId: 'duke', skill: 'persuasion', goal: 'improve' });
    expect(events(r, 'action-round.attitude-changed')[0]).toMatchObject({ before: 0, after: 2 });
    r = act(force(scene(), 20, 5), 'influence', 'hero', { targetId: 'duke', skill: 'persuasion', goal: 'improve' });
    expect(events(r, 'action-round.attitude-changed')[0]).toMatchObject({ after: -1 });
    expect(
      refuse(run(scene(), { type: 'combatant.place', by: gm, combatantId: 'duke', position: { x: 20, y: 0 } }).state, {
        type: 'influence',
        by: gm,
        combatantId: 'hero',
        targetId: 'duke',
        skill: 'persuasion',
        goal: 'improve',
      }).rule,
    ).toBe('action-round.influence');
  });
});

describe('quick and free actions', () => {
  const stored = { id: 'rope', name: 'Rope', location: 'carried', props: { stored: true } };
  const sword = { id: 'sword', name: 'Sword', location: 'carried', tags: ['weapon'] };

  it('DRAW: "If your weapon or object is stored in a pack ... treat this action as the retrieve or store objects action"', () => {
    const { s } = setup([{ id: 'hero', side: 'pc', at: [0, 0], items: [stored, sword] }, far('orc', 'npc', 9, 9)]);
    const r = act(s, 'draw', 'hero', { itemId: 'rope' });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ action: 'retrieve', actionType: 'move' });
    const q = act(s, 'draw', 'hero', { itemId: 'sword' });
    expect(events(q, 'action-round.spent')[0]).toMatchObject({ actionType: 'quick', slot: 'quick' });
  });

  it('PICK UP: "Picking up or manipulating an object requires a quick action"; DROP: "dropping a held item is a free action"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], items: [{ ...sword, location: 'right-hand' }] },
      far('ally', 'pc', 1, 0),
      far('orc', 'npc', 9, 9),
    ]);
    s = act(s, 'drop', 'hero', { what: 'item', itemId: 'sword' }).state;
    expect(s.combatants['hero']!.items[0]!.location).toBe('ground');
    s = endTurn(s, 'hero');
    s = act(s, 'manipulate', 'ally', { itemId: 'sword' }).state;
    expect(s.combatants['ally']!.items.map((i) => i.id)).toEqual(['sword']);
    expect(data(s, 'ally').slots.quick).toBe(0);
  });

  it('STUDY: "an appropriate opposed Skill check as a quick action"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { skills: { perception: 3 } }), far('orc', 'npc', 5, 0, { skills: { stealth: 1 } })]);
    s = force(s, 5, 10);
    const r = act(s, 'study', 'hero', { skill: 'perception', targetId: 'orc', opposedSkill: 'stealth' });
    expect(events(r, 'action-round.studied')[0]).toMatchObject({ learned: true });
    expect(data(r.state, 'hero').slots.quick).toBe(0);
  });

  it('STANCE: "Before you make an Attack on your turn ... -1 to -5 Disadvantage ... add the same number ... until the start of your next turn"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true }), far('orc', 'npc', 1, 0)]);
    expect(
      refuse(s, { type: 'stance', by: gm, combatantId: 'hero', penalty: { on: 'defense', n: 2 }, bonus: { on: 'attack', n: 3 } }).rule,
    ).toBe('action-round.stance');
    s = act(s, 'stance', 'hero', { penalty: { on: 'defense', n: 3 }, bonus: { on: 'attack', n: 3 } }).state;
    s = force(s, 5);
    const r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20+3');
    s = endTurn(r.state, 'hero');
    s = run(s, { type: 'combatant.setStat', by: gm, combatantId: 'orc', stat: 'naturalWeapons', value: true }).state;
    s = force(s, 5);
    expect(events(act(s, 'attack', 'orc', { kind: 'close', targetId: 'hero' }), 'action-round.check')[0]).toMatchObject({ dc: 7 });
    const after = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true }), far('orc', 'npc', 1, 0)]).s;
    const attacked = act(force(after, 5), 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    expect(
      refuse(attacked, { type: 'stance', by: gm, combatantId: 'hero', penalty: { on: 'defense', n: 1 }, bonus: { on: 'effect', n: 1 } })
        .message,
    ).toContain('Before you make an Attack');
  });

  it('SWITCH ALTERNATE EFFECT [Quick]', () => {
    const powers = [{ id: 'flame', name: 'Flame', range: 'ranged', alternates: ['Flame Wall'] }];
    let { s } = setup([far('mage', 'pc', 0, 0, { powers }), far('orc', 'npc', 9, 9)]);
    expect(refuse(s, { type: 'switch-alternate', by: gm, combatantId: 'mage', powerId: 'flame', alternate: 'Ice' }).rule).toBe(
      'action-round.switch-alternate',
    );
    s = act(s, 'switch-alternate', 'mage', { powerId: 'flame', alternate: 'Flame Wall' }).state;
    expect(data(s, 'mage').alternates).toEqual({ flame: 'Flame Wall' });
  });

  it('DRAW OR STORE AMMO [Free]', () => {
    const s = act(setup([far('hero', 'pc', 0, 0), far('orc', 'npc', 9, 9)]).s, 'ammo', 'hero', { mode: 'draw' }).state;
    expect(data(s, 'hero')).toMatchObject({ ammo: true, free: 1 });
  });
});

describe('SPEND DESTINY, FATE, OR CORRUPTION [Free]', () => {
  const scene = () =>
    setup([
      far('hero', 'pc', 0, 0, { naturalWeapons: true, destiny: 2, fate: 1, damage: { close: 2 } }),
      far('orc', 'npc', 1, 0, { defense: 5 }),
    ]).s;

  it('IMPROVE ROLL: "gain a bonus equal to the number rolled on a failed check": a miss that becomes a hit deals damage', () => {
    let s = act(force(scene(), 12), 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    expect(s.rs.lastCheck['hero']).toMatchObject({ success: false, total: 12, dc: 15 });
    s = force(s, 4, 1);
    const r = act(s, 'spend', 'hero', { pool: 'destiny', use: 'improve-roll' });
    expect(events(r, 'action-round.check-adjusted')[0]).toMatchObject({ total: 16, success: true });
    expect(events(r, 'action-round.damage-resolved')).toHaveLength(1);
    expect(data(r.state, 'hero').destiny).toBe(1);
  });

  it('COUP: "increase the Degree of success on a successful check ... half the number, rounded up"', () => {
    let s = act(force(scene(), 15, 20), 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    s = force(s, 5);
    const r = act(s, 'spend', 'hero', { pool: 'fate', use: 'coup' });
    expect(events(r, 'action-round.check-adjusted')[0]).toMatchObject({ degrees: 4 });
    expect(data(r.state, 'hero').fate).toBe(0);
    expect(refuse(r.state, { type: 'spend', by: gm, combatantId: 'hero', pool: 'fate', use: 'coup' }).rule).toBe('action-round.destiny');
  });

  it('STUNT: "immediately add a Stunt to a successful Attack"', () => {
    let s = act(force(scene(), 15, 20), 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    s = force(s, 3, 1, 15);
    const r = act(s, 'spend', 'hero', { use: 'stunt', benefit: 'push' });
    expect(events(r, 'action-round.stunt-succeeded')[0]).toMatchObject({ benefit: 'push' });
    expect(pos(r.state, 'orc').x).toBeGreaterThan(1);
  });

  it('EDIT SCENE and INSPIRATION roll the die: "half the number, rounded up, for determining ranks of Advantage"', () => {
    const r = act(force(scene(), 5), 'spend', 'hero', { use: 'edit-scene', note: 'a chandelier' });
    expect(events(r, 'action-round.scene-edited')[0]).toMatchObject({ die: 5, advantage: 3 });
    expect(events(act(force(scene(), 2), 'spend', 'hero', { use: 'inspiration' }), 'action-round.inspired')[0]).toMatchObject({ die: 2 });
  });

  it('RECOVER: "If unconscious ... you can still spend ... but must roll a 6 on the die. If you roll 5 or less the die is wasted"', () => {
    let s = run(scene(), { type: 'effect.apply', by: gm, targetId: 'hero', name: 'KO', condition: 'incapacitated' }).state;
    s = force(s, 5);
    const r = act(s, 'spend', 'hero', { use: 'recover', choice: 'damage' });
    expect(events(r, 'action-round.destiny-wasted')).toHaveLength(1);
    expect(data(r.state, 'hero').destiny).toBe(1);
  });
});

describe('SURGE [Reaction]', () => {
  const scene = () => setup([far('hero', 'pc', 0, 0, { destiny: 1 }), far('orc', 'npc', 9, 9)]).s;

  it('ADDITIONAL ACTION: "Gain an additional standard action during your turn"', () => {
    let s = act(scene(), 'surge', 'hero', { benefit: 'additional-action' }).state;
    s = act(s, 'defend', 'hero').state;
    s = force(s);
    expect(data(s, 'hero').slots.standard).toBe(1);
    s = act(s, 'recover', 'hero').state;
    expect(data(s, 'hero').slots.standard).toBe(0);
  });

  it('"At the start of the turn immediately after using a Surge, the character becomes fatigued ... exhausted ... incapacitated"', () => {
    let s = scene();
    const cycle = () => {
      s = act(s, 'surge', 'hero', { benefit: 'edge' }).state;
      s = endTurn(endTurn(s, 'hero'), 'orc');
    };
    cycle();
    expect(data(s, 'hero').fatigue).toBe(1);
    cycle();
    expect(data(s, 'hero').fatigue).toBe(2);
    s = act(s, 'surge', 'hero', { benefit: 'edge' }).state;
    s = endTurn(s, 'hero');
    const r = run(s, { type: 'turn.end', by: gm, combatantId: 'orc' });
    expect(data(r.state, 'hero').fatigue).toBe(3);
    // an incapacitated character's turn is skipped
    expect(events(r, 'action-round.turn-skipped')[0]).toMatchObject({ combatantId: 'hero' });
    expect(r.state.clock.current).toBe('orc');
  });

  it('"If you spend Destiny before the start of the turn following the Surge to remove the fatigue (preemptive Recover), the character suffers no adverse effects"', () => {
    let s = act(scene(), 'surge', 'hero', { benefit: 'edge' }).state;
    s = act(force(s, 3), 'spend', 'hero', { use: 'recover' }).state;
    s = endTurn(endTurn(s, 'hero'), 'orc');
    expect(data(s, 'hero')).toMatchObject({ fatigue: 0, stress: 1, surgePending: false });
  });

  it('"If you’re compelled or controlled, the fatigue from Surge doesn’t affect you until you’re free of the effect"', () => {
    let s = run(scene(), { type: 'effect.apply', by: gm, targetId: 'hero', name: 'mind control', condition: 'controlled' }).state;
    const control = s.effects[0]!.id;
    s = act(s, 'surge', 'hero', { benefit: 'edge' }).state;
    s = endTurn(endTurn(s, 'hero'), 'orc');
    expect(data(s, 'hero')).toMatchObject({ fatigue: 0, surgePending: true, surgeDeferred: true });
    s = run(s, { type: 'effect.remove', by: gm, effectId: control }).state;
    s = endTurn(endTurn(s, 'hero'), 'orc');
    expect(data(s, 'hero')).toMatchObject({ fatigue: 1, surgePending: false });
  });

  it('BOOST: "+1 rank until the end of the character’s next turn"; BURST: "Negate Disadvantages"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true }), far('orc', 'npc', 1, 0)]);
    s = act(s, 'surge', 'hero', { benefit: 'boost', trait: 'attack' }).state;
    s = force(s, 5);
    const r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20+1');
    let b = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true }), far('orc', 'npc', 1, 0)]).s;
    b = act(b, 'surge', 'hero', { benefit: 'burst' }).state;
    b = force(b, 5);
    expect(events(act(b, 'stunt', 'hero', { targetId: 'orc', benefit: 'push' }), 'dice.rolled')[0]!.formula).toBe('1d20');
  });

  it('EDGE, ALTERNATE EFFECT, RETRY, COUNTER: granted until the end of the encounter or noted for the GM', () => {
    let s = act(scene(), 'surge', 'hero', { benefit: 'alternate-effect', powerId: 'p', alternate: 'Shield' }).state;
    expect(data(s, 'hero').alternates).toEqual({ p: 'Shield' });
    s = endTurn(s, 'hero');
    s = act(s, 'surge', 'hero', { benefit: 'retry' }).state;
    expect(data(s, 'hero').retry).toBe(true);
  });

  it('RESISTANCE: "Gain an immediate additional check against an ongoing effect"', () => {
    let s = run(scene(), {
      type: 'effect.apply',
      by: gm,
      targetId: 'hero',
      name: 'snared',
      condition: 'hindered',
      data: { resist: { save: 'reflex', dc: 10 } },
    }).state;
    s = force(s, 15);
    s = act(s, 'surge', 'hero', { benefit: 'resistance', effectId: s.effects[0]!.id }).state;
    expect(conds(s, 'hero')).toEqual([]);
  });
});

describe('SMASH, SLAM [Reaction]', () => {
  it('SMASH: "Instead of having a passive damage or effect rank, where you just add 10, you make a damage or effect rank check"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true, damage: { close: 3 } }), far('orc', 'npc', 1, 0)]);
    s = force(s, 15, 19, 1);
    const r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc', smash: true });
    expect(events(r, 'dice.rolled').map((e) => [e.formula, e.purpose])[1]).toEqual(['1d20+3', 'smash: damage check']);
    expect(events(r, 'action-round.damage-resolved')[0]).toMatchObject({ damage: 22 });
  });

  it('SLAM: "+1 Advantage per 10’ moved that round before your attack, gaining up to a maximum bonus of +5" and its Toughness check', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true, damage: { close: 2 } }), far('orc', 'npc', 6, 0)]);
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc', slam: true }).rule).toBe(
      'action-round.attack-close',
    );
    s = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
        { x: 3, y: 0 },
        { x: 4, y: 0 },
        { x: 5, y: 0 },
      ],
    }).state;
    s = force(s, 10, 20, 1);
    const r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc', slam: true });
    const rolls = events(r, 'dice.rolled');
    expect(rolls[0]!.formula).toBe('1d20+2'); // 25 feet: +2
    expect(rolls[2]!.purpose).toContain('slam');
    expect(data(r.state, 'hero').damage).toBeGreaterThan(0);
    expect(events(r, 'action-round.reacted')[0]).toMatchObject({ reaction: 'slam' });
  });
});

describe('variable actions: powers, skills, tools, complex weapons', () => {
  it('USE SKILL: "What type of action a Skill requires ... whether a Skill use provokes ... Use GM’s discretion for both"', () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { skills: { medicine: 2 } }), far('orc', 'npc', 1, 0, { naturalWeapons: true })]);
    s = force(s, 10);
    let r = act(s, 'use-skill', 'hero', { skill: 'medicine', dc: 12 });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ actionType: 'standard' });
    expect(r.state.reaction).toBeNull();
    s = run(s, { type: 'set-ruling', by: gm, key: 'skill:medicine', actionType: 'move', provokes: true }).state;
    r = act(s, 'use-skill', 'hero', { skill: 'medicine', dc: 12 });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ actionType: 'move' });
    expect(r.state.reaction?.eligible).toEqual(['orc']);
  });

  it('LOAD COMPLEX WEAPONS: "loading a complex weapon always provokes an Opportunity Attack"', () => {
    const xbow = { id: 'xbow', name: 'Crossbow', location: 'right-hand', tags: ['weapon', 'complex'], props: { loadAction: 'move' } };
    const { s } = setup([{ id: 'hero', side: 'pc', at: [0, 0], items: [xbow] }, far('orc', 'npc', 1, 1, { naturalWeapons: true })]);
    const r = act(s, 'load', 'hero', { itemId: 'xbow' });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ actionType: 'move' });
    expect(r.state.reaction?.eligible).toEqual(['orc']);
    expect(passAll(r.state).combatants['hero']!.items[0]!.props).toMatchObject({ loaded: true });
  });

  it('USE TOOL OR DEVICE: type and provocation from the item or the GM', () => {
    const kit = { id: 'kit', name: 'Lockpicks', location: 'carried', props: { action: 'quick', provokes: false } };
    const { s } = setup([{ id: 'hero', side: 'pc', at: [0, 0], items: [kit] }, far('orc', 'npc', 1, 1, { naturalWeapons: true })]);
    const r = act(s, 'use-tool', 'hero', { itemId: 'kit' });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ actionType: 'quick' });
    expect(r.state.reaction).toBeNull();
  });

  it('USE POWER: personal and close powers do not provoke; ranged "does provoke"; ranged needs a "non-adjacent" target', () => {
    const powers = [
      { id: 'bolt', name: 'Bolt', range: 'ranged', rank: 4, effect: 'damage' },
      { id: 'touch', name: 'Shock', range: 'close', rank: 4, effect: 'affliction', condition: 'stunned' },
      { id: 'skin', name: 'Iron Skin', range: 'personal', action: 'move' },
      { id: 'charm', name: 'Charm', range: 'court', effect: 'affliction', condition: 'entranced' },
      { id: 'slander', name: 'Slander', range: 'gossip' },
    ];
    const { s } = setup([
      far('mage', 'pc', 0, 0, { powers }),
      far('orc', 'npc', 1, 0, { naturalWeapons: true }),
      far('gob', 'npc', 5, 0),
      far('king', 'npc', 40, 0),
    ]);
    expect(refuse(s, { type: 'use-power', by: gm, combatantId: 'mage', powerId: 'bolt', targetIds: ['orc'] }).rule).toBe(
      'action-round.power-ranged',
    );
    expect(act(s, 'use-power', 'mage', { powerId: 'bolt', targetIds: ['gob'] }).state.reaction?.eligible).toEqual(['orc']);
    expect(act(force(s, 20, 1), 'use-power', 'mage', { powerId: 'touch', targetIds: ['orc'] }).state.reaction).toBeNull();
    const personal = act(s, 'use-power', 'mage', { powerId: 'skin' });
    expect(personal.state.reaction).toBeNull();
    expect(events(personal, 'action-round.spent')[0]).toMatchObject({ actionType: 'move' });
    expect(act(force(s, 20, 1), 'use-power', 'mage', { powerId: 'charm', targetIds: ['gob'] }).state.reaction).toBeNull();
    expect(refuse(s, { type: 'use-power', by: gm, combatantId: 'mage', powerId: 'slander', targetIds: ['gob'] }).rule).toBe(
      'action-round.power-gossip',
    );
    expect(act(s, 'use-power', 'mage', { powerId: 'slander', targetIds: ['king'] }).state.reaction?.eligible).toEqual(['orc']);
  });
});

describe('legalActions', () => {
  it('gives every action with its type, its cost in the budget (substitutions included), whom it provokes and why it is blocked', () => {
    let { s } = setup([
      far('hero', 'pc', 0, 0, { naturalWeapons: true, range: 10 }),
      far('orc', 'npc', 1, 0, { naturalWeapons: true }),
      far('gob', 'npc', 5, 0),
    ]);
    let opts = legal(s, 'hero');
    const ranged = opts.find((o) => o.action === 'attack-ranged')!;
    expect(ranged).toMatchObject({ kind: 'standard', cost: { standard: 1 }, allowed: true, provokes: { from: ['orc'] } });
    expect(ranged.params?.[0]).toMatchObject({ name: 'targetId', options: ['gob'] });
    expect(opts.find((o) => o.action === 'draw')).toMatchObject({ allowed: false, blocked: { rule: 'action-round.draw' } });
    expect(opts.find((o) => o.action === 'opportunity-attack')).toMatchObject({ allowed: false, kind: 'reaction' });
    s = act(s, 'ammo', 'hero', { mode: 'draw' }).state;
    s = act(s, 'defend', 'hero').state;
    s = run(s, {
      type: 'combatant.update',
      by: gm,
      combatantId: 'hero',
      changes: {
        items: [
          { id: 'a', name: 'A', location: 'carried' },
          { id: 'b', name: 'B', location: 'carried' },
        ],
      },
    }).state;
    s = act(s, 'draw', 'hero', { itemId: 'a' }).state;
    opts = legal(s, 'hero');
    expect(opts.find((o) => o.action === 'draw')).toMatchObject({ allowed: true, cost: { move: 1 } });
    expect(opts.find((o) => o.action === 'defend')).toMatchObject({
      allowed: false,
      blocked: { code: 'BUDGET_EXHAUSTED', rule: 'action-round.one-standard' },
    });
    expect(opts.find((o) => o.action === 'charge')?.blocked?.rule).toBe('action-round.one-standard');
    // the other side, off turn: only reactions, talk and spends
    const orc = legal(s, 'orc')
      .filter((o) => o.allowed)
      .map((o) => o.action);
    expect(orc).toContain('talk');
    expect(orc).toContain('surge-edge');
    expect(orc).not.toContain('defend');
  });

  it('inside an opportunity-attack window the eligible enemy sees the reaction and a pass; others see REACTION_PENDING', () => {
    const { s } = setup([far('hero', 'pc', 0, 0), far('orc', 'npc', 1, 0, { naturalWeapons: true })]);
    const w = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: -1, y: 0 }] }).state;
    const orc = legal(w, 'orc');
    expect(orc.find((o) => o.action === 'opportunity-attack')?.allowed).toBe(true);
    expect(orc.find((o) => o.command === 'reaction.pass')?.allowed).toBe(true);
    expect(legal(w, 'hero').find((o) => o.action === 'defend')?.blocked?.code).toBe('REACTION_PENDING');
  });
});
