import { describe, expect, it } from 'vitest';
import { started, type Spec } from './helpers.js';

const specs: Spec[] = [
  { id: 'a1', side: 'h' },
  { id: 'a2', side: 'h' },
  { id: 'b1', side: 'f' },
  { id: 'b2', side: 'f' },
];
const has = (t: ReturnType<typeof started>, name: string) => t.state.effects.some((e) => e.name === name);

describe('legends: durations', () => {
  it('"a duration of one round ... is effective during their current turn, during all subsequent characters\' turns and the next movement phase, and ends right before the character\'s next turn"', () => {
    const t = started(specs);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    // a2 activates an Ability with a duration of one round
    t.do({ type: 'effect.apply', targetId: 'a2', sourceId: 'a2', name: 'Shield spell', duration: { unit: 'round', count: 1 } });
    expect(t.state.effects[0]!.expires).toEqual({ at: 'turn-start', round: 2, anchor: 'a2' });
    t.do({ type: 'turn.end', combatantId: 'a2' });
    t.do({ type: 'turn.end', combatantId: 'b1' });
    t.do({ type: 'turn.end', combatantId: 'b2' });
    expect(t.clock.phase).toBe('movement');
    expect(has(t, 'Shield spell')).toBe(true);
    t.skipTo('action', 2);
    expect(t.clock.current).toBe('a1');
    expect(has(t, 'Shield spell')).toBe(true);
    const ev = t.do({ type: 'turn.end', combatantId: 'a1' });
    expect(t.clock.current).toBe('a2');
    expect(has(t, 'Shield spell')).toBe(false);
    expect(ev.some((e) => e.type === 'effect.expired')).toBe(true);
  });

  it('"a duration of 3 turns ... stops immediately before their fourth turn begins"', () => {
    const t = started(specs);
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Haste', duration: { unit: 'turns', count: 3 } });
    t.skipTo('action', 3);
    expect(t.clock.current).toBe('a1'); // third turn
    expect(has(t, 'Haste')).toBe(true);
    t.skipTo('action', 4);
    expect(t.clock.current).toBe('a1');
    expect(has(t, 'Haste')).toBe(false);
  });

  it('"If a duration begins during the movement phase, that countdown starts from the current movement phase, and ticks down at the beginning of every movement phase."', () => {
    const t = started(specs);
    t.skipTo('movement', 2);
    t.do({ type: 'effect.apply', targetId: 'b1', name: 'Smoke', duration: { unit: 'rounds', count: 2 } });
    expect(t.state.effects[0]!.expires).toEqual({ at: 'movement', round: 4 });
    t.skipTo('movement', 3);
    expect(has(t, 'Smoke')).toBe(true);
    t.skipTo('action', 3);
    t.skipTo('movement', 4);
    expect(has(t, 'Smoke')).toBe(false);
  });

  it('"the Ability will end at the position in turn order you originally occupied"', () => {
    const t = started(specs); // a1 a2 b1 b2
    t.skipTo('action', 2);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    // a2's own ability, then a2 forfeits... it must be a fresh turn: use round 3 instead
    t.do({ type: 'turn.end', combatantId: 'a2' });
    t.skipTo('action', 3);
    t.do({ type: 'effect.apply', targetId: 'a1', sourceId: 'a1', name: 'Ward', duration: { unit: 'round', count: 2 } });
    expect(t.state.effects[0]!.expires).toMatchObject({ anchor: 'a1', round: 5 });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'forfeitTurn', combatantId: 'a2' });
    t.skipTo('reorder', 4);
    t.do({ type: 'changeTurnOrder', combatantId: 'a2', index: 3 }); // a1 b1 b2 a2
    t.skipTo('action', 4);
    t.endTurnsUntil('a1');
    // a1 moves: forfeit in round 4, to the end in round 5
    t.do({ type: 'forfeitTurn', combatantId: 'a1' });
    t.skipTo('reorder', 5);
    expect(has(t, 'Ward')).toBe(true);
    const ev = t.do({ type: 'changeTurnOrder', combatantId: 'a1', index: 3 }); // b1 b2 a2 a1
    expect(t.clock.order).toEqual(['b1', 'b2', 'a2', 'a1']);
    // a1 originally sat right before b1: the Ward ends right before b1's turn in round 5, not before a1's
    expect(ev.find((e) => e.type === 'legends.turnOrderChanged')).toMatchObject({ successor: 'b1' });
    const types = ev.map((e) => (e.type === 'legends.turnBegan' ? `began:${String(e.combatantId)}` : e.type));
    expect(types.indexOf('effect.expired')).toBeGreaterThan(types.indexOf('began:b1'));
    expect(t.clock.phase).toBe('action');
    expect(t.clock.current).toBe('b1');
    expect(has(t, 'Ward')).toBe(false);
  });

  it('"Some effects may have a more specific duration rule that refers to the beginning or end of a certain character\'s turn"', () => {
    const t = started(specs);
    // b2 is dazed until the end of its next turn, applied during a1's turn
    t.do({ type: 'effect.apply', targetId: 'b2', name: 'Dazed', duration: { unit: 'end-of-turn', count: 1 } });
    t.endTurnsUntil('b2');
    expect(has(t, 'Dazed')).toBe(true);
    t.do({ type: 'turn.end', combatantId: 'b2' });
    expect(has(t, 'Dazed')).toBe(false);
    // until the start of b1's next turn, applied after b1 acted this round
    t.skipTo('action', 2);
    t.endTurnsUntil('b2');
    t.do({ type: 'effect.apply', targetId: 'b1', name: 'Marked', duration: { unit: 'start-of-turn', count: 1 } });
    t.skipTo('action', 3);
    t.endTurnsUntil('a2');
    expect(has(t, 'Marked')).toBe(true);
    t.do({ type: 'turn.end', combatantId: 'a2' });
    expect(has(t, 'Marked')).toBe(false);
  });

  it('"some durations might be given in both seconds and rounds" — 5 seconds a round', () => {
    const t = started(specs);
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Blinded', duration: { unit: 'seconds', count: 10 } });
    expect(t.state.effects[0]!.expires).toEqual({ at: 'turn-start', round: 3, anchor: 'a1' });
  });

  it("a removed combatant's durations keep their place in turn order", () => {
    const t = started(specs);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'effect.apply', targetId: 'b1', sourceId: 'a2', name: 'Curse', duration: { unit: 'round', count: 1 } });
    t.do({ type: 'combatant.remove', combatantId: 'a2' });
    expect(t.clock.current).toBe('b1');
    expect(t.state.effects[0]!.expires).toMatchObject({ anchor: 'b1', round: 2 });
  });
});
