import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, force, gm, hex, legal, ok, refused } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';

// The most specific rule (issue #35 item 4): when a character's action is not now, the refusal says
// why — it delayed, readied, aborted, its action this Phase is over, it cannot act — not only that
// "characters act in order". A, B, C, D (Initiative 10, 8, 6, 4), far apart unless placed.
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
const block = (id: string) => cmd('defend', id, { manoeuvre: 'block' });

describe("a refusal names the rule that ended or moved the character's action", () => {
  it('"By choosing to delay, you take no action on your own Initiative score and wait to act later": a delayed character acting on gets the delay rule', () => {
    const s = ok(four(), cmd('delay', 'A')).state;
    expect(s.clock.current).toBe('B');
    const e = refused(s, block('A'), 'ocv-phases.delay');
    expect(e.code).toBe('NOT_YOUR_TURN');
    expect(e.message).toContain('A delayed its action');
    expect(e.message).toContain("it is B's action");
    refused(s, cmd('turn.end', 'A'), 'ocv-phases.delay');
  });

  it('"Then, any time before your next action, you may take the readied action in response to that condition": a readied character acting on gets the ready rule', () => {
    let s = four();
    s = ok(
      s,
      cmd('ready', 'A', { actionType: 'attack', action: 'strike', trigger: { on: 'moves', by: 'B', description: 'when B moves' } }),
    ).state;
    s = end(s);
    const e = refused(s, block('A'), 'ocv-phases.ready');
    expect(e.message).toContain('A readied its action');
    expect(e.message).toContain('when B moves');
  });

  it('"You can abort to any defensive attack or move action before your initiative value comes up in a Phase, giving up your next Action to do so": the given-up action is refused by that rule', () => {
    let s = four({ options: { offerAbort: true }, at: { A: hex(0, 0), B: hex(1, 0) } });
    s = ok(s, cmd('attack', 'A', { manoeuvre: 'strike', targetId: 'B' })).state;
    s = ok(force(s, [3, 3, 3]), cmd('abort', 'B', { action: 'dodge' })).state;
    // before B's slot comes up, and after it was skipped
    let e = refused(s, block('B'), 'ocv-phases.abort-gave-up');
    expect(e.message).toContain('aborted to a defensive action and gave up this action');
    s = end(s);
    expect(s.clock.current).toBe('C');
    e = refused(s, block('B'), 'ocv-phases.abort-gave-up');
    expect(e.message).toContain("it is C's action");
  });

  it('"In every phase that follows, the characters act in the same order": a character whose action this Phase ended is told so', () => {
    let s = four();
    s = ok(s, block('A')).state;
    s = end(s);
    const e = refused(s, block('A'), 'ocv-phases.initiative-order');
    expect(e.message).toContain("A's action this Phase is over");
    expect(e.message).toContain("it is B's action");
    const later = refused(s, block('C'), 'ocv-phases.initiative-order');
    expect(later.message).toContain("C's Initiative has not come up yet");
  });

  it('"You can\'t take actions (for example, because you\'re unconscious or paralysed)": an incapable character is refused by that rule, on its action or not', () => {
    let s = four();
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'B', name: 'Knocked out', condition: 'unconscious' }).state;
    const e = refused(s, block('B'), 'ocv-phases.incapable');
    expect(e.message).toContain('unconscious');
  });

  it('the acting character during an interruption: the rule of interruptions, the same in legalActions and apply', () => {
    let s = four({ at: { A: hex(0, 0), B: hex(1, 0) } });
    s = ok(s, cmd('act', 'A', { action: 'pick-up' })).state; // provokes an attack of opportunity from B
    expect(s.reaction?.kind).toBe('ocv-phases.attack-of-opportunity');
    const e = refused(s, block('A'), 'ocv-phases.interrupts');
    const option = legal(s, 'A').find((o) => o.action === 'block')!;
    expect(option.blocked?.rule).toBe(e.rule);
  });
});

describe("a typed refusal with its rule instead of the schema's message", () => {
  it('"You can abort to any defensive attack or move action": aborting to a Strike names that rule', () => {
    let s: S = four({ options: { offerAbort: true }, at: { A: hex(0, 0), B: hex(1, 0) } });
    s = ok(s, cmd('attack', 'A', { manoeuvre: 'strike', targetId: 'B' })).state;
    const e = refused(s, cmd('abort', 'B', { action: 'strike' }), 'ocv-phases.abort-defensive');
    expect(e.message).toContain('Strike is not one');
  });
});

describe("a window a character is not offered: the rule that kept it out, not the engine's generic reaction rule", () => {
  // a (acts first) next to enemies e1 and e2; e2 dodged on its action
  const ring = () => {
    let s = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'e1', side: 'y', cv: 5, at: hex(1, 0) },
        { id: 'e2', side: 'y', cv: 4, at: hex(0, 1) },
        { id: 'far', side: 'y', cv: 3, at: hex(8, 0) },
      ],
      { options: { offerAbort: false, pauseAfterInterruptHit: false } },
    ).s;
    s = end(s); // a
    s = end(s); // e1
    s = ok(s, cmd('defend', 'e2', { manoeuvre: 'dodge' })).state;
    s = end(end(s)); // e2, far → Phase 2: a
    return ok(s, cmd('act', 'a', { action: 'pick-up' })).state; // provokes from e1 only
  };

  it('"you cannot make an attack of opportunity if you have used the dodge manoeuvre": a pass from the dodger names it', () => {
    const s = ring();
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['e1'] });
    const e = refused(s, cmd('reaction.pass', 'e2'), 'ocv-phases.aoo-dodge');
    expect(e.message).toContain('dodge');
    refused(s, cmd('opportunityAttack', 'e2'), 'ocv-phases.aoo-dodge');
  });

  it('"An attack of opportunity" comes from a character the lapse is next to: a pass from one far off names that rule', () => {
    const e = refused(ring(), cmd('reaction.pass', 'far'), 'ocv-phases.aoo-opportunity');
    expect(e.message).toContain('provokes one from you');
  });
});
