import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, gm, hex, legal, ok, refused } from './helpers.js';

const solo = (options: Record<string, unknown> = {}, stats: Record<string, unknown> = {}) =>
  encounter(
    [
      { id: 'a', side: 'x', cv: 6, at: hex(0, 0), stats },
      { id: 'far', side: 'y', cv: 2, at: hex(9, 0) },
    ],
    { options },
  ).s;

describe('action types', () => {
  it('"you can perform an attack action and a move action"', () => {
    let s = solo();
    s = ok(s, cmd('defend', 'a', { manoeuvre: 'block' })).state;
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1)] })).state;
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 2)] }), 'ocv-phases.action-types');
  });

  it('"two move actions" — "You can always take a move action in place of an attack action"', () => {
    let s = solo();
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1)] })).state;
    s = ok(s, cmd('act', 'a', { action: 'door' })).state;
    refused(s, cmd('defend', 'a', { manoeuvre: 'dodge' }), 'ocv-phases.action-types');
  });

  it('not two attack actions', () => {
    let s = solo();
    s = ok(s, cmd('defend', 'a', { manoeuvre: 'block' })).state;
    refused(s, cmd('defend', 'a', { manoeuvre: 'dodge' }), 'ocv-phases.action-types');
  });

  it('"A full-phase action requires an entire phase ... can\'t be coupled with an attack or a move action"', () => {
    let s = solo();
    s = ok(s, cmd('act', 'a', { action: 'change-clothes' })).state;
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1)] }), 'ocv-phases.full-phase');
    refused(s, cmd('defend', 'a', { manoeuvre: 'block' }), 'ocv-phases.full-phase');
    let t = solo();
    t = ok(t, cmd('act', 'a', { action: 'analyse' })).state;
    refused(t, cmd('act', 'a', { action: 'recovery' }), 'ocv-phases.full-phase');
  });

  it('"You can also perform one or more free actions" — limited per phase by an option', () => {
    let s = solo({ freeActionLimit: 2 });
    s = ok(s, cmd('act', 'a', { action: 'change-clothes' })).state;
    s = ok(s, cmd('free', 'a', { action: 'soliloquy' })).state;
    s = ok(s, cmd('free', 'a', { action: 'presence-attack' })).state;
    refused(s, cmd('free', 'a', { action: 'power-toggle' }), 'ocv-phases.free-actions');
  });

  it('"you are restricted to taking only a single attack action or a single move action ... (though you can start or complete a full-phase action by using a move action)"', () => {
    let s = solo({}, { recovery: 5, stun: 30 });
    s = ok(s, { type: 'adjustPools', by: gm, combatantId: 'a', stun: 10 }).state;
    s = ok(s, { type: 'restrict', by: gm, combatantId: 'a', restricted: true }).state;
    refused(s, cmd('act', 'a', { action: 'recovery' }), 'ocv-phases.restricted-phase');
    s = ok(s, cmd('act', 'a', { action: 'start-full-phase', fullAction: 'recovery' })).state;
    refused(s, cmd('act', 'a', { action: 'complete-full-phase' }), 'ocv-phases.restricted-phase');
    s = end(end(s)); // next phase, still restricted
    expect(s.clock.current).toBe('a');
    s = ok(s, { type: 'restrict', by: gm, combatantId: 'a', restricted: true }).state;
    s = ok(s, cmd('act', 'a', { action: 'complete-full-phase' })).state;
    expect(s.combatants.a!.data.stun).toBe(15);
    expect(s.combatants.a!.data.fullStarted).toBeNull();
  });

  it('the acting character only: "Characters act in order"', () => {
    const s = solo();
    refused(s, cmd('defend', 'far', { manoeuvre: 'block' }), 'ocv-phases.initiative-order');
  });

  it('a Stunned character can only Recover from being Stunned (a full-phase action)', () => {
    let s = solo();
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'a', name: 'Stunned', condition: 'stunned' }).state;
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1)] }), 'ocv-phases.stunned');
    const allowed = legal(s, 'a')
      .filter((o) => o.allowed)
      .map((o) => o.action ?? o.command);
    expect(allowed).toEqual(['recover-stunned', 'delay', 'turn.end']);
    s = ok(s, cmd('act', 'a', { action: 'recover-stunned' })).state;
    expect(s.effects).toEqual([]);
  });

  it('items: draw a focus, drop it (free), pick it up (move action); drop prone and stand up', () => {
    let s = encounter([
      { id: 'a', side: 'x', cv: 6, at: hex(0, 0) },
      { id: 'far', side: 'y', cv: 2, at: hex(9, 0) },
    ]).s;
    s = ok(s, {
      type: 'combatant.update',
      by: gm,
      combatantId: 'a',
      changes: { items: [{ id: 'gun', name: 'Gun', location: 'carried' }] },
    }).state;
    s = ok(s, cmd('act', 'a', { action: 'draw-focus', itemId: 'gun' })).state;
    expect(s.combatants.a!.items[0]!.location).toBe('right-hand');
    s = ok(s, cmd('free', 'a', { action: 'drop-item', itemId: 'gun' })).state;
    expect(s.combatants.a!.items[0]!.location).toBe('ground');
    s = ok(s, cmd('act', 'a', { action: 'pick-up', itemId: 'gun' })).state;
    expect(s.combatants.a!.items[0]!.location).toBe('right-hand');
    s = end(end(s));
    s = ok(s, cmd('free', 'a', { action: 'drop-prone' })).state;
    expect(s.effects.map((e) => e.condition)).toEqual(['prone']);
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1)] }), 'ocv-phases.prone');
    s = ok(s, cmd('move', 'a', { mode: 'crawl', path: [hex(0, 1)] })).state;
    s = ok(s, cmd('act', 'a', { action: 'stand-up' })).state;
    expect(s.effects).toEqual([]);
  });
});

describe('1-hex step', () => {
  const pair = (stats: Record<string, unknown> = {}, map?: Record<string, unknown>) =>
    encounter(
      [
        { id: 'a', side: 'x', cv: 6, at: hex(0, 0), stats },
        { id: 'e', side: 'y', cv: 2, at: hex(1, 0) },
      ],
      { map },
    ).s;

  it('"Taking this 1-hex step never provokes an attack of opportunity"', () => {
    const r = ok(pair(), cmd('step', 'a', { to: hex(-1, 0) }));
    expect(r.state.reaction).toBeNull();
    expect(r.state.combatants.a!.position).toEqual(hex(-1, 0));
    expect(legal(pair(), 'a').find((o) => o.action === 'step')).toMatchObject({ allowed: true, provokes: null, kind: 'not-an-action' });
  });

  it('"You can\'t take more than one 1-hex step in a Phase"', () => {
    const s = ok(pair(), cmd('step', 'a', { to: hex(-1, 0) })).state;
    refused(s, cmd('step', 'a', { to: hex(-2, 0) }), 'ocv-phases.one-step');
  });

  it('"you can\'t take a 1-hex step in the same Phase when you move any distance" (both ways)', () => {
    let s = pair();
    s = ok(s, cmd('step', 'a', { to: hex(-1, 0) })).state;
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(-2, 0)] }), 'ocv-phases.step-no-move');
    let t = ok(pair(), cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 0)], negated: true })).state;
    if (t.reaction) t = ok(t, cmd('reaction.pass', 'e')).state;
    refused(t, cmd('step', 'a', { to: hex(-2, 0) }), 'ocv-phases.step-no-move');
  });

  it('"You can take a 1-hex step before, during, or after your other actions" — with a full-phase action that moves no distance', () => {
    let s = pair();
    s = ok(s, cmd('act', 'a', { action: 'change-clothes' })).state;
    if (s.reaction) s = ok(s, cmd('reaction.pass', 'e')).state;
    s = ok(s, cmd('step', 'a', { to: hex(-1, 0) })).state;
    expect(s.combatants.a!.position).toEqual(hex(-1, 0));
  });

  it('"only ... if your movement isn\'t hampered by difficult terrain or darkness"', () => {
    refused(pair({}, { difficult: [hex(-1, 0)] }), cmd('step', 'a', { to: hex(-1, 0) }), 'ocv-phases.step-terrain');
    refused(pair({}, { dark: [hex(0, 0)] }), cmd('step', 'a', { to: hex(-1, 0) }), 'ocv-phases.step-terrain');
  });

  it('"Any character with a total movement of 1 hex or less can\'t take a 1-hex step"', () => {
    refused(pair({ move: 1 }), cmd('step', 'a', { to: hex(-1, 0) }), 'ocv-phases.step-slow');
    // "moving even 1 hex requires a move action for such a slow character"
    expect(ok(pair({ move: 1 }), cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 1)], negated: true })).state.reaction).toBeNull();
  });
});
