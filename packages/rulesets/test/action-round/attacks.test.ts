import { describe, expect, it } from 'vitest';
import { act, conds, data, endTurn, events, force, gm, legal, passAll, pos, refuse, run, setup } from './helpers.js';

const axe = { id: 'axe', name: 'Axe', location: 'right-hand', tags: ['weapon'] };
const pike = { id: 'pike', name: 'Pike', location: 'both-hands', tags: ['weapon', 'two-handed'] };

describe('the four attack kinds', () => {
  it('ATTACK, CLOSE: "against any opponent within the attack’s reach"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true } },
      { id: 'orc', side: 'npc', at: [2, 2] },
    ]);
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc' }).rule).toBe(
      'action-round.attack-close',
    );
    s = run(s, { type: 'combatant.setStat', by: gm, combatantId: 'hero', stat: 'reach', value: 2 }).state;
    s = force(s, 1);
    expect(events(act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' }), 'action-round.attack-resolved')).toHaveLength(1);
  });

  it('"Attacking an armed opponent while unarmed normally provokes an Opportunity Attack" (and not when armed)', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [1, 1], items: [axe] },
    ]);
    const r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    expect(r.state.reaction).toMatchObject({ kind: 'action-round.opportunity-attack', eligible: ['orc'] });
    expect(events(r, 'action-round.attack-resolved')).toHaveLength(0);
    expect(legal(s, 'hero').find((o) => o.action === 'attack-close')?.provokes).toMatchObject({ from: ['orc'] });
    // the provoking attack resumes when the window closes
    s = force(r.state, 1);
    const p = run(s, { type: 'reaction.pass', by: gm, combatantId: 'orc' });
    expect(events(p, 'action-round.attack-resolved')[0]).toMatchObject({ combatantId: 'hero', targetId: 'orc' });
    // armed: no provocation
    let t = setup([
      { id: 'hero', side: 'pc', at: [0, 0], items: [axe] },
      { id: 'orc', side: 'npc', at: [1, 1], items: [{ ...axe, id: 'axe2' }] },
    ]).s;
    t = force(t, 1);
    expect(act(t, 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state.reaction).toBeNull();
  });

  it('ATTACK, COURT: "within conversation range"; "Attacking an opponent who has ranks in Wits while you do not, normally provokes"', () => {
    const scene = (opts: Record<string, unknown>, heroWits: number) =>
      setup(
        [
          { id: 'hero', side: 'pc', at: [0, 0], stats: { skills: { wits: heroWits } } },
          { id: 'duke', side: 'npc', at: [6, 0], stats: { skills: { wits: 2 } } },
          { id: 'far', side: 'npc', at: [7, 3] },
        ],
        opts,
      ).s;
    let s = scene({ encounterType: 'conflict' }, 0);
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'hero', kind: 'court', targetId: 'far' }).rule).toBe(
      'action-round.attack-court',
    );
    const r = act(s, 'attack', 'hero', { kind: 'court', targetId: 'duke' });
    expect(r.state.reaction).toMatchObject({ eligible: ['duke'] });
    s = force(scene({ encounterType: 'conflict' }, 1), 1);
    expect(act(s, 'attack', 'hero', { kind: 'court', targetId: 'duke' }).state.reaction).toBeNull();
  });

  it('ATTACK, RANGED [Standard, OA]: "against any non-adjacent opponent within the attack’s range"; provokes from threatening enemies', () => {
    let { s } = setup([
      { id: 'archer', side: 'pc', at: [0, 0], stats: { range: 10 } },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
      { id: 'gob', side: 'npc', at: [8, 0] },
      { id: 'far', side: 'npc', at: [11, 0] },
    ]);
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'archer', kind: 'ranged', targetId: 'orc' }).message).toContain('non-adjacent');
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'archer', kind: 'ranged', targetId: 'far' }).message).toContain('range');
    const r = act(s, 'attack', 'archer', { kind: 'ranged', targetId: 'gob' });
    expect(r.state.reaction).toMatchObject({ kind: 'action-round.opportunity-attack', eligible: ['orc'] });
    s = force(r.state, 20, 20, 1);
    // the orc's opportunity attack resolves first, then the arrow flies
    const oa = run(s, { type: 'opportunity-attack', by: gm, combatantId: 'orc' });
    const resolved = events(oa, 'action-round.attack-resolved');
    expect(resolved.map((e) => [e.combatantId, e.targetId])).toEqual([
      ['orc', 'archer'],
      ['archer', 'gob'],
    ]);
  });

  it('ATTACK, RUMOR: "outside conversation range but within communication range"', () => {
    const scene = (opts: Record<string, unknown>) =>
      setup(
        [
          { id: 'bard', side: 'pc', at: [0, 0] },
          { id: 'near', side: 'npc', at: [5, 0] },
          { id: 'mid', side: 'npc', at: [15, 0] },
          { id: 'far', side: 'npc', at: [60, 0] },
        ],
        { encounterType: 'conflict', ...opts },
      ).s;
    let s = scene({ communicationRange: 30 });
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'bard', kind: 'rumor', targetId: 'near' }).message).toContain(
      'outside conversation range',
    );
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'bard', kind: 'rumor', targetId: 'far' }).message).toContain(
      'communication range',
    );
    s = force(s, 1);
    expect(events(act(s, 'attack', 'bard', { kind: 'rumor', targetId: 'mid' }), 'action-round.attack-resolved')).toHaveLength(1);
    s = force(scene({}), 1);
    expect(events(act(s, 'attack', 'bard', { kind: 'rumor', targetId: 'far' }), 'action-round.attack-resolved')).toHaveLength(1);
  });

  it('damage: a hit is resisted with Toughness against 10 + damage rank; each degree of failure is a damage level', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true, damage: { close: 5 } } },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { toughness: 2 } },
    ]);
    s = force(s, 15, 3); // hit; toughness 3+2 = 5 vs 15: fails by 10 -> 3 degrees
    const r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    expect(events(r, 'action-round.damage-resolved')[0]).toMatchObject({ damage: 15, save: 'toughness', levels: 3 });
    expect(data(r.state, 'orc').damage).toBe(3);
  });
});

describe('DEFEND, RECOVER, CHARGE, TRICK', () => {
  it('RECOVER: "you gain 1 point of Stress, but remove your highest level of damage or fatigue"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [5, 0] },
    ]);
    s = run(s, { type: 'combatant.setStat', by: gm, combatantId: 'hero', stat: 'speedRank', value: 0 }).state;
    s = act(s, 'surge', 'hero', { benefit: 'edge' }).state; // fatigue comes at the start of the next turn
    s = endTurn(endTurn(s, 'hero'), 'orc');
    expect(data(s, 'hero').fatigue).toBe(1);
    s = act(s, 'recover', 'hero', { choice: 'fatigue' }).state;
    expect(data(s, 'hero')).toMatchObject({ fatigue: 0, stress: 1 });
  });

  it('RECOVER: "you can choose to make a resistance check against an ongoing effect"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [5, 0] },
    ]);
    s = run(s, {
      type: 'effect.apply',
      by: gm,
      targetId: 'hero',
      name: 'dazed',
      condition: 'dazed',
      data: { resist: { save: 'will', dc: 10 } },
    }).state;
    const effectId = s.effects[0]!.id;
    s = force(s, 12);
    s = act(s, 'recover', 'hero', { choice: 'resist', effectId }).state;
    expect(conds(s, 'hero')).not.toContain('dazed');
  });

  it('CHARGE: "at -1 to your speed rank in a relatively straight line towards your target"; leaving a threatened square provokes', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true } },
      { id: 'gob', side: 'npc', at: [0, 1], stats: { naturalWeapons: true } },
      { id: 'orc', side: 'npc', at: [4, 0] },
      { id: 'ogre', side: 'npc', at: [9, 0] },
    ]);
    // speed rank 0 - 1 = 3 squares: the ogre, 8 squares away, is out of a charge's reach
    expect(refuse(s, { type: 'charge', by: gm, combatantId: 'hero', targetId: 'ogre' }).rule).toBe('action-round.charge');
    expect(
      refuse(s, {
        type: 'charge',
        by: gm,
        combatantId: 'hero',
        targetId: 'orc',
        path: [
          { x: 1, y: 1 },
          { x: 1, y: 2 },
        ],
      }).message,
    ).toContain('closer');
    const r = act(s, 'charge', 'hero', { targetId: 'orc' });
    expect(r.state.reaction).toMatchObject({ eligible: ['gob'], trigger: { combatantId: 'hero' } });
    s = force(r.state, 10);
    const p = run(s, { type: 'reaction.pass', by: gm, combatantId: 'gob' });
    expect(pos(p.state, 'hero')).toEqual({ x: 3, y: 0 });
    expect(events(p, 'action-round.attack-resolved')[0]).toMatchObject({ action: 'charge', advantage: { disadvantage: -1 } });
  });

  it('TRICK: "your target is afflicted with a lesser condition of your choice ... until the end of your next round"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { skills: { lore: 5 } } },
      { id: 'orc', side: 'npc', at: [3, 0], stats: { skills: { insight: 1, investigation: 4 } } },
    ]);
    expect(
      refuse(s, {
        type: 'trick',
        by: gm,
        combatantId: 'hero',
        targetId: 'orc',
        skill: 'lore',
        opposing: ['insight', 'perception'],
        condition: 'dazed',
      }).message,
    ).toContain('different ability');
    expect(
      refuse(s, {
        type: 'trick',
        by: gm,
        combatantId: 'hero',
        targetId: 'orc',
        skill: 'athletics',
        opposing: ['insight', 'investigation'],
        condition: 'dazed',
      }).message,
    ).toContain('same ability group');
    expect(
      refuse(s, {
        type: 'trick',
        by: gm,
        combatantId: 'hero',
        targetId: 'orc',
        skill: 'lore',
        opposing: ['insight', 'investigation'],
        condition: 'dead',
      }).message,
    ).toContain('lesser condition');
    s = force(s, 5, 15);
    const r = act(s, 'trick', 'hero', { targetId: 'orc', skill: 'lore', opposing: ['insight', 'investigation'], condition: 'vulnerable' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20+4'); // "the better of any two skills"
    s = r.state;
    expect(conds(s, 'orc')).toContain('vulnerable');
    s = endTurn(endTurn(s, 'hero'), 'orc');
    expect(conds(s, 'orc')).toContain('vulnerable');
    s = endTurn(s, 'hero');
    expect(conds(s, 'orc')).not.toContain('vulnerable');
  });
});

describe('STUNT [Standard, OA]', () => {
  const scene = (orcItems: unknown[] = [], heroItems: unknown[] = []) =>
    setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true, damage: { close: 4 } }, items: heroItems },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { fortitude: 1, reflex: 3 }, items: orcItems },
    ]).s;

  it('"Make an attack check with a -1 Disadvantage"; a disarm against a two-handed hold is "-2 Disadvantage instead"', () => {
    let s = force(scene(), 1);
    expect(events(act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'push' }), 'dice.rolled')[0]!.formula).toBe('1d20-1');
    s = force(passAll(act(scene([pike]), 'stunt', 'hero', { targetId: 'orc', benefit: 'disarm' }).state), 1);
    expect(s.rolls.at(-1)!.formula).toBe('1d20-2');
  });

  it('"an opposed check of your attack’s damage against the defender’s Fortitude or Reflex resistance for Combat Attacks" (the better)', () => {
    const s = force(scene(), 15, 10, 12);
    const r = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'push' });
    expect(events(r, 'dice.rolled').map((e) => e.formula)).toEqual(['1d20-1', '1d20+3', '1d20+4']);
  });

  it('PUSH: "You push your target 5 feet per degree of success"', () => {
    let s = force(scene(), 15, 1, 14); // damage 4+14 = 18 vs reflex 3+1 = 4: 3 degrees
    s = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'push' }).state;
    expect(pos(s, 'orc')).toEqual({ x: 4, y: 0 });
  });

  it('PULL: "You pull your target 5 feet per degree of success"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true, reach: 4 } },
      { id: 'orc', side: 'npc', at: [4, 0] },
    ]);
    s = force(s, 15, 1, 10); // 10 vs 1: 2 degrees
    s = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'pull' }).state;
    expect(pos(s, 'orc')).toEqual({ x: 2, y: 0 });
  });

  it('AFFLICT: "an affliction of your choice on your target instead of damage", resisted at the end of its turns', () => {
    let s = force(scene(), 15, 1, 14);
    const r = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'afflict', condition: 'dazed' });
    expect(events(r, 'action-round.damage-resolved')).toHaveLength(0);
    s = r.state;
    expect(conds(s, 'orc')).toContain('dazed');
    s = endTurn(s, 'hero');
    s = force(s, 20);
    s = endTurn(s, 'orc');
    expect(conds(s, 'orc')).not.toContain('dazed');
  });

  it('DISARM: "The defender drops a targeted held object"; with two hands free and in reach "you can grab the dropped object as a free action"', () => {
    let s = act(scene([axe]), 'stunt', 'hero', { targetId: 'orc', benefit: 'disarm', itemId: 'axe' }).state;
    expect(s.reaction?.eligible).toEqual(['orc']); // the armed orc threatens the stunting hero
    s = passAll(force(s, 15, 1, 14));
    expect(s.combatants['orc']!.items).toEqual([]);
    expect(s.combatants['hero']!.items.map((i) => [i.id, i.location])).toEqual([['axe', 'right-hand']]);
    expect(data(s, 'hero').free).toBe(1);
  });

  it('DISARM with one hand free: "use a Quick action to make a Reaction check with a Moderate DC" to grab it', () => {
    const shield = { id: 'shield', name: 'Shield', location: 'left-hand', tags: [] };
    let s = act(scene([axe], [shield]), 'stunt', 'hero', { targetId: 'orc', benefit: 'disarm', itemId: 'axe', catch: true }).state;
    s = force(s, 15, 1, 14, 20);
    const r = run(s, { type: 'reaction.pass', by: gm, combatantId: 'orc' });
    expect(events(r, 'action-round.check').map((e) => e.purpose)).toContain('Reaction check to grab the disarmed object');
    expect(data(r.state, 'hero').slots.quick).toBe(0);
    expect(r.state.combatants['hero']!.items.map((i) => i.id)).toEqual(['shield', 'axe']);
  });

  it('GRAB: "a special cumulative sustained affliction (Held, Restrained, Bound)"; "You are hindered and vulnerable while grabbing"', () => {
    let s = force(scene(), 15, 1, 14);
    s = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'grab' }).state;
    expect(conds(s, 'orc')).toEqual(['held']);
    expect(conds(s, 'hero').sort()).toEqual(['hindered', 'vulnerable']);
    s = endTurn(endTurn(s, 'hero'), 'orc');
    s = force(s, 19, 1, 14);
    s = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'grab' }).state;
    expect(conds(s, 'orc')).toEqual(['restrained']);
  });

  it('ESCAPE: "If you succeed, you end the grab and can move" without an OA "from your grabber for leaving their threatened square"', () => {
    let s = force(scene(), 15, 1, 14);
    s = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'grab' }).state;
    s = endTurn(s, 'hero');
    s = run(s, { type: 'combatant.setStat', by: gm, combatantId: 'orc', stat: 'skills', value: { might: 5 } }).state;
    s = force(s, 2, 15); // hero's might (0) rolls 2 (chosen by the opponent: might 0 vs dexterity 0), orc 20
    const r = act(s, 'escape', 'orc', {
      skill: 'might',
      path: [
        { x: 2, y: 0 },
        { x: 3, y: 0 },
      ],
    });
    expect(events(r, 'action-round.escaped')).toHaveLength(1);
    expect(r.state.reaction).toBeNull();
    expect(pos(r.state, 'orc')).toEqual({ x: 3, y: 0 });
    expect(conds(r.state, 'orc')).toEqual([]);
    expect(conds(r.state, 'hero')).toEqual([]);
  });

  it('BREAK: "You inflict damage on an object carried or worn by your target"; held: "-2 Disadvantage instead"', () => {
    let s = act(scene([axe]), 'stunt', 'hero', { targetId: 'orc', benefit: 'break', itemId: 'axe' }).state;
    s = force(s, 15, 1, 14);
    const r = run(s, { type: 'reaction.pass', by: gm, combatantId: 'orc' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20-2');
    expect(r.state.combatants['orc']!.items[0]!.props).toMatchObject({ broken: true, damage: 3 });
  });

  it('"If you lose the opposed check, the defender may immediately make an attempt to use a Stunt on you as a Reaction"', () => {
    let s = force(scene(), 15, 20, 1);
    const r = act(s, 'stunt', 'hero', { targetId: 'orc', benefit: 'push' });
    expect(r.state.reaction).toMatchObject({ kind: 'action-round.counter-stunt', eligible: ['orc'] });
    s = force(r.state, 1, 18); // hero's reflex rolls 1, orc's damage rolls 18
    const c = run(s, { type: 'counter-stunt', by: gm, combatantId: 'orc', benefit: 'push' });
    expect(events(c, 'action-round.stunt-succeeded')[0]).toMatchObject({ combatantId: 'orc', targetId: 'hero', benefit: 'push' });
    expect(pos(c.state, 'hero').x).toBeLessThan(0);
    expect(data(c.state, 'orc').reactedSeq).toBe(c.state.rs.turnSeq);
  });
});
