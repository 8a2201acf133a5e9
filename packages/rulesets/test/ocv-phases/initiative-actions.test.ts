import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, force, hex, legal, ok, refused, types } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';

// A 10, B 8, C 6, D 4, far apart unless a test moves them
const four = (o: { options?: Record<string, unknown>; at?: Record<string, { q: number; r: number }> } = {}) =>
  encounter(
    [
      { id: 'A', side: 'heroes', cv: 10, at: o.at?.A ?? hex(0, 0) },
      { id: 'B', side: 'villains', cv: 8, at: o.at?.B ?? hex(10, 0) },
      { id: 'C', side: 'villains', cv: 6, at: o.at?.C ?? hex(20, 0) },
      { id: 'D', side: 'heroes', cv: 4, at: o.at?.D ?? hex(30, 0) },
    ],
    { options: { offerAbort: false, pauseAfterInterruptHit: false, ...(o.options ?? {}) } },
  ).s;

const moveSome = (s: S, id: string) => {
  const p = s.combatants[id]!.position as { q: number; r: number };
  return ok(s, cmd('move', id, { mode: 'move-half', path: [hex(p.q, p.r + 1)] })).state;
};

describe('delay', () => {
  it('"By choosing to delay, you take no action on your own Initiative score and wait to act later" — "Your Initiative changes to when you took the delayed action"', () => {
    let s = four();
    s = ok(s, cmd('delay', 'A')).state;
    expect(s.clock.current).toBe('B');
    s = moveSome(s, 'B');
    // "You can't interrupt anyone else's action, as you can with a readied action."
    refused(s, cmd('actNow', 'A'), 'ocv-phases.delay-no-interrupt');
    s = end(s); // C is up, untouched
    s = ok(s, cmd('actNow', 'A')).state;
    expect(s.clock.current).toBe('A');
    expect(s.clock.order).toEqual(['B', 'A', 'C', 'D']);
    expect(s.rs.scores.A).toBe(6);
    s = moveSome(s, 'A');
    s = end(s);
    expect(s.clock.current).toBe('C');
    s = end(end(s));
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'B' }); // the new order holds in the following Phases
    s = end(s);
    expect(s.clock.current).toBe('A');
  });

  it("\"You can specify your new place in the sequence (for example, 'immediately before Captain Comet's action')\"", () => {
    let s = four();
    s = ok(s, cmd('delay', 'A', { before: 'D' })).state;
    s = end(s); // B
    s = end(s); // C → A steps in before D
    expect(s.clock.current).toBe('A');
    expect(s.clock.order).toEqual(['B', 'C', 'A', 'D']);
    refused(four(), cmd('delay', 'A', { before: 'A' }), 'ocv-phases.delay');
  });

  it('at the end of the Phase a delayed character may act last, or keep waiting', () => {
    let s = four();
    s = ok(s, cmd('delay', 'A')).state;
    s = end(end(end(s))); // B C D
    expect(s.clock).toMatchObject({ phase: 'phase-1', current: 'A' });
    expect(legal(s, 'A').find((o) => o.command === 'turn.end')!.label).toContain('Keep waiting');
    const acted = moveSome(s, 'A');
    expect(acted.clock.order).toEqual(['B', 'C', 'D', 'A']);
    expect(acted.combatants.A!.data.hold).toBeNull();
    const waited = end(s);
    // A keeps waiting — but phase 2 opens with A's own slot, so the held action lapses there
    expect(waited.clock).toMatchObject({ phase: 'phase-2', current: 'A' });
    expect(waited.combatants.A!.data.hold).toBeNull();
  });

  it('"If you take a delayed action in the next Phase, before your regular action comes up, your initiative score rises to that new point ... and you do not get your regular action that Phase"', () => {
    let s = end(end(end(four()))); // A B C; D is up
    s = ok(s, cmd('delay', 'D')).state;
    expect(s.clock).toMatchObject({ phase: 'phase-1', current: 'D' }); // offered at the end of the Phase
    s = end(s); // D keeps waiting; phase 2, A up
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'A' });
    s = ok(s, cmd('actNow', 'D')).state; // before A's action
    expect(s.clock.current).toBe('D');
    expect(s.clock.order).toEqual(['D', 'A', 'B', 'C']);
    expect(s.rs.scores.D).toBe(10);
    s = end(s);
    expect(s.clock.current).toBe('A');
    s = end(end(end(s))); // A B C
    expect(s.clock).toMatchObject({ phase: 'phase-3', current: 'D' }); // no regular action for D in phase 2
  });

  it('"If you come to your next action and have not yet performed an action, you don\'t get to take a delayed action (though you can delay again)"', () => {
    let s = ok(four(), cmd('delay', 'A')).state;
    s = end(end(end(s)));
    const r = ok(s, cmd('turn.end', 'A')); // keep waiting
    s = r.state;
    // phase 2 begins with A's own slot: the held action lapses and A acts normally
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'A' });
    expect(types(r.events)).toContain('ocv-phases.hold-expired');
    expect(s.combatants.A!.data.hold).toBeNull();
    expect(ok(s, cmd('delay', 'A')).state.combatants.A!.data.hold).toMatchObject({ kind: 'delay' });
  });

  it('"By choosing to delay, you take no action" — not after acting', () => {
    const s = moveSome(four(), 'A');
    refused(s, cmd('delay', 'A'), 'ocv-phases.delay');
  });
});

describe('ready', () => {
  it('"Readying is an attack action. It does not provoke an attack of opportunity"', () => {
    let s = four({ at: { B: hex(1, 0) } });
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'strike', trigger: { on: 'attacks', description: 'when anyone attacks' } }),
    ).state;
    expect(s.reaction).toBeNull();
    refused(s, cmd('defend', 'A', { manoeuvre: 'block' }), 'ocv-phases.action-types');
    expect(moveSome(s, 'A').reaction?.kind).toBe('ocv-phases.attack-of-opportunity'); // a move action still fits — and provokes
  });

  it('"The action occurs just before the action that triggers it ... you act immediately ahead of the character whose action triggered your readied action"', () => {
    let s = four({ at: { A: hex(0, 0), B: hex(1, 0), C: hex(2, 0) } });
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'strike', trigger: { on: 'attacks', by: 'C', description: 'when C attacks' } }),
    ).state;
    s = end(s); // B
    s = end(s); // C
    // B cannot take A's readied action; A cannot take it before the trigger
    refused(s, cmd('takeReadied', 'A', { action: 'strike', targetId: 'B' }), 'ocv-phases.ready-trigger');
    s = ok(force(s, [1, 1, 1]), cmd('attack', 'C', { manoeuvre: 'strike', targetId: 'B' })).state; // C attacks (its ally!) — a trigger
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.before-action', eligible: ['A'] });
    s = force(s, [2, 2, 2]);
    const r = ok(s, cmd('takeReadied', 'A', { action: 'strike', targetId: 'B' }));
    const attacks = r.events.filter((e) => e.type === 'ocv-phases.attack-resolved').map((e) => e.combatantId);
    expect(attacks).toEqual(['A', 'C']); // A's readied attack first, then C's
    s = r.state;
    expect(s.clock.order).toEqual(['B', 'A', 'C', 'D']);
    expect(s.clock.current).toBe('C'); // C continues its action
    s = end(end(s)); // D, then phase 2
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'B' });
    s = end(s);
    expect(s.clock.current).toBe('A'); // "for the rest of the encounter"
  });

  it('"If you take your readied action in the next Phase, before your regular turn comes up, your initiative score rises ... and you do not get your regular action that Phase"', () => {
    // B 8 acts before A? No: use C, who acts after A; A readies for B's movement
    let s = four();
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'move', action: 'move-half', trigger: { on: 'moves', by: 'B', description: 'when B moves' } }),
    ).state;
    s = end(end(end(end(s)))); // A B C D; phase 2
    // phase 2: A's own slot comes first → the readied action lapses
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'A' });
    expect(s.combatants.A!.data.hold).toBeNull();
    // now let C ready against B's movement in phase 2; B acts before C in phase 3
    s = end(s); // B
    s = end(s); // C
    s = ok(
      s,
      cmd('ready', 'C', { actionType: 'move', action: 'move-half', trigger: { on: 'moves', by: 'B', description: 'when B moves' } }),
    ).state;
    s = end(end(s)); // D; phase 3: A
    s = end(s); // B
    expect(s.clock).toMatchObject({ phase: 'phase-3', current: 'B' });
    s = ok(s, cmd('move', 'B', { mode: 'move-half', path: [hex(10, 1)] })).state;
    expect(s.reaction?.eligible).toEqual(['C']);
    s = ok(s, cmd('takeReadied', 'C', { action: 'move-half', path: [hex(20, 1)] })).state;
    expect(s.combatants.C!.position).toEqual(hex(20, 1));
    expect(s.combatants.B!.position).toEqual(hex(10, 1));
    expect(s.clock.order).toEqual(['A', 'C', 'B', 'D']);
    s = end(s); // B ends → C already acted this phase → D
    expect(s.clock.current).toBe('D');
  });

  it('"If you come to your next action and have not yet performed your readied action, you don\'t get to take the readied action (though you can ready the same action again)"', () => {
    let s = four();
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'strike', trigger: { on: 'manual', description: 'if the door opens' } }),
    ).state;
    s = end(end(end(end(s))));
    expect(s.clock.current).toBe('A');
    expect(s.combatants.A!.data.hold).toBeNull();
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'strike', trigger: { on: 'manual', description: 'if the door opens' } }),
    ).state;
    expect(s.combatants.A!.data.hold).toMatchObject({ kind: 'ready' });
  });

  it('"specify the action you will take": a readied Block is up before the triggering attack rolls; the wrong action is refused', () => {
    let s = four({ at: { A: hex(0, 0), B: hex(1, 0) } });
    refused(
      s,
      cmd('ready', 'A', { actionType: 'move', action: 'strike', trigger: { on: 'attacks', description: 'x' } }),
      'ocv-phases.ready',
    );
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'dodge', trigger: { on: 'attacks', by: 'B', description: 'when B attacks' } }),
    ).state;
    s = end(s);
    s = ok(s, cmd('attack', 'B', { manoeuvre: 'strike', targetId: 'A' })).state;
    refused(s, cmd('takeReadied', 'A', { action: 'block' }), 'ocv-phases.ready');
    s = ok(force(s, [3, 3, 3]), cmd('takeReadied', 'A', {})).state;
    expect(s.rs.attacks.at(-1)).toMatchObject({ attackerId: 'B', need: 23 }); // DCV 10 + 3
  });

  it('a readied action can interrupt in the middle of a move ("If the triggered action is part of another character\'s activities, you interrupt the other character")', () => {
    let s = four({ at: { A: hex(0, 0), B: hex(4, 0) } });
    s = ok(
      s,
      cmd('ready', 'A', {
        actionType: 'attack',
        action: 'strike',
        trigger: { on: 'enters-reach', description: 'when an enemy comes into reach' },
      }),
    ).state;
    s = end(s); // B
    s = ok(s, cmd('move', 'B', { mode: 'move-full', path: [hex(3, 0), hex(2, 0), hex(1, 0), hex(1, 1), hex(1, 2)] })).state;
    expect(s.reaction?.eligible).toEqual(['A']);
    expect(s.combatants.B!.position).toEqual(hex(1, 0));
    const r = ok(force(s, [1, 1, 1]), cmd('takeReadied', 'A', { targetId: 'B' }));
    // B resumes: leaving A's threatened hexes provokes — but A already used its readied attack, and has its AoO
    expect(r.state.reaction?.kind).toBe('ocv-phases.attack-of-opportunity');
    const s2 = ok(r.state, cmd('reaction.pass', 'A')).state;
    expect(s2.combatants.B!.position).toEqual(hex(1, 2));
  });

  it('"You can take a 1-hex step as part of your readied action, but only if you don\'t otherwise move any distance during the Phase"', () => {
    let s = four({ at: { A: hex(0, 0), B: hex(2, 0) } });
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'strike', trigger: { on: 'moves', by: 'B', description: 'B moves' } }),
    ).state;
    const moved = moveSome(s, 'A'); // A moves some distance this Phase
    let t = end(moved);
    t = ok(t, cmd('step', 'B', { to: hex(2, -1) })).state;
    expect(t.reaction?.eligible).toEqual(['A']);
    refused(t, cmd('takeReadied', 'A', { targetId: 'B', step: hex(1, -1) }), 'ocv-phases.step-no-move');
    // without the move, the step is fine
    let u = end(s);
    u = ok(u, cmd('step', 'B', { to: hex(2, -1) })).state;
    const r = ok(force(u, [3, 3, 3]), cmd('takeReadied', 'A', { targetId: 'B', step: hex(1, 0), action: 'strike' }));
    expect(types(r.events).indexOf('ocv-phases.moved')).toBeLessThan(types(r.events).indexOf('ocv-phases.attack-resolved')); // step in, then strike
    expect(r.state.combatants.A!.position).toEqual(hex(1, 0));
  });
});

describe('abort', () => {
  it('"You can abort to any defensive attack or move action before your initiative value comes up in a Phase, giving up your next Action"', () => {
    let s = four({ options: { offerAbort: true }, at: { A: hex(0, 0), B: hex(1, 0) } });
    s = ok(s, cmd('attack', 'A', { manoeuvre: 'strike', targetId: 'B' })).state;
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.before-action', eligible: ['B'] });
    s = force(s, [3, 3, 3]);
    s = ok(s, cmd('abort', 'B', { action: 'dodge' })).state;
    expect(s.rs.attacks.at(-1)).toMatchObject({ need: 21 }); // DCV 8 + 3 from the Dodge
    s = end(s); // A ends; B's slot: given up
    expect(s.clock.current).toBe('C');
    // "Initiative Consequences of Aborting: Your Initiative does not change."
    expect(s.clock.order).toEqual(['A', 'B', 'C', 'D']);
  });

  it('"You can also abort to a defensive action after acting on your initiative score earlier in a Phase, but doing so gives up your Action from the following Phase" — and no abort until after that Initiative', () => {
    let s = four({ options: { offerAbort: true }, at: { B: hex(1, 0), C: hex(2, 0) } });
    s = end(s); // A
    s = end(s); // B has acted (nothing); C is up
    s = ok(s, cmd('attack', 'C', { manoeuvre: 'strike', targetId: 'B' })).state;
    s = ok(force(s, [1, 1, 1]), cmd('abort', 'B', { action: 'block' })).state;
    expect(s.combatants.B!.data).toMatchObject({ skipNext: true, abortLock: 12 });
    // "you cannot Abort your next action until after your Initiative in the following Phase"
    refused(s, cmd('abort', 'B', { action: 'dodge' }), 'ocv-phases.abort-lockout');
    s = end(end(s)); // C, D → phase 2: A
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'A' });
    refused(s, cmd('abort', 'B', { action: 'dodge' }), 'ocv-phases.abort-lockout');
    s = end(s); // A ends → B's slot is skipped → C
    expect(s.clock.current).toBe('C');
    expect(s.combatants.B!.data.abortLock).toBeNull();
    expect(ok(s, cmd('abort', 'B', { action: 'dodge' })).state.combatants.B!.data.skipNext).toBe(true);
  });

  it('an abort to a move action moves now (and may provoke)', () => {
    let s = four({ options: { offerAbort: true }, at: { A: hex(0, 0), B: hex(1, 0) } });
    s = ok(s, cmd('attack', 'A', { manoeuvre: 'strike', targetId: 'B' })).state;
    s = ok(s, cmd('abort', 'B', { action: 'move-half', path: [hex(2, 0), hex(3, 0)] })).state;
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['A'] });
    s = ok(s, cmd('reaction.pass', 'A')).state;
    expect(s.combatants.B!.position).toEqual(hex(3, 0));
    // A's strike resumes against a target now out of reach: it reports no attack rather than rolling
    expect(s.rs.attacks).toHaveLength(0);
  });
});
