import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, legal, ok, until, type St } from './helpers.js';

// Issue 35, item 4: a refusal names the most specific rule that forbids the command, and says what happened and why.

const solo = () =>
  encounter([
    { id: 'pc', side: 'a', stats: { dexterity: 14 }, at: { x: 0, y: 0 } },
    { id: 'far', side: 'b', stats: { dexterity: 8 }, at: { x: 9, y: 9 } },
  ]);

/** `pc` spends its three AP, one a phase, then ends its place: its turns in this round are over. */
function spentOut(): St {
  let s = solo();
  for (const phase of ['ready-missile', 'thrown', 'fast']) {
    s = until(s, 'pc', phase);
    s = act(s, 'pc', 'light-torch').state;
  }
  expect(s.combatants.pc!.data.ap).toBe(0);
  return end(s, 'pc').state;
}

describe('a turn that ended by itself says so', () => {
  it('"the next phase begins until each participant has used their allotment of action points": after its AP ran out, a free action names the AP rule, not the initiative order', () => {
    const s = spentOut();
    expect(s.clock.current).toBe('far');
    const e = err(s, { type: 'act', combatantId: 'pc', action: 'drop-prone' });
    expect(e).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'action-points.action-points' });
    expect(e.message).toContain('spent all its AP');
    expect(e.message).toContain('turns in this round are over');
    // legalActions says the same
    expect(legal(s, 'pc').find((o) => o.action === 'drop-prone')!.blocked).toEqual(e);
    expect(legal(s, 'pc').find((o) => o.command === 'turn.end')!.blocked!.rule).toBe('action-points.action-points');
  });

  it('"or have chosen to make no further expenditures of AP": stopping with no AP left is refused by the AP rule', () => {
    const s = spentOut();
    const e = err(s, { type: 'stop', combatantId: 'pc' });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.action-points' });
    expect(e.message).toContain('no AP left');
    expect(legal(s, 'pc').find((o) => o.command === 'stop')).toMatchObject({ allowed: false, blocked: e });
  });

  it('"it may perform another action now or delay until the next phase": a delayed creature is told it delayed, and until when', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = ok(s, { type: 'delay', combatantId: 'pc', untilPhase: 'slow' }).state;
    expect(s.clock.current).toBe('far');
    const e = err(s, { type: 'act', combatantId: 'pc', action: 'light-torch' });
    expect(e).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'action-points.delay' });
    expect(e.message).toContain('delayed until the slow phase');
  });

  it('"Combatants act in initiative order (highest to lowest) during each phase": after its place in the phase, it says the place has passed', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = end(s, 'pc').state;
    expect(s.clock.current).toBe('far');
    const e = err(s, { type: 'act', combatantId: 'pc', action: 'light-torch' });
    expect(e).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'action-points.initiative-order' });
    expect(e.message).toContain('place in the ready-missile phase has passed');
  });
});

describe('reactions the window does not offer name their rule, not engine.reactions', () => {
  const axe = { id: 'axe', name: 'Axe', category: 'light', damage: '1d6' };
  const melee = () =>
    encounter([
      { id: 'pc', side: 'heroes', stats: { dexterity: 14, hp: 40 }, at: { x: 0, y: 0 } },
      { id: 'orc', side: 'orcs', stats: { dexterity: 10, hp: 40, weapons: [axe] }, at: { x: 1, y: 0 } },
      { id: 'orc2', side: 'orcs', stats: { dexterity: 8, hp: 40 }, at: { x: 1, y: 1 } },
      { id: 'archer', side: 'orcs', stats: { dexterity: 6, hp: 40 }, at: { x: 6, y: 6 } },
    ]);

  it('"you can make additional attacks of opportunity each round with the Combat Reflexes feat": a second one in a round names that rule', () => {
    let s = until(melee(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'draw-sheathe').state; // base attack bonus +0: provokes
    s = ok(s, { type: 'attackOfOpportunity', combatantId: 'orc' }).state;
    s = ok(s, { type: 'reaction.pass', combatantId: 'orc2' }).state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    const r = act(s, 'pc', 'move', { path: [{ x: -1, y: 0 }] });
    expect(r.state.reaction!.eligible).toEqual(['orc2']);
    const e = err(r.state, { type: 'attackOfOpportunity', combatantId: 'orc' });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.aoo-per-round' });
    expect(e.message).toContain('already made its attack of opportunity this round');
  });

  it('"When a foe you threaten provokes an attack of opportunity": a foe out of reach is told it does not threaten', () => {
    let s = until(melee(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'draw-sheathe').state;
    const e = err(s, { type: 'attackOfOpportunity', combatantId: 'archer' });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.attack-of-opportunity' });
    expect(e.message).toContain('does not threaten pc');
  });

  it('"when the trigger you designate occurs, you can take that action": a readied creature whose trigger this is not is told so, by the readiness rule', () => {
    let s = encounter([
      { id: 'pc', side: 'a', stats: { dexterity: 14 }, at: { x: 0, y: 0 } },
      { id: 'ally', side: 'a', stats: { dexterity: 12 }, at: { x: 0, y: 2 } },
      { id: 'foe', side: 'b', stats: { dexterity: 8 }, at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'attacked', description: 'if a foe attacks me' },
    }).state;
    s = until(s, 'ally', 'ready-missile');
    s = act(s, 'ally', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'acts', description: 'if the foe does anything' },
    }).state;
    s = until(s, 'foe', 'ready-missile');
    const r = act(s, 'foe', 'light-torch');
    expect(r.state.reaction).toMatchObject({ kind: 'action-points.ready', eligible: ['ally'] });
    const e = err(r.state, { type: 'completeReady', combatantId: 'pc' });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.ready' });
    expect(e.message).toContain('not the trigger pc designated ("if a foe attacks me")');
  });
});

describe('other refusals that named a broader rule', () => {
  it('a creature at 0 hit points using an immediate-action ability is told it is down (not the surprise round)', () => {
    let s = until(solo(), 'far', 'ready-missile');
    s = ok(s, { type: 'setHp', combatantId: 'pc', hp: 0 }).state;
    const e = err(s, { type: 'immediateAction', combatantId: 'pc', text: 'feather fall' });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.down' });
    expect(e.message).toContain('down');
  });

  it('Charge: "If anything hinders or blocks your movement along the path of a charge, you can\'t take the charge action" names the charge rule', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'ally', side: 'a', at: { x: 2, y: 0 } },
      { id: 'foe', side: 'b', at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'thrown');
    const e = err(s, {
      type: 'act',
      combatantId: 'pc',
      action: 'charge',
      targetId: 'foe',
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
        { x: 3, y: 0 },
        { x: 4, y: 0 },
      ],
    });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.charge' });
    expect(e.message).toContain('ally is in the way');
  });

  it('Run: "You move four times your speed in a straight line" names the run rule', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'foe', side: 'b', at: { x: 9, y: 9 } },
    ]);
    s = until(s, 'pc', 'thrown');
    const e = err(s, {
      type: 'act',
      combatantId: 'pc',
      action: 'run',
      path: [
        { x: 1, y: 1 },
        { x: 2, y: 1 },
        { x: 3, y: 1 },
      ],
    });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-points.run' });
    expect(e.message).toContain('straight line');
  });
});
