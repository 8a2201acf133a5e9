import { describe, expect, it } from 'vitest';
import { started, type Spec, type Table } from './helpers.js';

/**
 * The most specific rule (issue 35): each refusal names the rule that forbids the command and says what happened and
 * why, not a broader rule (a generic turn, free-action, reaction or schema refusal).
 */

const two: Spec[] = [
  { id: 'a1', side: 'heroes' },
  { id: 'a2', side: 'heroes' },
  { id: 'b1', side: 'foes' },
  { id: 'b2', side: 'foes' },
];
const axe = { id: 'axe', name: 'Axe', location: 'right-hand', props: { weapon: 'melee', type: 'axe' } };

describe('legends: a turn that ended by itself names the rule that ended it', () => {
  it('"After undertaking one major action, your turn is over." — a further action is refused by the major action rule', () => {
    const t = started([{ ...two[0]!, items: [axe] }, ...two.slice(1)], {
      setup: (t) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'b1'] }),
      options: { firstRoundGroupDefense: false, attackOutcome: false },
    });
    t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'axe' });
    expect(t.clock.current).toBe('a2');
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'speak' }, 'legends.major-action', 'NOT_YOUR_TURN');
    expect(e.message).toContain("a1's turn is over this round");
    expect(e.message).toContain('"After undertaking one major action, your turn is over."');
    t.refuse({ type: 'turn.end', combatantId: 'a1' }, 'legends.major-action', 'NOT_YOUR_TURN');
    // legalActions blocks it with the same rule
    const end = t.legal('a1').find((o) => o.command === 'turn.end')!;
    expect(end.blocked?.rule).toBe('legends.major-action');
    expect(t.legal('a1').find((o) => o.action === 'speak')!.blocked?.rule).toBe('legends.major-action');
  });

  it('"Your second minor action must end your turn, just as a major action would" — then the double minor rule refuses', () => {
    const t = started(two);
    t.do({ type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'] } });
    t.do({ type: 'defineAction', action: { key: 'brace', name: 'Brace', kinds: ['minor'] } });
    t.do({ type: 'act', combatantId: 'a1', action: 'aim' });
    t.do({ type: 'act', combatantId: 'a1', action: 'brace' });
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'shout' }, 'legends.double-minor', 'NOT_YOUR_TURN');
    expect(e.message).toContain('"Your second minor action must end your turn"');
  });

  it('"completely forfeiting one turn": after a forfeit, the turn order change rule says the turn was forfeited', () => {
    const t = started(two, { options: { firstRoundGroupDefense: false } });
    t.skipTo('action', 2);
    t.endTurnsUntil('a1');
    t.do({ type: 'forfeitTurn', combatantId: 'a1' });
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'shout' }, 'legends.turn-order.change', 'NOT_YOUR_TURN');
    expect(e.message).toContain('forfeited');
  });

  it('a turn ended by its player, or not yet begun, is refused by the turn order rule', () => {
    const t = started(two);
    t.refuse({ type: 'act', combatantId: 'a2', action: 'speak' }, 'legends.turns', 'NOT_YOUR_TURN');
    t.do({ type: 'turn.end', combatantId: 'a1' });
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'speak' }, 'legends.turns', 'NOT_YOUR_TURN');
    expect(e.message).toContain('(it was ended)');
  });
});

describe('legends: a second touch names the touch rule', () => {
  it('"you may only touch one character per turn" — not the rule of free actions of the same type', () => {
    const t = started(two, {
      setup: (t) => t.do({ type: 'formGroup', combatantIds: ['a1', 'a2'] }),
      options: { firstRoundGroupDefense: false },
    });
    t.do({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2' });
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2' }, 'legends.touch', 'BUDGET_EXHAUSTED');
    expect(e.message).toContain('"you may only touch one character per turn"');
    expect(e.message).toContain('already touched a2');
    expect(t.legal('a1').find((o) => o.action === 'touch')!.blocked?.rule).toBe('legends.touch');
  });
});

describe('legends: a reactive movement nobody prepared names the reactive movement rule', () => {
  const moving = (): Table => {
    const t = started(two);
    t.skipTo('movement', 2);
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b1', anticipate: 'follow b1' });
    t.do({ type: 'stay', combatantId: 'a2' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    expect(t.state.reaction?.eligible).toEqual(['a1']);
    return t;
  };

  it('"you may prepare reactive movement as a response to a later character\'s movement" — one who did not may not react', () => {
    const t = moving();
    const e = t.refuse(
      { type: 'react', combatantId: 'a2', destination: { join: 'b1', mode: 'engage' } },
      'legends.reactive-movement',
      'ILLEGAL_ACTION',
    );
    expect(e.message).toContain("a2 prepared no reactive movement against b1's movement");
  });

  it('"You may always decline to use a reaction you\'ve prepared": one who declined may not react after all', () => {
    const t = started(two);
    t.skipTo('movement', 2);
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b1', anticipate: 'follow b1' });
    t.do({ type: 'prepareReaction', combatantId: 'a2', watch: 'b1', anticipate: 'follow b1' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    expect(t.state.reaction?.eligible).toEqual(['a1', 'a2']);
    t.do({ type: 'reaction.pass', combatantId: 'a2' });
    const e = t.refuse(
      { type: 'react', combatantId: 'a2', destination: { join: 'b1', mode: 'engage' } },
      'legends.reactive-movement',
      'ILLEGAL_ACTION',
    );
    expect(e.message).toContain('a2 declined this reactive movement already');
  });
});

describe('legends: a count the rules limit is refused by the rule, not by the schema', () => {
  it('"a group can protect 1/3 of its members": protecting more than ten is the ratio rule, not a schema message', () => {
    const heroes: Spec[] = Array.from({ length: 12 }, (_, i) => ({ id: `h${i + 1}`, side: 'heroes' }));
    const t = started([...heroes, { id: 'b1', side: 'foes' }], {
      options: { maxGroupSize: 20 },
      setup: (t) => t.do({ type: 'formGroup', combatantIds: heroes.map((h) => h.id), groupId: 'party' }),
    });
    expect(t.clock.phase).toBe('group-defense');
    const protect = heroes.slice(0, 11).map((h) => h.id);
    const e = t.refuse(
      { type: 'declareGroupDefense', combatantId: 'h12', protected: protect },
      'legends.group-defense.ratio',
      'ILLEGAL_ACTION',
    );
    expect(e.message).toContain('1 protected character per 2 non-protected characters');
  });

  it('"As a major action, you may choose up to three" inventory options: eleven are refused by the inventory rule', () => {
    const t = started(two);
    const ops = Array.from({ length: 11 }, () => ({ op: 'stow', itemId: 'x' }));
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'inventory', as: 'major', ops }, 'legends.inventory', 'ILLEGAL_ACTION');
    expect(e.message).toContain('up to 3');
  });
});
