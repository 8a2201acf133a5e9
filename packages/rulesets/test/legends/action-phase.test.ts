import { describe, expect, it } from 'vitest';
import { legends } from '../../src/legends/index.js';
import { started } from './helpers.js';

const sword = { id: 'sword', name: 'Sword', location: 'right-hand', props: { weapon: 'melee', type: 'sword', oneHanded: { STR: 5 } } };
const two = [
  { id: 'a1', side: 'heroes', items: [sword, { id: 'potion', name: 'Potion', location: 'carried' }] },
  { id: 'a2', side: 'heroes' },
  { id: 'b1', side: 'foes' },
  { id: 'b2', side: 'foes' },
];

describe('legends: the action phase', () => {
  it('"Each character takes their turn in the sequence determined by the turn order list" — acting out of turn is refused', () => {
    const t = started(two);
    t.refuse({ type: 'act', combatantId: 'a2', action: 'speak' }, 'legends.turns', 'NOT_YOUR_TURN');
  });

  it('"you cannot do more than one free action of the same type"', () => {
    const t = started(two);
    t.do({ type: 'act', combatantId: 'a1', action: 'shout' });
    t.do({ type: 'act', combatantId: 'a1', action: 'speak' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'shout' }, 'legends.free-actions', 'BUDGET_EXHAUSTED');
  });

  it('"You may do as many different free actions as you wish" unless the table caps them (maxFreeActionsPerTurn)', () => {
    const t = started(two, { options: { maxFreeActionsPerTurn: 1 } });
    t.do({ type: 'act', combatantId: 'a1', action: 'shout' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'speak' }, 'legends.free-actions');
  });

  it('"After undertaking one major action, your turn is over." — free actions come before it', () => {
    const t = started(two);
    t.do({ type: 'act', combatantId: 'a1', action: 'shout' });
    const ev = t.do({ type: 'defineAction', action: { key: 'rally', name: 'Rally', kinds: ['major'] } });
    expect(ev[0]!.type).toBe('legends.actionDefined');
    t.do({ type: 'act', combatantId: 'a1', action: 'rally' });
    expect(t.clock.current).toBe('a2');
    expect(t.c('a1').data.turn.seq).toEqual(['free', 'major']);
    expect(t.c('a1').data.turn.ended).toBe(true);
  });

  it('"you can normally only do one minor action per turn" — the second minor is the double minor and ends the turn', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'] } });
    t.do({ type: 'defineAction', action: { key: 'brace', name: 'Brace', kinds: ['minor'] } });
    t.do({ type: 'act', combatantId: 'a1', action: 'aim' });
    expect(t.clock.current).toBe('a1');
    // "Unless otherwise indicated, you cannot use this rule to do two minor actions of the same type."
    t.refuse({ type: 'act', combatantId: 'a1', action: 'aim' }, 'legends.double-minor');
    // "Your second minor action must end your turn, just as a major action would"
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'brace' });
    expect(ev.find((e) => e.type === 'legends.acted')!.doubleMinor).toBe(true);
    expect(t.clock.current).toBe('a2');
  });

  it('"you may give up your major action to perform a second minor action": no major after a minor+major, no minor after the major', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'] } });
    t.do({ type: 'act', combatantId: 'a1', action: 'aim' });
    t.do({ type: 'act', combatantId: 'a1', action: 'inventory', as: 'major', ops: [{ op: 'stow', itemId: 'sword' }] });
    expect(t.c('a1').data.turn.seq).toEqual(['minor', 'major']);
    expect(t.clock.current).toBe('a2');
  });

  it('"minor actions can be done anytime on your turn prior to your major action"', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'] } });
    t.do({ type: 'act', combatantId: 'a1', action: 'shout' });
    t.do({ type: 'act', combatantId: 'a1', action: 'aim' });
    t.do({ type: 'act', combatantId: 'a1', action: 'speak' });
    expect(t.c('a1').data.turn.seq).toEqual(['free', 'minor', 'free']);
  });

  it('"You can do only one verbal action per turn, regardless of whether that action is free, minor or major"', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'taunt', name: 'Taunt', kinds: ['minor'], tags: ['verbal'] } });
    t.do({ type: 'act', combatantId: 'a1', action: 'speak' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'taunt' }, 'legends.verbal');
  });

  it('"You cannot use verbal actions if you are deafened or prevented from speaking"', () => {
    const t = started(two);
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Deafened', condition: 'deafened' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'speak' }, 'legends.verbal');
    t.do({ type: 'act', combatantId: 'a1', action: 'shout' }); // "A momentary shout ... does not constitute a verbal action"
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'effect.apply', targetId: 'a2', name: 'Gagged', condition: 'silenced' });
    t.refuse({ type: 'act', combatantId: 'a2', action: 'speak' }, 'legends.verbal');
  });

  it('"They cannot occur when you are unconscious ... but may be performed even if you are pinned, paralyzed"', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'mind-link', name: 'Mind link', kinds: ['minor'], tags: ['purely-mental'] } });
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Pinned', condition: 'pinned' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'shout' }, 'legends.purely-mental');
    t.do({ type: 'act', combatantId: 'a1', action: 'mind-link' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'effect.apply', targetId: 'a2', name: 'Out cold', condition: 'unconscious', data: {} });
    // a2's turn is skipped (skipIncapacitatedTurns); with the option off the refusal is visible
    expect(t.clock.current).toBe('a2');
    t.refuse({ type: 'act', combatantId: 'a2', action: 'mind-link' }, 'legends.purely-mental');
  });

  it('the turns of unconscious characters are skipped by default', () => {
    const t = started(two);
    t.do({ type: 'effect.apply', targetId: 'a2', name: 'Out cold', condition: 'unconscious' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    expect(t.clock.current).toBe('b1');
  });

  it('"Slowing actions can only be performed if you did not attempt a movement roll during this round\'s movement phase"', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'steady', name: 'Steady aim', kinds: ['minor'], tags: ['slowing'] } });
    t.skipTo('movement', 2);
    t.force(12); // a1 fails its movement roll, but attempted it
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    t.do({ type: 'advancePhase' });
    t.skipTo('action', 2);
    expect(t.clock.current).toBe('a1');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'steady' }, 'legends.slowing');
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'steady' });
  });

  it('"A mounted character may still do slowing actions if their mount participated in the movement phase (but the mount cannot)"', () => {
    const t = started([
      { id: 'a1', side: 'h', stats: { mountId: 'horse' } },
      { id: 'horse', side: 'h', stats: { kind: 'animal' } },
      { id: 'b1', side: 'f' },
    ]);
    t.do({ type: 'defineAction', action: { key: 'steady', name: 'Steady aim', kinds: ['free'], tags: ['slowing'] } });
    t.skipTo('movement', 2);
    // the rider does not roll: the mount moves and carries it along
    expect(t.state.rs.movers).toEqual(['horse', 'b1']);
    t.force(1);
    t.do({ type: 'move', combatantId: 'horse', destination: { zone: 'main', area: 'hill' } });
    t.do({ type: 'finishMove', combatantId: 'horse' });
    expect(t.pos('a1')).toEqual(t.pos('horse'));
    t.skipTo('action', 2);
    t.do({ type: 'act', combatantId: 'a1', action: 'steady' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    expect(t.clock.current).toBe('horse');
    t.refuse({ type: 'act', combatantId: 'horse', action: 'steady' }, 'legends.slowing');
  });

  it('unknown actions and malformed parameters are refused with a typed error and no change', () => {
    const t = started(two);
    t.refuse({ type: 'act', combatantId: 'a1', action: 'teleport' }, 'legends.actions', 'ILLEGAL_ACTION');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'speak', as: 'major' }, 'legends.actions', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'speak', bogus: 1 }, 'legends.act', 'INVALID_COMMAND');
  });

  it('GM-defined and Ability-granted actions are played like the built-in ones', () => {
    const t = started([
      {
        id: 'a1',
        side: 'h',
        stats: { actions: [{ key: 'war-cry', name: 'War cry', kinds: ['free'], tags: ['verbal'], repeatable: false }] },
      },
      { id: 'b1', side: 'f' },
    ]);
    t.do({ type: 'act', combatantId: 'a1', action: 'war-cry' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'speak' }, 'legends.verbal');
    const opts = t.legal('a1');
    const cry = opts.find((o) => o.action === 'war-cry')!;
    expect(cry.allowed).toBe(false);
    expect(cry.blocked!.rule).toBe('legends.free-actions');
    t.do({ type: 'defineAction', action: { key: 'jab', name: 'Jab', kinds: ['free'], repeatable: true } });
    t.do({ type: 'act', combatantId: 'a1', action: 'jab' });
    t.do({ type: 'act', combatantId: 'a1', action: 'jab' });
    t.do({ type: 'removeAction', key: 'jab' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'jab' }, 'legends.actions');
  });
});

describe('legends: everyone down', () => {
  it('when every character is unconscious the turns are not skipped (no endless rounds)', () => {
    const t = started([
      { id: 'a1', side: 'h' },
      { id: 'b1', side: 'f' },
    ]);
    t.do({ type: 'effect.apply', targetId: 'b1', name: 'Down', condition: 'unconscious' });
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Down', condition: 'unconscious' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    expect(t.clock).toMatchObject({ round: 1, phase: 'action', current: 'b1' });
    t.do({ type: 'turn.end', combatantId: 'b1' });
    expect(t.clock.round).toBe(2);
  });
});

describe('legends: everyone removed', () => {
  it('removing every combatant leaves the round waiting instead of looping', () => {
    const t = started([
      { id: 'a1', side: 'h' },
      { id: 'b1', side: 'f' },
    ]);
    t.do({ type: 'combatant.remove', combatantId: 'b1' });
    t.do({ type: 'combatant.remove', combatantId: 'a1' });
    expect(t.clock.order).toEqual([]);
    expect(legends.invariants!(t.state)).toEqual([]);
    t.add({ id: 'c1', side: 'h' });
    expect(t.clock.order).toEqual(['c1']);
    t.do({ type: 'advancePhase' });
    expect(t.clock.current).toBe('c1');
  });
});
