import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, force, gm, hex, ok, types } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';

const three = [
  { id: 'hero', side: 'heroes', cv: 7, at: hex(0, 0) },
  { id: 'thug', side: 'villains', cv: 5, at: hex(4, 0) },
  { id: 'boss', side: 'villains', cv: 6, at: hex(6, 0), stats: { lightningReflexes: 3 } },
];

/** every phase the clock visits, with who acts in it */
function walk(s: S, slots: number): { phases: string[]; actors: string[]; state: S } {
  const phases: string[] = [];
  const actors: string[] = [];
  for (let i = 0; i < slots; i++) {
    phases.push(`${s.clock.round}:${s.clock.phase}`);
    actors.push(s.clock.current!);
    s = end(s);
  }
  return { phases, actors, state: s };
}

describe('time', () => {
  it('"Each Phase is 3 seconds long. 4 Phases make up 1 Turn of 12 seconds."', () => {
    const { s } = encounter(three);
    expect(s.clock).toMatchObject({ round: 1, phase: 'phase-1' });
    const { phases, state } = walk(s, 12);
    expect([...new Set(phases)]).toEqual(['1:phase-1', '1:phase-2', '1:phase-3', '1:phase-4']);
    expect(state.clock).toMatchObject({ round: 2, phase: 'phase-1' });
  });

  it('each phase-started event carries 3 seconds; the post-turn period takes no time', () => {
    let { s } = encounter(three);
    const seconds: [string, number][] = [];
    for (let i = 0; i < 12; i++) {
      const r = ok(s, cmd('turn.end', s.clock.current!));
      for (const e of r.events) if (e.type === 'ocv-phases.phase-started') seconds.push([e.phase as string, e.seconds as number]);
      s = r.state;
    }
    expect(seconds).toEqual([
      ['phase-2', 3],
      ['phase-3', 3],
      ['phase-4', 3],
      ['post-turn', 0],
      ['phase-1', 3],
    ]);
  });

  it('"After every Phase 4 ... a Post-Turn period ... characters automatically get to Take a Recovery"', () => {
    const fighters = three.map((f) => ({ ...f, stats: { ...(f.stats ?? {}), recovery: 4, stun: 20, endurance: 30 } }));
    let { s } = encounter(fighters);
    s = ok(s, { type: 'adjustPools', by: gm, combatantId: 'hero', stun: 5, endurance: 28 }).state;
    s = ok(s, { type: 'adjustPools', by: gm, combatantId: 'thug', stun: 0, endurance: 0 }).state;
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'thug', name: 'Dead', condition: 'dead' }).state;
    let events: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = ok(s, cmd('turn.end', s.clock.current!));
      events = events.concat(types(r.events));
      s = r.state;
    }
    expect(s.combatants.hero!.data).toMatchObject({ stun: 9, endurance: 30 }); // +REC, capped at the maximum
    expect(s.combatants.thug!.data).toMatchObject({ stun: 0, endurance: 0 }); // "most characters": not the dead
    expect(events.filter((t) => t === 'ocv-phases.recovered')).toHaveLength(2);
    const i = events.indexOf('ocv-phases.recovered');
    expect(events.slice(0, i)).toContain('ocv-phases.phase-started');
  });

  it('post-turn recovery is an option: `off` only marks the period', () => {
    let { s } = encounter(
      three.map((f) => ({ ...f, stats: { ...(f.stats ?? {}), recovery: 4, stun: 20 } })),
      { options: { postTurnRecovery: 'off' } },
    );
    s = ok(s, { type: 'adjustPools', by: gm, combatantId: 'hero', stun: 5 }).state;
    s = walk(s, 12).state;
    expect(s.combatants.hero!.data.stun).toBe(5);
  });

  it('effects with a duration in phases or turns expire on the phase clock', () => {
    let { s } = encounter(three);
    s = ok(s, {
      type: 'effect.apply',
      by: gm,
      targetId: 'thug',
      name: 'Flash',
      condition: 'blinded',
      duration: { unit: 'phase', count: 2 },
    }).state;
    s = ok(s, {
      type: 'effect.apply',
      by: gm,
      targetId: 'thug',
      name: 'Entangle',
      condition: 'entangled',
      duration: { unit: 'turn', count: 1 },
    }).state;
    s = walk(s, 3).state; // phase 2
    expect(s.effects.map((e) => e.condition)).toEqual(['blinded', 'entangled']);
    s = walk(s, 3).state; // phase 3
    expect(s.effects.map((e) => e.condition)).toEqual(['entangled']);
    s = walk(s, 6).state; // turn 2 phase 1
    expect(s.effects).toEqual([]);
  });
});

describe('initiative', () => {
  it('"an Initiative score equal to their Combat Value (plus their Lightning Reflexes modifier)"; "counting down from highest result to lowest"', () => {
    const { s } = encounter(three);
    expect(s.rs.scores).toEqual({ hero: 7, thug: 5, boss: 9 });
    expect(s.clock.order).toEqual(['boss', 'hero', 'thug']);
    expect(s.clock.current).toBe('boss');
  });

  it('"If two or more characters have the same Initiative score, the characters who are tied randomly determine" — a logged roll', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const { s } = encounter(
        [
          { id: 'a', side: 'x', cv: 5 },
          { id: 'b', side: 'y', cv: 5 },
          { id: 'c', side: 'y', cv: 3 },
        ],
        { seed },
      );
      const ties = s.rolls.filter((r) => r.purpose.startsWith('initiative tie-break'));
      expect(ties.length).toBeGreaterThanOrEqual(2);
      expect(ties.every((r) => r.combatantId === 'a' || r.combatantId === 'b')).toBe(true);
      expect(s.clock.order[2]).toBe('c');
      seen.add(s.clock.order.slice(0, 2).join());
    }
    expect(seen).toEqual(new Set(['a,b', 'b,a']));
  });

  it('the GM can force the tie-break roll', () => {
    let { s } = encounter(
      [
        { id: 'a', side: 'x', cv: 5 },
        { id: 'b', side: 'y', cv: 5 },
      ],
      { start: false },
    );
    s = force(s, [1]);
    s = force(s, [6]);
    s = ok(s, { type: 'combat.start', by: gm }).state;
    expect(s.clock.order).toEqual(['b', 'a']);
  });

  it('"In every phase that follows, the characters act in the same order"', () => {
    const { s } = encounter(three);
    const { actors } = walk(s, 12);
    expect(actors).toEqual(['boss', 'hero', 'thug', 'boss', 'hero', 'thug', 'boss', 'hero', 'thug', 'boss', 'hero', 'thug']);
  });

  it('"Even if you can\'t take actions (for example, because you\'re unconscious or paralysed), you retain your Initiative score"', () => {
    let { s } = encounter(three);
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'hero', name: 'KO', condition: 'unconscious' }).state;
    const a = walk(s, 4);
    expect(a.actors).toEqual(['boss', 'thug', 'boss', 'thug']);
    expect(a.state.rs.scores.hero).toBe(7);
    expect(a.state.clock.order).toEqual(['boss', 'hero', 'thug']);
    let t = a.state;
    t = ok(t, { type: 'effect.remove', by: gm, effectId: t.effects[0]!.id }).state;
    expect(t.clock).toMatchObject({ phase: 'phase-3', current: 'boss' });
    t = end(t);
    expect(t.clock.current).toBe('hero'); // back in its old place
  });

  it('a character added mid-combat takes its place by score', () => {
    let { s } = encounter(three);
    s = ok(s, { type: 'combatant.add', by: gm, combatant: { id: 'late', name: 'Late', side: 'heroes', stats: { combatValue: 6 } } }).state;
    expect(s.clock.order).toEqual(['boss', 'hero', 'late', 'thug']);
  });
});
