import { describe, expect, it } from 'vitest';
import { threatenedSquares } from '../../src/action-round/mechanics/space.js';
import { act, conds, data, endTurn, events, force, gm, legal, passAll, pos, refuse, run, setup } from './helpers.js';
import type { C } from '../../src/action-round/state/index.js';

const line = (x0: number, x1: number, y = 0) => Array.from({ length: x1 - x0 + 1 }, (_, i) => ({ x: x0 + i, y }));

describe('MOVE [Move, OA from Movement]', () => {
  it('WALK: "up to your normal speed rank ... rank 0 ground speed for most people (up to 30 feet)" = 6 squares', () => {
    const { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [0, 9] },
    ]);
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'walk', path: line(1, 7) }).message).toContain('more than the 6');
    expect(pos(act(s, 'move', 'hero', { mode: 'walk', path: line(1, 6) }).state, 'hero')).toEqual({ x: 6, y: 0 });
    // a faster character: rank 1 = 60 feet = 12 squares
    const f = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { speedRank: 1 } },
      { id: 'orc', side: 'npc', at: [0, 9] },
    ]).s;
    expect(pos(act(f, 'move', 'hero', { mode: 'walk', path: line(1, 12) }).state, 'hero')).toEqual({ x: 12, y: 0 });
  });

  it('SQUEEZE: "at your normal speed -1 rank (typically 15 feet)"', () => {
    const { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [0, 9] },
    ]);
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'squeeze', path: line(1, 4) }).message).toContain('3');
    expect(pos(act(s, 'move', 'hero', { mode: 'squeeze', path: line(1, 3) }).state, 'hero')).toEqual({ x: 3, y: 0 });
  });

  it('CRAWL: "While prone, you can only move by crawling. You crawl at your normal speed -3 ranks (typically 5 feet)."', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [0, 9] },
    ]);
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'crawl', path: line(1, 1) }).rule).toBe('action-round.crawl');
    s = act(s, 'drop', 'hero', { what: 'prone' }).state;
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'walk', path: line(1, 1) }).rule).toBe('action-round.crawl');
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'crawl', path: line(1, 2) }).message).toContain('1');
    expect(pos(act(s, 'move', 'hero', { mode: 'crawl', path: line(1, 1) }).state, 'hero')).toEqual({ x: 1, y: 0 });
  });

  it('RUN: an Athletics check vs Moderate DC "as a free action": one or more degrees = +1 speed rank for one round', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [0, 19] },
    ]);
    s = force(s, 15, 20);
    const r = act(s, 'move', 'hero', { mode: 'run', path: line(1, 12) });
    expect(pos(r.state, 'hero')).toEqual({ x: 12, y: 0 });
    expect(data(r.state, 'hero').free).toBe(2);
    expect(data(r.state, 'hero').fatigue).toBe(0);
  });

  it('RUN: "can cause Fatigue. You can make a Moderate DC Endurance check ... Running for successive rounds increases the degrees of success needed"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [0, 19] },
    ]);
    // round 1: endurance succeeds with one degree (15 vs 15)
    s = force(s, 15, 15);
    s = act(s, 'move', 'hero', { mode: 'run', path: line(1, 12) }).state;
    expect(data(s, 'hero').fatigue).toBe(0);
    s = endTurn(endTurn(s, 'hero'), 'orc');
    // round 2: one degree is no longer enough
    s = force(s, 15, 15);
    s = act(s, 'move', 'hero', { mode: 'run', path: line(13, 24) }).state;
    expect(data(s, 'hero')).toMatchObject({ fatigue: 1, runStreak: 1 });
  });

  it('a failed run check leaves the normal speed', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [0, 19] },
    ]);
    s = force(s, 2);
    expect(refuse(force(s), { type: 'move', by: gm, combatantId: 'hero', mode: 'run', path: line(1, 12) }).code).toBe('ILLEGAL_ACTION');
  });
});

describe('OPPORTUNITY ATTACK [Reaction] and threatened squares', () => {
  it('"you threaten all squares into which you can make a melee attack ... all squares adjacent to your space (including diagonally)"', () => {
    const { s } = setup([
      { id: 'orc', side: 'npc', at: [5, 5], stats: { naturalWeapons: true } },
      { id: 'hero', side: 'pc', at: [0, 0] },
    ]);
    const sq = threatenedSquares(s, s.options as never, s.combatants['orc'] as C)
      .map((p) => `${p.x},${p.y}`)
      .sort();
    expect(sq).toEqual(['4,4', '4,5', '4,6', '5,4', '5,6', '6,4', '6,5', '6,6']);
  });

  it('"Exiting out of a square threatened by another creature provokes"; the OA is "a melee attack as if you had taken the Close Attack action"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [1, 1], stats: { naturalWeapons: true, damage: { close: 3 } } },
    ]);
    const r = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
        { x: 0, y: 3 },
      ],
    });
    expect(r.state.reaction).toMatchObject({ kind: 'action-round.opportunity-attack', eligible: ['orc'] });
    expect(pos(r.state, 'hero')).toEqual({ x: 0, y: 0 });
    s = force(r.state, 15, 1);
    const oa = run(s, { type: 'opportunity-attack', by: gm, combatantId: 'orc' });
    expect(events(oa, 'action-round.attack-resolved')[0]).toMatchObject({
      combatantId: 'orc',
      targetId: 'hero',
      kind: 'close',
      action: 'opportunity-attack',
    });
    // the provoking movement resumes: the orc already reacted this turn, so no second window
    expect(pos(oa.state, 'hero')).toEqual({ x: 0, y: 3 });
    expect(oa.state.reaction).toBeNull();
  });

  it('"If you’re unarmed, you don’t normally threaten any squares and thus can’t make Opportunity Attacks"', () => {
    const { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [1, 1] },
    ]);
    const r2 = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
      ],
    });
    expect(r2.state.reaction).toBeNull();
    expect(threatenedSquares(s, s.options as never, s.combatants['orc'] as C)).toEqual([]);
  });

  it('"if you are in a Conflict or Challenge ... and have a Wits ranks, you threaten anything within court range, and may make a court attack"', () => {
    let { s } = setup(
      [
        { id: 'hero', side: 'pc', at: [0, 0], stats: { range: 10 } },
        { id: 'duke', side: 'npc', at: [4, 0], stats: { skills: { wits: 2 } } },
        { id: 'mob', side: 'npc', at: [9, 0] },
      ],
      { encounterType: 'conflict' },
    );
    const r = act(s, 'attack', 'hero', { kind: 'rumor', targetId: 'mob' });
    expect(r.state.reaction?.eligible).toEqual(['duke']);
    s = force(r.state, 1, 1);
    const oa = run(s, { type: 'opportunity-attack', by: gm, combatantId: 'duke' });
    expect(events(oa, 'action-round.attack-resolved')[0]).toMatchObject({ combatantId: 'duke', kind: 'court' });
    // in combat the duke, unarmed, threatens nothing
    const c = setup(
      [
        { id: 'hero', side: 'pc', at: [0, 0], stats: { range: 10 } },
        { id: 'duke', side: 'npc', at: [4, 0], stats: { skills: { wits: 2 } } },
        { id: 'mob', side: 'npc', at: [9, 0] },
      ],
      {},
    ).s;
    expect(act(force(c, 1), 'attack', 'hero', { kind: 'ranged', targetId: 'mob' }).state.reaction).toBeNull();
  });

  it('"An enemy that takes certain actions while in a threatened square provokes": [OA] actions such as aim, retrieve, stand, load', () => {
    const crossbow = { id: 'xbow', name: 'Crossbow', location: 'right-hand', tags: ['weapon', 'complex'] };
    const { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], items: [crossbow] },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
    ]);
    for (const [type, fields] of [
      ['aim', { targetId: 'orc' }],
      ['load', { itemId: 'xbow' }],
      ['retrieve', { itemId: 'xbow', to: 'carried' }],
    ] as const) {
      expect(act(s, type, 'hero', fields).state.reaction?.eligible, type).toEqual(['orc']);
    }
    expect(act(s, 'defend', 'hero').state.reaction).toBeNull();
    const opts = legal(s, 'hero');
    expect(opts.find((o) => o.action === 'aim')?.provokes).toEqual({ from: ['orc'], reason: 'an [OA] action in a threatened square' });
    expect(opts.find((o) => o.action === 'defend')?.provokes).toBeNull();
    expect(opts.find((o) => o.action === 'move-walk')?.provokes).toMatchObject({ from: ['orc'], reason: 'leaving a threatened square' });
  });

  it('STAND [Move, OA]; "from prone to standing as a free action (with no Opportunity Action) by making an Acrobatics check with a Hard DC"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { skills: { acrobatics: 10 } } },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
    ]);
    s = act(s, 'drop', 'hero', { what: 'prone' }).state;
    const r = act(s, 'stand', 'hero');
    expect(r.state.reaction?.eligible).toEqual(['orc']);
    expect(conds(passAll(r.state), 'hero')).not.toContain('prone');
    s = force(s, 10);
    const f = act(s, 'stand', 'hero', { acrobatic: true });
    expect(f.state.reaction).toBeNull();
    expect(events(f, 'action-round.check')[0]).toMatchObject({ dc: 20, success: true });
    expect(conds(f.state, 'hero')).not.toContain('prone');
    expect(data(f.state, 'hero').slots.move).toBe(1);
  });

  it('ADVANCE/WITHDRAW: speed -3 ranks; "As long as you are moving towards (away from) the nearest enemy you do not provoke"', () => {
    const scene = () =>
      setup([
        { id: 'hero', side: 'pc', at: [0, 0] },
        { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
        { id: 'gob', side: 'npc', at: [9, 9] },
      ]).s;
    expect(
      refuse(scene(), {
        type: 'withdraw',
        by: gm,
        combatantId: 'hero',
        path: [
          { x: -1, y: 0 },
          { x: -2, y: 0 },
        ],
      }).message,
    ).toContain('more than the 1');
    expect(act(scene(), 'withdraw', 'hero', { path: [{ x: -1, y: 0 }] }).state.reaction).toBeNull();
    // sideways is not "away": it provokes
    expect(act(scene(), 'withdraw', 'hero', { path: [{ x: 0, y: 1 }] }).state.reaction?.eligible).toEqual(['orc']);
    expect(act(scene(), 'advance', 'hero', { path: [{ x: 1, y: 1 }] }).state.reaction?.eligible).toEqual(['orc']);
  });

  it('opportunity attacks are reactions: an enemy who already reacted this turn does not get one', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [1, 1], stats: { naturalWeapons: true } },
    ]);
    s = act(s, 'surge', 'orc', { benefit: 'edge' }).state;
    expect(
      act(s, 'move', 'hero', {
        mode: 'walk',
        path: [
          { x: 0, y: 1 },
          { x: 0, y: 2 },
          { x: 0, y: 3 },
        ],
      }).state.reaction,
    ).toBeNull();
  });
});

describe('AIM [Move, OA]', () => {
  const scene = () =>
    setup([
      { id: 'archer', side: 'pc', at: [0, 0], stats: { range: 30 } },
      { id: 'orc', side: 'npc', at: [10, 0] },
      { id: 'gob', side: 'npc', at: [12, 0] },
    ]).s;

  it('"a +1 Advantage to your next attack check. You can take multiple Aim checks in a row, gaining up to a maximum bonus of +5"', () => {
    let s = scene();
    s = act(s, 'aim', 'archer', { targetId: 'orc' }).state;
    s = act(s, 'aim', 'archer', { targetId: 'orc' }).state; // the second move substitutes for the standard action
    expect(data(s, 'archer').aim).toMatchObject({ targetId: 'orc', bonus: 2 });
    for (let i = 0; i < 2; i++) {
      s = endTurn(endTurn(endTurn(s, 'archer'), 'orc'), 'gob');
      s = act(s, 'maintain-aim', 'archer').state;
      s = act(s, 'aim', 'archer', { targetId: 'orc' }).state;
      s = act(s, 'aim', 'archer', { targetId: 'orc' }).state;
    }
    expect(data(s, 'archer').aim?.bonus).toBe(5);
    s = endTurn(endTurn(endTurn(s, 'archer'), 'orc'), 'gob');
    s = act(s, 'maintain-aim', 'archer').state;
    s = force(s, 10, 20);
    const r = act(s, 'attack', 'archer', { kind: 'ranged', targetId: 'orc' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20+5');
    expect(data(r.state, 'archer').aim).toBeNull();
  });

  it('"you are vulnerable while aiming"', () => {
    const s = act(scene(), 'aim', 'archer', { targetId: 'orc' }).state;
    expect(conds(s, 'archer')).toContain('vulnerable');
  });

  it('"it requires a free action to maintain your aim ... If you are unable to maintain it, you lose its benefit"', () => {
    let s = act(scene(), 'aim', 'archer', { targetId: 'orc' }).state;
    s = endTurn(endTurn(endTurn(s, 'archer'), 'orc'), 'gob');
    const r = run(s, { type: 'turn.end', by: gm, combatantId: 'archer' });
    expect(events(r, 'action-round.aim-lost')[0]).toMatchObject({ reason: 'not maintained' });
    expect(conds(r.state, 'archer')).not.toContain('vulnerable');
  });

  it('"Attacking someone else spoils your aim and you lose the bonus"', () => {
    let s = act(scene(), 'aim', 'archer', { targetId: 'orc' }).state;
    s = force(s, 10, 20);
    const r = act(s, 'attack', 'archer', { kind: 'ranged', targetId: 'gob' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20');
    expect(events(r, 'action-round.aim-lost')[0]).toMatchObject({ reason: 'attacked someone else' });
  });
});
