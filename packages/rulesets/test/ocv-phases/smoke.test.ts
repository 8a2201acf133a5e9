import { describe, expect, it } from 'vitest';
import { encounter, ok, cmd, end, hex, types, legal } from './helpers.js';

describe('smoke', () => {
  it('runs', () => {
    let { s } = encounter([
      { id: 'a', side: 'h', cv: 6, at: hex(0, 0) },
      { id: 'b', side: 'v', cv: 5, at: hex(1, 0) },
      { id: 'c', side: 'v', cv: 5, at: hex(3, 0) },
    ]);
    console.log(s.clock, s.rs.order, s.rs.scores);
    const r = ok(s, cmd('attack', 'a', { manoeuvre: 'strike', targetId: 'b' }));
    console.log(types(r.events), r.state.reaction?.kind);
    s = ok(r.state, cmd('reaction.pass', 'b')).state;
    console.log(s.rolls.at(-1));
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1), hex(0, 2)] })).state;
    console.log(s.reaction?.kind, s.reaction?.eligible);
    const r2 = ok(s, cmd('opportunityAttack', 'b', { manoeuvre: 'strike' }));
    console.log(types(r2.events), r2.state.combatants.a!.position);
    s = r2.state;
    if (s.reaction) s = ok(s, cmd('reaction.pass', s.reaction.eligible[0]!)).state;
    console.log(s.combatants.a!.position, s.clock);
    s = end(s);
    console.log(s.clock, legal(s, s.clock.current!).filter(o => o.allowed).map(o => o.action ?? o.command));
    for (let i = 0; i < 12; i++) s = end(s);
    console.log(s.clock, s.rs.phaseCount);
    expect(s.rs.turn).toBe(2);
  });
});
