import { describe, expect, it } from 'vitest';
import { apply } from '@fray/engine';
import { R, cmd, encounter, end, hex, ok, refused } from './helpers.js';

const pair = (options: Record<string, unknown> = {}) =>
  encounter(
    [
      { id: 'a', side: 'x', cv: 9, at: hex(0, 0), controller: 'p1' },
      { id: 'b', side: 'y', cv: 5, at: hex(1, 0) },
      { id: 'c', side: 'y', cv: 3, at: hex(2, -1) },
    ],
    { options: { offerAbort: false, ...options } },
  ).s;

describe('bad input: a typed error naming the rule, state unchanged', () => {
  it('a full-phase action with a move action', () => {
    const s = ok(pair(), cmd('act', 'a', { action: 'door' })).state;
    const e = refused(s, cmd('move', 'a', { mode: 'move-full', path: [hex(-1, 0)] }), 'ocv-phases.full-phase');
    expect(e.code).toBe('ILLEGAL_ACTION');
    expect(e.message).toContain("can't be coupled with an attack or a move action");
  });

  it('a second 1-hex step', () => {
    const s = ok(pair(), cmd('step', 'a', { to: hex(-1, 0) })).state;
    const e = refused(s, cmd('step', 'a', { to: hex(-2, 0) }), 'ocv-phases.one-step');
    expect(e.message).toContain("can't take more than one 1-hex step in a Phase");
  });

  it('an attack of opportunity by a character who dodged', () => {
    let s = end(pair()); // b is up
    s = ok(s, cmd('defend', 'b', { manoeuvre: 'dodge' })).state;
    s = end(end(s)); // c; phase 2: a
    s = ok(s, cmd('act', 'a', { action: 'pick-up' })).state; // provokes — but b dodged; only c threatens? c is 2 hexes off
    expect(s.reaction).toBeNull();
    const e = refused(s, cmd('opportunityAttack', 'b'), 'ocv-phases.aoo-dodge');
    expect(e.message).toContain('dodge manoeuvre');
  });

  it('an abort twice', () => {
    let s = end(pair()); // a acted; b up
    s = end(end(s)); // phase 2: a up
    s = end(s); // b up — a has acted in phase 2
    s = ok(s, cmd('abort', 'a', { action: 'dodge' })).state;
    const e = refused(s, cmd('abort', 'a', { action: 'block' }), 'ocv-phases.abort-lockout');
    expect(e.message).toContain('cannot Abort your next action until after your Initiative in the following Phase');
  });

  it('other refusals: not your action, not yours, a readied action without its trigger, an attack out of reach', () => {
    const s = pair();
    refused(s, cmd('defend', 'b', { manoeuvre: 'block' }), 'ocv-phases.initiative-order');
    refused(s, { type: 'defend', by: { role: 'player', playerId: 'p2' }, combatantId: 'a', manoeuvre: 'block' }, 'engine.roles');
    refused(s, cmd('takeReadied', 'b', { action: 'strike', targetId: 'a' }), 'ocv-phases.ready');
    refused(s, cmd('attack', 'a', { manoeuvre: 'strike', targetId: 'c' }), 'ocv-phases.melee-reach');
    refused(s, cmd('opportunityAttack', 'b'), 'ocv-phases.aoo-opportunity');
    refused(s, cmd('actNow', 'b'), 'ocv-phases.delay');
    refused(s, cmd('move', 'a', { mode: 'crawl', path: [hex(-1, 0), hex(-2, 0)] }), 'ocv-phases.movement');
    const bad = apply(R as never, s as never, cmd('move', 'a', { mode: 'teleport', path: [hex(0, 1)] }));
    expect(bad.ok === false && bad.error.code).toBe('INVALID_COMMAND');
  });
});
