import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '@fray/engine';
import { R, cmd, encounter, gm, hex, ok, refused, types } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';

// The option `passThroughAllies` (docs/rulesets/ocv-phases.md): "whether a path may cross allies'
// hexes (never ending in an occupied hex: a move stopped in an ally's hex — the way ahead was taken
// while it was interrupted — steps back to the last hex it held alone; while an attack of
// opportunity or a readied action holds the move, the two share the hex)". The rule text
// (shared/seeds/001_81021a44c12df176.txt) has no sentence on crossing allies; the interruptions
// are its: "immediately resolve the attack of opportunity, then complete the current action" and,
// for a readied action, "Assuming he is still capable of doing so, he continues his actions once
// you complete your readied action".

const at = (s: S, id: string) => s.combatants[id]!.position;
const moves = (events: EngineEvent[], id: string) =>
  events
    .filter((e) => e.type === 'ocv-phases.moved' && (e as { combatantId?: string }).combatantId === id)
    .map((e) => {
      const m = e as unknown as { from: unknown; to: unknown };
      return { from: m.from, to: m.to };
    });
/** no two combatants on the map share a hex */
const alone = (s: S) => {
  const keys = Object.values(s.combatants)
    .filter((c) => c.position)
    .map((c) => `${(c.position as { q: number }).q},${(c.position as { r: number }).r}`);
  expect(new Set(keys).size).toBe(keys.length);
};

// a (acts first) at (0,0); its ally at (1,0), on the way east: (1,0) → (2,0) → (3,0)
const through = [hex(1, 0), hex(2, 0), hex(3, 0)];
const base = { options: { offerAbort: false, pauseAfterInterruptHit: false } };

// e threatens the ally's hex (1,0) and (2,0), not a's starting hex (0,0): leaving (1,0) provokes
const guarded = () =>
  encounter(
    [
      { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
      { id: 'e', side: 'y', cv: 5, at: hex(2, -1) },
      { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
    ],
    base,
  ).s;

describe('passThroughAllies: "never ending in an occupied hex"', () => {
  it("a move through an ally's hex that completes ends in a free hex, never in the ally's hex", () => {
    const { s } = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
        { id: 'far', side: 'y', cv: 5, at: hex(9, 0) },
      ],
      base,
    );
    expect(s.clock.current).toBe('a');
    const r = ok(s, cmd('move', 'a', { mode: 'move-half', path: through }));
    expect(r.state.reaction).toBeNull();
    expect(moves(r.events, 'a')).toEqual([
      { from: hex(0, 0), to: hex(1, 0) },
      { from: hex(1, 0), to: hex(2, 0) },
      { from: hex(2, 0), to: hex(3, 0) },
    ]);
    expect(types(r.events)).not.toContain('ocv-phases.interrupted');
    expect(at(r.state, 'a')).toEqual(hex(3, 0));
    expect(at(r.state, 'ally')).toEqual(hex(1, 0));
    expect(r.state.rs.jobs).toEqual([]);
    alone(r.state);
    expect(R.invariants!(r.state)).toEqual([]);
    // "no path ends on an occupied hex": the ally's hex cannot be the end of the move
    refused(s, cmd('move', 'a', { mode: 'move-half', path: [hex(1, 0)] }), 'ocv-phases.hexes');
    // and with passThroughAllies off, the ally's hex cannot be crossed either
    const closed = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
        { id: 'far', side: 'y', cv: 5, at: hex(9, 0) },
      ],
      { options: { ...base.options, passThroughAllies: false } },
    ).s;
    refused(closed, cmd('move', 'a', { mode: 'move-half', path: through }), 'ocv-phases.hexes');
  });

  it('"immediately resolve the attack of opportunity, then complete the current action": held in the ally\'s hex, the two share it and the invariants hold; the move then goes on to a free hex', () => {
    const s = guarded();
    const r = ok(s, cmd('move', 'a', { mode: 'move-half', path: through }));
    // held by the attack of opportunity for leaving (1,0), standing in the ally's hex
    expect(r.state.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['e'], trigger: { combatantId: 'a' } });
    expect(moves(r.events, 'a')).toEqual([{ from: hex(0, 0), to: hex(1, 0) }]);
    expect(at(r.state, 'a')).toEqual(hex(1, 0));
    expect(at(r.state, 'ally')).toEqual(hex(1, 0));
    // the suspended move keeps its remaining path and the last hex it held alone
    expect(r.state.rs.jobs).toHaveLength(1);
    expect(r.state.rs.jobs[0]).toMatchObject({ actor: 'a', path: [hex(2, 0), hex(3, 0)], back: hex(0, 0) });
    expect(R.invariants!(r.state)).toEqual([]);
    // the attack of opportunity is resolved (a miss: 3 + OCV cannot reach 10 + DCV), then the move completes
    let t = ok(r.state, { type: 'dice.force', by: gm, faces: [1, 1, 1] }).state;
    const done = ok(t, cmd('opportunityAttack', 'e'));
    t = done.state;
    const order = types(done.events);
    expect(order.indexOf('ocv-phases.attack-resolved')).toBeLessThan(order.indexOf('ocv-phases.moved'));
    expect(moves(done.events, 'a')).toEqual([
      { from: hex(1, 0), to: hex(2, 0) },
      { from: hex(2, 0), to: hex(3, 0) },
    ]);
    expect(t.reaction).toBeNull();
    expect(t.rs.jobs).toEqual([]);
    expect(at(t, 'a')).toEqual(hex(3, 0));
    alone(t);
    expect(R.invariants!(t)).toEqual([]);
  });

  it('"never ending in an occupied hex": held by an attack of opportunity in the ally\'s hex and the way ahead blocked meanwhile, the move is interrupted and steps back to the last hex it held alone', () => {
    let s = ok(guarded(), cmd('move', 'a', { mode: 'move-half', path: through })).state;
    expect(at(s, 'a')).toEqual(hex(1, 0));
    expect(R.invariants!(s)).toEqual([]);
    // while the attack of opportunity holds the move, the GM blocks the hex ahead
    s = ok(s, { type: 'setMap', by: gm, blocking: [hex(2, 0)] }).state;
    expect(R.invariants!(s)).toEqual([]);
    const r = ok(s, cmd('reaction.pass', 'e'));
    const t = types(r.events);
    const interrupted = r.events.find((e) => e.type === 'ocv-phases.interrupted');
    expect(interrupted).toMatchObject({ combatantId: 'a', row: 'move-half' });
    expect(String((interrupted as { reason?: unknown }).reason)).toContain('blocked');
    // interrupted, then moved back from the ally's hex to (0,0), and nothing further
    expect(moves(r.events, 'a')).toEqual([{ from: hex(1, 0), to: hex(0, 0) }]);
    expect(t.indexOf('ocv-phases.interrupted')).toBeLessThan(t.indexOf('ocv-phases.moved'));
    expect(at(r.state, 'a')).toEqual(hex(0, 0));
    expect(at(r.state, 'ally')).toEqual(hex(1, 0));
    expect(r.state.reaction).toBeNull();
    expect(r.state.rs.jobs).toEqual([]);
    alone(r.state);
    expect(R.invariants!(r.state)).toEqual([]);
  });

  it('"never ending in an occupied hex": through two allies in a row, a move stopped in the second steps back to the last hex it held alone (not the first ally\'s hex)', () => {
    // allies at (1,0) and (2,0); e threatens (2,0) only (and (3,0), the hex ahead), not (0,0) or (1,0)
    let { s } = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'e', side: 'y', cv: 5, at: hex(3, -1) },
        { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
        { id: 'ally2', side: 'x', cv: 2, at: hex(2, 0) },
      ],
      base,
    );
    const held = ok(s, cmd('move', 'a', { mode: 'move-half', path: through }));
    s = held.state;
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['e'] });
    expect(moves(held.events, 'a')).toEqual([
      { from: hex(0, 0), to: hex(1, 0) },
      { from: hex(1, 0), to: hex(2, 0) },
    ]);
    expect(at(s, 'a')).toEqual(hex(2, 0));
    expect(s.rs.jobs[0]).toMatchObject({ actor: 'a', path: [hex(3, 0)], back: hex(0, 0) });
    expect(R.invariants!(s)).toEqual([]);
    s = ok(s, { type: 'setMap', by: gm, blocking: [hex(3, 0)] }).state;
    const r = ok(s, cmd('reaction.pass', 'e'));
    expect(types(r.events)).toContain('ocv-phases.interrupted');
    expect(moves(r.events, 'a')).toEqual([{ from: hex(2, 0), to: hex(0, 0) }]);
    expect(at(r.state, 'a')).toEqual(hex(0, 0));
    expect(r.state.rs.jobs).toEqual([]);
    alone(r.state);
    expect(R.invariants!(r.state)).toEqual([]);
  });

  it('"he continues his actions once you complete your readied action": a readied enemy takes the hex ahead while the mover is in the ally\'s hex; the move is interrupted and steps back to the last hex it held alone, never ending in an occupied hex', () => {
    // r acts first and readies a (half) move for when a enters its reach; r threatens (1,0), the ally's hex
    let { s } = encounter(
      [
        { id: 'r', side: 'y', cv: 9, at: hex(2, -1) },
        { id: 'a', side: 'x', cv: 6, at: hex(0, 0) },
        { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
      ],
      base,
    );
    expect(s.clock.current).toBe('r');
    s = ok(
      s,
      cmd('ready', 'r', {
        actionType: 'move',
        action: 'move-half',
        trigger: { on: 'enters-reach', by: 'a', description: 'a comes close' },
      }),
    ).state;
    s = ok(s, cmd('turn.end', 'r')).state;
    expect(s.clock.current).toBe('a');
    // a's move (the GM rules its provocation negated) enters the ally's hex, in r's reach
    const held = ok(s, cmd('move', 'a', { mode: 'move-half', path: through, negated: true }));
    s = held.state;
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.before-action', eligible: ['r'], trigger: { combatantId: 'a' } });
    expect(moves(held.events, 'a')).toEqual([{ from: hex(0, 0), to: hex(1, 0) }]);
    expect(at(s, 'a')).toEqual(hex(1, 0));
    expect(at(s, 'ally')).toEqual(hex(1, 0));
    expect(s.rs.jobs[0]).toMatchObject({ actor: 'a', path: [hex(2, 0), hex(3, 0)], back: hex(0, 0) });
    expect(R.invariants!(s)).toEqual([]);
    // r takes its readied move into (2,0), the next hex of a's path (r was the only one eligible:
    // the window closes, r's move runs, then a's move goes on and finds the way ahead taken)
    const r = ok(s, cmd('takeReadied', 'r', { path: [hex(2, 0)], negated: true }));
    const t = types(r.events);
    expect(moves(r.events, 'r')).toEqual([{ from: hex(2, -1), to: hex(2, 0) }]);
    const interrupted = r.events.find((e) => e.type === 'ocv-phases.interrupted');
    expect(interrupted).toMatchObject({ combatantId: 'a', row: 'move-half', reason: 'r stands in hex 2,0.' });
    expect(moves(r.events, 'a')).toEqual([{ from: hex(1, 0), to: hex(0, 0) }]);
    const back = r.events.findIndex((e) => e.type === 'ocv-phases.moved' && (e as { combatantId?: string }).combatantId === 'a');
    expect(t.indexOf('ocv-phases.moved')).toBeLessThan(t.indexOf('ocv-phases.interrupted')); // r's move first
    expect(t.indexOf('ocv-phases.interrupted')).toBeLessThan(back);
    const end = r.state;
    expect(end.reaction).toBeNull();
    expect(end.rs.jobs).toEqual([]);
    expect(end.clock.current).toBe('a'); // a's action (its Phase slot) goes on
    expect(at(end, 'r')).toEqual(hex(2, 0));
    expect(at(end, 'a')).toEqual(hex(0, 0));
    expect(at(end, 'ally')).toEqual(hex(1, 0));
    alone(end);
    expect(R.invariants!(end)).toEqual([]);
  });

  it('"assuming he is still capable of doing so": knocked out while held in the ally\'s hex, the mover ends in the last hex it held alone, never in an occupied hex', () => {
    const held = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'e', side: 'y', cv: 5, at: hex(2, -1) },
        { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
      ],
      { options: { ...base.options, pauseAfterInterruptHit: true } },
    ).s;
    let s = ok(held, cmd('move', 'a', { mode: 'move-half', path: through })).state;
    expect(at(s, 'a')).toEqual(hex(1, 0));
    // the attack of opportunity hits: the action waits for the GM ("assuming he is still capable")
    s = ok(ok(s, { type: 'dice.force', by: gm, faces: [6, 6, 6] }).state, cmd('opportunityAttack', 'e')).state;
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.continue', eligible: ['a'] });
    expect(R.invariants!(s)).toEqual([]);
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'a', name: 'Knocked out', condition: 'unconscious' }).state;
    const r = ok(s, { type: 'reaction.resolve', by: gm });
    const t = types(r.events);
    expect(r.events.find((e) => e.type === 'ocv-phases.interrupted')).toMatchObject({
      combatantId: 'a',
      reason: 'no longer capable of acting',
    });
    expect(moves(r.events, 'a')).toEqual([{ from: hex(1, 0), to: hex(0, 0) }]);
    expect(t.indexOf('ocv-phases.interrupted')).toBeLessThan(t.indexOf('ocv-phases.moved'));
    expect(at(r.state, 'a')).toEqual(hex(0, 0));
    expect(at(r.state, 'ally')).toEqual(hex(1, 0));
    expect(r.state.rs.jobs).toEqual([]);
    alone(r.state);
    expect(R.invariants!(r.state)).toEqual([]);
  });

  it('the invariant allows a shared hex only while a move with path left is suspended: two characters in one hex otherwise are reported', () => {
    const s = ok(guarded(), cmd('move', 'a', { mode: 'move-half', path: through })).state;
    expect(at(s, 'a')).toEqual(hex(1, 0));
    expect(R.invariants!(s)).toEqual([]);
    // the same state without the suspended move (or with its path used up) breaks the invariant
    const noJob = { ...s, rs: { ...s.rs, jobs: [] }, reaction: null } as S;
    expect(R.invariants!(noJob)).toContain('two characters in hex 1,0');
    const spent = { ...s, rs: { ...s.rs, jobs: s.rs.jobs.map((j) => ({ ...j, path: [] })) } } as S;
    expect(R.invariants!(spent)).toContain('two characters in hex 1,0');
    // a suspended move of someone else does not excuse the pair either
    const other = { ...s, rs: { ...s.rs, jobs: s.rs.jobs.map((j) => ({ ...j, actor: 'e' })) } } as S;
    expect(R.invariants!(other)).toContain('two characters in hex 1,0');
    // and a plain state with two characters put in one hex is reported
    const { s: plain } = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'ally', side: 'x', cv: 3, at: hex(1, 0) },
      ],
      base,
    );
    expect(R.invariants!(plain)).toEqual([]);
    const a = plain.combatants.a!;
    const stacked = { ...plain, combatants: { ...plain.combatants, a: { ...a, position: hex(1, 0) } } } as S;
    expect(R.invariants!(stacked)).toEqual(['two characters in hex 1,0']);
  });
});
