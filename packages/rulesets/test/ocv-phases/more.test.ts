import { describe, expect, it } from 'vitest';
import { projectState } from '@fray/engine';
import { R, cmd, encounter, end, force, gm, hex, legal, ok, refused, types } from './helpers.js';

const line = (options: Record<string, unknown> = {}) =>
  encounter(
    [
      { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
      { id: 'b', side: 'y', cv: 5, at: hex(1, 0) },
      { id: 'c', side: 'y', cv: 4, at: hex(1, -1) },
      { id: 'd', side: 'y', cv: 3, at: hex(6, 0) },
    ],
    { options: { offerAbort: false, ...options } },
  ).s;

describe('full-phase attacks', () => {
  it('"Sweep multiple opponents": one attack roll per target, -2 OCV per extra target, a full-phase action', () => {
    let s = force(line(), [3, 3, 3]);
    s = force(s, [3, 3, 3]);
    const r = ok(s, cmd('attack', 'a', { manoeuvre: 'sweep', targetIds: ['b', 'c'] }));
    const rolls = r.events.filter((e) => e.type === 'ocv-phases.attack-resolved');
    expect(rolls.map((e) => [e.targetId, e.ocv])).toEqual([
      ['b', 7],
      ['c', 7],
    ]);
    refused(r.state, cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 0)] }), 'ocv-phases.full-phase');
    expect(r.state.combatants.a!.data.manoeuvres[0]).toMatchObject({ id: 'sweep', halveDcv: true });
  });

  it('"Rapid Fire at multiple opponents" is ranged: within range and line of sight of each', () => {
    const s = line();
    refused(s, cmd('attack', 'a', { manoeuvre: 'rapid-fire', targetIds: ['b', 'd'], range: 4 }), 'ocv-phases.ranged');
    const r = ok(s, cmd('attack', 'a', { manoeuvre: 'rapid-fire', targetIds: ['b', 'd'], range: 8 }));
    expect(r.events.filter((e) => e.type === 'ocv-phases.attack-resolved')).toHaveLength(2);
  });

  it('"Move By" / "Move Through an opponent": a full-phase move that attacks at its end and never provokes', () => {
    let s = end(end(end(line()))); // d is up
    const r = ok(
      force(s, [4, 4, 4]),
      cmd('move', 'd', { mode: 'move-through', path: [hex(5, 0), hex(4, 0), hex(3, 0), hex(2, 0), hex(1, 1), hex(0, 1)], targetId: 'a' }),
    );
    expect(r.state.reaction).toBeNull();
    expect(r.events.find((e) => e.type === 'ocv-phases.attack-resolved')).toMatchObject({ combatantId: 'd', targetId: 'a', ocv: 1 });
    s = r.state;
    expect(s.combatants.d!.position).toEqual(hex(0, 1));
  });
});

describe('the clock under GM edits', () => {
  it('when nobody can act the clock stalls; the GM restarts it', () => {
    let s = line();
    for (const id of ['a', 'b', 'c', 'd'])
      s = ok(s, { type: 'effect.apply', by: gm, targetId: id, name: 'Gas', condition: 'unconscious' }).state;
    s = end(s);
    expect(s.clock.current).toBeNull();
    expect(s.rs.stalled).toBe(true);
    s = ok(s, { type: 'effect.remove', by: gm, effectId: s.effects.find((e) => e.targetId === 'c')!.id }).state;
    s = ok(s, { type: 'resumeClock', by: gm }).state;
    expect(s.clock.current).toBe('c');
  });

  it('removing the acting character moves the clock on', () => {
    const s = ok(line(), { type: 'combatant.remove', by: gm, combatantId: 'a' }).state;
    expect(s.clock.current).toBe('b');
    expect(s.clock.order).toEqual(['b', 'c', 'd']);
  });

  it('removing the only reactor closes its window and the move completes', () => {
    let s = ok(line(), cmd('move', 'a', { mode: 'move-half', path: [hex(-1, 0)] })).state;
    expect(s.reaction?.eligible).toEqual(['b', 'c']);
    s = ok(s, { type: 'combatant.remove', by: gm, combatantId: 'b' }).state;
    s = ok(s, cmd('reaction.pass', 'c')).state;
    expect(s.combatants.a!.position).toEqual(hex(-1, 0));
  });
});

describe('legalActions', () => {
  it('blocked options carry the rule that blocks them', () => {
    let s = line();
    s = ok(s, cmd('act', 'a', { action: 'recovery' })).state;
    const l = legal(s, 'a');
    const strike = l.find((o) => o.action === 'strike')!;
    expect(strike.allowed).toBe(false);
    expect(strike.blocked).toMatchObject({ rule: 'ocv-phases.full-phase' });
    expect(l.find((o) => o.action === 'step')).toMatchObject({ allowed: true });
    expect(l.find((o) => o.action === 'delay')!.blocked!.rule).toBe('ocv-phases.delay');
    // not your action: abort options, with what they give up implied by the rule
    const other = legal(s, 'd');
    expect(other.filter((o) => o.command === 'abort').map((o) => o.action)).toEqual([
      'block',
      'dodge',
      'missile-deflection',
      'roll-with-a-punch',
      'move-half',
    ]);
    expect(other.every((o) => o.command !== 'attack')).toBe(true);
  });

  it('the strike option lists only targets in reach, and says so when there are none', () => {
    const s = line();
    expect(legal(s, 'a').find((o) => o.action === 'strike')!.params![0]!.options).toEqual(['b', 'c']);
    const lonely = end(end(end(s)));
    expect(legal(lonely, 'd').find((o) => o.action === 'strike')!.blocked!.rule).toBe('ocv-phases.melee-reach');
  });

  it('events: every action is an event, every roll a dice.rolled event', () => {
    const r = ok(force(line(), [2, 2, 2]), cmd('attack', 'a', { manoeuvre: 'strike', targetId: 'b' }));
    expect(types(r.events)).toEqual(['ocv-phases.declared', 'dice.rolled', 'ocv-phases.attack-resolved', 'ocv-phases.acted']);
  });
});

describe('projection', () => {
  it('players do not see hidden combatants in the ruleset state either', () => {
    let { s } = encounter([
      { id: 'hero', side: 'x', cv: 6, at: hex(0, 0), controller: 'p1' },
      { id: 'foe', side: 'y', cv: 5, at: hex(3, 0) },
    ]);
    s = ok(s, {
      type: 'combatant.add',
      by: gm,
      combatant: { id: 'lurker', name: 'Lurker', side: 'y', hidden: true, stats: { combatValue: 8 }, position: { q: 1, r: 0 } },
    }).state;
    const view = projectState(R as never, s as never, { role: 'player', playerId: 'p1' });
    expect(JSON.stringify(view)).not.toContain('lurker');
    expect(JSON.stringify(projectState(R as never, s as never, { role: 'gm' }))).toContain('lurker');
  });
});
