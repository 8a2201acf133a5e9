import { describe, expect, it } from 'vitest';
import { cmd, encounter, end, force, gm, hex, legal, ok, refused, types } from './helpers.js';
import { ROWS } from '../../src/ocv-phases/catalogue.js';
import type { S } from '../../src/ocv-phases/state/index.js';

// a (acts first) stands next to enemies e1 (east) and, optionally, e2
const ring = (o: { options?: Record<string, unknown>; a?: Record<string, unknown>; e1?: Record<string, unknown>; e2?: boolean } = {}) =>
  encounter(
    [
      { id: 'a', side: 'x', cv: 9, at: hex(0, 0), stats: { skills: { acrobatics: 12 }, ...(o.a ?? {}) } },
      { id: 'e1', side: 'y', cv: 5, at: hex(1, 0), stats: o.e1 },
      ...(o.e2 ? [{ id: 'e2', side: 'y', cv: 4, at: hex(0, 1) }] : []),
      { id: 'ally', side: 'x', cv: 3, at: hex(-1, 0) },
    ],
    { options: { offerAbort: false, pauseAfterInterruptHit: false, ...(o.options ?? {}) } },
  ).s;

const away = [hex(0, -1), hex(-1, -1), hex(-2, -1)];

describe('the manoeuvre table', () => {
  it('every row of the table, with its action type and its attack-of-opportunity column', () => {
    const t = Object.fromEntries(ROWS.map((r) => [r.label, [r.type, r.provokes]]));
    expect(t).toMatchObject({
      Block: ['attack', 'no'],
      Disarm: ['attack', 'no'],
      Dodge: ['attack', 'no'],
      Grab: ['attack', 'no'],
      Haymaker: ['attack', 'no'],
      'Missile Deflection': ['attack', 'no'],
      'Roll With A Punch': ['attack', 'no'],
      Strike: ['attack', 'no'],
      'Other Attacks': ['attack', 'no'],
      'Move up to half of combat movement': ['move', 'skill'],
      'Crawl one hex': ['move', 'skill'],
      'Draw or sheathe a focus': ['move', 'skill'],
      'Stand up from prone': ['move', 'skill'],
      'Mount or dismount a horse': ['move', 'skill'],
      'Reload a gun': ['move', 'skill'],
      'Use a skill that requires a move action': ['move', 'varies'],
      'Start a full-phase action': ['move', 'varies'],
      'Complete a full-phase action': ['move', 'varies'],
      "Analyse an opponent's weaknesses": ['move', 'no'],
      'Attempt to use a non-targeting sense to perceive an enemy': ['move', 'no'],
      'Resist Knockback': ['move', 'no'],
      'Open or close a door': ['move', 'no'],
      'Move a heavy object': ['move', 'yes'],
      'Pick up an item': ['move', 'yes'],
      'Move more than half and up to all of combat movement': ['full', 'skill'],
      'Move at non-combat speed': ['full', 'yes'],
      'Use a skill that requires a full-phase action': ['full', 'varies'],
      'Retrieve or stow a stored focus': ['full', 'yes'],
      'Change clothes': ['full', 'yes'],
      'Move By an opponent': ['full', 'no'],
      'Move Through an opponent': ['full', 'no'],
      'Rapid Fire at multiple opponents': ['full', 'no'],
      'Sweep multiple opponents': ['full', 'no'],
      'Withdraw from combat': ['full', 'no'],
      'Recover from being Stunned': ['full', 'no'],
      'Take a Recovery': ['full', 'no'],
      'Brace for Accuracy': ['free', 'no'],
      'Shift a Multipower': ['free', 'no'],
      'Make a Soliloquy': ['free', 'no'],
      'Make a Presence Attack': ['free', 'no'],
      'Turn a Power On or Off': ['free', 'no'],
      'Use Casual Strength': ['free', 'no'],
      'Drop an item': ['free', 'no'],
      'Drop prone': ['free', 'no'],
      Delay: ['none', 'no'],
      '1-Hex Step': ['none', 'no'],
    });
  });

  it('"Yes": picking up an item in a threatened hex provokes; "No": analysing an opponent does not', () => {
    const s = ring();
    const r = ok(s, cmd('act', 'a', { action: 'pick-up' }));
    expect(r.state.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['e1'] });
    expect(ok(s, cmd('act', 'a', { action: 'analyse' })).state.reaction).toBeNull();
  });

  it('"Yes (skill check negates)": a successful skill roll negates it, a failed one does not', () => {
    const s = ring();
    const good = ok(force(s, [3, 3, 3]), cmd('move', 'a', { mode: 'move-half', path: away, skill: 'acrobatics' }));
    expect(good.events.find((e) => e.type === 'ocv-phases.skill-check')).toMatchObject({ success: true, target: 12, total: 9 });
    expect(good.state.reaction).toBeNull();
    expect(good.state.combatants.a!.position).toEqual(hex(-2, -1));
    const bad = ok(force(s, [6, 6, 1]), cmd('move', 'a', { mode: 'move-half', path: away, skill: 'acrobatics' }));
    expect(bad.state.reaction?.eligible).toEqual(['e1']);
    refused(
      s,
      { ...cmd('move', 'a', { mode: 'move-half', path: away, negated: true }), by: { role: 'player', playerId: 'p' } },
      'engine.roles',
    );
  });

  it('"Usually (varies)": provokes by default; the GM may rule otherwise, players may not', () => {
    const s = ring();
    expect(ok(s, cmd('act', 'a', { action: 'skill-move' })).state.reaction?.eligible).toEqual(['e1']);
    expect(ok(s, cmd('act', 'a', { action: 'skill-move', provokes: false })).state.reaction).toBeNull();
    const p = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0), controller: 'p1' },
        { id: 'e1', side: 'y', cv: 5, at: hex(1, 0) },
      ],
      {},
    ).s;
    refused(
      p,
      { type: 'act', by: { role: 'player', playerId: 'p1' }, combatantId: 'a', action: 'skill-move', provokes: false },
      'ocv-phases.usually-varies',
    );
    const lenient = ring({ options: { usuallyVaries: 'does-not-provoke' } });
    expect(ok(lenient, cmd('act', 'a', { action: 'skill-move' })).state.reaction).toBeNull();
  });

  it('"Free actions never incur attacks of opportunity"', () => {
    const s = ring();
    for (const action of ['brace', 'soliloquy', 'drop-prone']) expect(ok(s, cmd('free', 'a', { action })).state.reaction).toBeNull();
  });
});

describe('attacks of opportunity', () => {
  it('"You threaten all hexes into which you can make a melee attack, even when it is not your action" — moving out provokes from the threatening character', () => {
    const s = ring();
    const r = ok(s, cmd('move', 'a', { mode: 'move-half', path: away }));
    expect(r.state.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['e1'], trigger: { combatantId: 'a' } });
    expect(r.state.combatants.a!.position).toEqual(hex(0, 0)); // not moved yet
    expect(types(r.events)).toContain('ocv-phases.provoked');
  });

  it('"immediately resolve the attack of opportunity, then complete the current action"', () => {
    let s = ring();
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: away })).state;
    s = force(s, [5, 5, 5]);
    const r = ok(s, cmd('opportunityAttack', 'e1', { manoeuvre: 'strike' }));
    const t = types(r.events);
    expect(t.indexOf('ocv-phases.attack-resolved')).toBeLessThan(t.indexOf('ocv-phases.moved'));
    expect(r.state.combatants.a!.position).toEqual(hex(-2, -1));
    expect(r.state.clock.current).toBe('a'); // a's action goes on
  });

  it('"You don\'t have to make an attack of opportunity if you don\'t want to"', () => {
    let s = ring();
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: away })).state;
    s = ok(s, cmd('reaction.pass', 'e1')).state;
    expect(s.combatants.a!.position).toEqual(hex(-2, -1));
    expect(s.rs.attacks).toEqual([]);
  });

  it('"Moving out of more than one hex threatened by the same opponent in the same Phase doesn\'t count as more than one opportunity"', () => {
    let s = encounter(
      [
        { id: 'a', side: 'x', cv: 9, at: hex(0, 0) },
        { id: 'big', side: 'y', cv: 5, at: hex(2, 0), stats: { reach: 2, combatReflexes: true } },
      ],
      { options: { offerAbort: false } },
    ).s;
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: [hex(0, 1), hex(-1, 1), hex(-2, 1)] })).state;
    expect(s.reaction?.eligible).toEqual(['big']);
    s = ok(s, cmd('reaction.pass', 'big')).state;
    expect(s.reaction).toBeNull(); // leaving (0,1), also threatened, is the same opportunity
    expect(s.combatants.a!.position).toEqual(hex(-2, 1));
  });

  it('"you can only make one per Phase" — the same enemy provoked twice by two actions', () => {
    let s = ring();
    s = ok(s, cmd('act', 'a', { action: 'pick-up' })).state;
    s = ok(force(s, [1, 1, 1]), cmd('opportunityAttack', 'e1')).state;
    expect(ok(s, cmd('act', 'a', { action: 'heavy-object' })).state.reaction).toBeNull();
  });

  it('"If you have the Combat Reflexes skill you can make more than one attack of opportunity in each Phase ... each one represents a different opportunity"', () => {
    let s = ring({ e1: { combatReflexes: true } });
    s = ok(s, cmd('act', 'a', { action: 'pick-up' })).state;
    s = ok(force(s, [1, 1, 1]), cmd('opportunityAttack', 'e1')).state;
    s = ok(s, cmd('act', 'a', { action: 'heavy-object' })).state;
    expect(s.reaction?.eligible).toEqual(['e1']);
    s = ok(force(s, [1, 1, 1]), cmd('opportunityAttack', 'e1')).state;
    expect(s.combatants.e1!.data.aoos).toBe(2);
    // "This does not let you make more than one attack for a given opportunity"
    refused(s, cmd('opportunityAttack', 'e1'), 'ocv-phases.aoo-opportunity');
  });

  it('"you cannot make an attack of opportunity if you have used the dodge manoeuvre"', () => {
    let s = ring();
    s = ok(s, cmd('act', 'a', { action: 'door' })).state;
    s = end(s); // e1
    s = ok(s, cmd('defend', 'e1', { manoeuvre: 'dodge' })).state;
    s = end(end(s)); // ally, phase 2: a
    expect(s.clock.current).toBe('a');
    const r = ok(s, cmd('move', 'a', { mode: 'move-half', path: away }));
    expect(r.state.reaction).toBeNull();
    refused(r.state, cmd('opportunityAttack', 'e1'), 'ocv-phases.aoo-dodge');
  });

  it('"You make your attack of opportunity with any manoeuvre that requires an attack roll" — not a Dodge, and a Disarm works', () => {
    let s = ring();
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: away })).state;
    const opts = legal(s, 'e1')
      .filter((o) => o.command === 'opportunityAttack')
      .map((o) => o.action);
    expect(opts).toEqual(['disarm', 'grab', 'haymaker', 'strike', 'other-attack']);
    // a typed refusal naming the rule, not the schema's message
    const e = refused(s, { type: 'opportunityAttack', by: gm, combatantId: 'e1', manoeuvre: 'dodge' }, 'ocv-phases.aoo-manoeuvre');
    expect(e.message).toContain('any manoeuvre that requires an attack roll');
    const r = ok(force(s, [1, 1, 1]), cmd('opportunityAttack', 'e1', { manoeuvre: 'disarm' }));
    expect(r.state.rs.attacks.at(-1)).toMatchObject({ ocv: 3 }); // 5 - 2
  });

  it('"you use the worst OCV and DCV bonus, while all OCV and DCV penalties stack"', () => {
    // e1 made a Grab (-1 OCV, -2 DCV) on its action; its attack of opportunity with a Disarm (-2 OCV) stacks the penalties
    let s = ring({ e1: { ocv: 8, dcv: 8 } });
    s = ok(s, cmd('act', 'a', { action: 'door' })).state;
    s = end(s);
    s = ok(force(s, [1, 1, 1]), cmd('attack', 'e1', { manoeuvre: 'grab', targetId: 'a' })).state;
    expect(s.rs.attacks.at(-1)).toMatchObject({ ocv: 7 });
    s = end(end(s)); // ally; phase 2: a
    // (e1's manoeuvres last until its next action)
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: away })).state;
    s = ok(force(s, [1, 1, 1]), cmd('opportunityAttack', 'e1', { manoeuvre: 'disarm' })).state;
    expect(s.rs.attacks.at(-1)).toMatchObject({ ocv: 5 }); // 8 - 1 - 2
    // its DCV now carries the Grab's -2 (and a Haymaker's -5 would stack)
    expect(s.combatants.e1!.data.manoeuvres.map((m) => m.id)).toEqual(['grab', 'disarm']);
  });

  it('"Withdraw from combat": No — and the 1-hex step never provokes', () => {
    const s = ring();
    expect(ok(s, cmd('move', 'a', { mode: 'withdraw', path: away })).state.reaction).toBeNull();
  });

  it('several threatening enemies are each offered an attack; the move resumes when all answered', () => {
    let s = ring({ e2: true });
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: away })).state;
    expect(s.reaction?.eligible).toEqual(['e1', 'e2']);
    s = ok(s, cmd('reaction.pass', 'e2')).state;
    expect(s.reaction).not.toBeNull();
    s = ok(force(s, [1, 1, 1]), cmd('opportunityAttack', 'e1')).state;
    expect(s.reaction).toBeNull();
    expect(s.combatants.a!.position).toEqual(hex(-2, -1));
  });

  it('a hit holds the interrupted action until its owner or the GM continues ("assuming he is still capable")', () => {
    let s = ring({ options: { pauseAfterInterruptHit: true } });
    s = ok(s, cmd('move', 'a', { mode: 'move-half', path: away })).state;
    s = ok(force(s, [6, 6, 6]), cmd('opportunityAttack', 'e1')).state;
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.continue', eligible: ['a'] });
    s = ok(s, { type: 'effect.apply', by: gm, targetId: 'a', name: 'Knocked out', condition: 'unconscious' }).state;
    const r = ok(s, { type: 'reaction.resolve', by: gm });
    expect(types(r.events)).toContain('ocv-phases.interrupted');
    expect(r.state.combatants.a!.position).toEqual(hex(0, 0));
  });

  it('legalActions says which options provoke and from whom', () => {
    const s = ring({ e2: true });
    const l = legal(s, 'a');
    expect(l.find((o) => o.action === 'move-half')).toMatchObject({ kind: 'move', allowed: true, provokes: { from: ['e1', 'e2'] } });
    expect(String(l.find((o) => o.action === 'move-half')!.provokes!.reason)).toContain('skill check negates');
    expect(l.find((o) => o.action === 'pick-up')!.provokes!.from).toEqual(['e1', 'e2']);
    expect(l.find((o) => o.action === 'withdraw')).toMatchObject({ kind: 'full-phase', provokes: null });
    expect(l.find((o) => o.action === 'soliloquy')).toMatchObject({ kind: 'free', provokes: null });
  });
});

export type { S };
