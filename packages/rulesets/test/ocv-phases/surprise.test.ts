import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, force, hex, ok, refused } from './helpers.js';

const cast = [
  { id: 'ninja', side: 'villains', cv: 5, at: hex(1, 0) },
  { id: 'guard', side: 'heroes', cv: 8, at: hex(0, 0) },
  { id: 'sniper', side: 'villains', cv: 4, at: hex(5, 0) },
];

describe('surprise phase', () => {
  it('"If some but not all of the characters are aware of their opponents, a Surprise Phase happens before regular phases begin" — aware act in initiative order', () => {
    let { s } = encounter(cast, { unaware: ['guard'] });
    expect(s.clock).toMatchObject({ round: 1, phase: 'surprise', order: ['ninja', 'sniper'], current: 'ninja' });
    s = end(s);
    expect(s.clock.current).toBe('sniper');
    s = end(s);
    expect(s.clock).toMatchObject({ round: 1, phase: 'phase-1', order: ['guard', 'ninja', 'sniper'], current: 'guard' });
  });

  it('"If no one or everyone is surprised, no Surprise Phase occurs"', () => {
    expect(encounter(cast).s.clock.phase).toBe('phase-1');
    expect(encounter(cast, { unaware: ['guard', 'ninja', 'sniper'] }).s.clock.phase).toBe('phase-1');
  });

  it('"each take an attack action or a move action during the Surprise Phase. You can also take free actions"', () => {
    let { s } = encounter(cast, { unaware: ['guard'] });
    s = ok(s, cmd('free', 'ninja', { action: 'soliloquy' })).state;
    s = ok(s, cmd('move', 'ninja', { mode: 'move-half', path: [hex(1, 1)] })).state;
    refused(s, cmd('move', 'ninja', { mode: 'move-half', path: [hex(1, 2)] }), 'ocv-phases.restricted-phase');
    refused(s, cmd('defend', 'ninja', { manoeuvre: 'dodge' }), 'ocv-phases.restricted-phase');
    s = end(s);
    refused(s, cmd('move', 'sniper', { mode: 'move-full', path: [hex(5, 1)] }), 'ocv-phases.restricted-phase');
  });

  it('"Characters who are unaware at the start of battle don\'t get to act in the Surprise Phase and have a -3 DCV penalty during that Phase"', () => {
    let { s } = encounter(cast, { unaware: ['guard'] });
    // the most specific rule: the Surprise Phase, not just the Initiative order
    const e = refused(s, cmd('defend', 'guard', { manoeuvre: 'dodge' }), 'ocv-phases.surprise');
    expect(e.message).toContain("don't get to act in the Surprise Phase");
    refused(s, cmd('abort', 'guard', { action: 'dodge' }), 'ocv-phases.surprise');
    s = force(s, [3, 3, 3]);
    const r = ok(s, cmd('attack', 'ninja', { manoeuvre: 'strike', targetId: 'guard' }));
    const hit = r.events.find((e) => e.type === 'ocv-phases.attack-resolved')!;
    expect(hit).toMatchObject({ ocv: 5, dcv: 5, need: 15, total: 14, hit: false }); // DCV 8 - 3
    // after the Surprise Phase the penalty is gone
    s = end(end(r.state));
    expect(s.clock.phase).toBe('phase-1');
    s = until2(s);
    s = force(s, [3, 3, 3]);
    const r2 = ok(s, cmd('attack', 'ninja', { manoeuvre: 'strike', targetId: 'guard' }));
    let st = r2.state;
    if (st.reaction) st = ok(st, cmd('reaction.pass', 'guard')).state;
    expect(st.rs.attacks.at(-1)).toMatchObject({ need: 18 });
  });
});

function until2(s: ReturnType<typeof encounter>['s']) {
  while (s.clock.current !== 'ninja') s = end(s);
  return s;
}
