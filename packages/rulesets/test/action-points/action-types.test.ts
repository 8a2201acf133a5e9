import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, find, legal, ok, types, until, type St } from './helpers.js';

const solo = () =>
  encounter([
    { id: 'pc', side: 'a', stats: { dexterity: 14 }, at: { x: 0, y: 0 } },
    { id: 'far', side: 'b', stats: { dexterity: 8 }, at: { x: 9, y: 9 } },
  ]);

function spells(s: St) {
  return s.combatants.pc!.data.inProgress;
}

describe('simple actions', () => {
  it('"Simple actions cost 1 AP to complete" and "are resolved immediately ... during the phase they are taken"', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    const r = act(s, 'pc', 'light-torch');
    expect(r.state.combatants.pc!.data.ap).toBe(2);
    expect(types(r.events)).toEqual(['action-points.ap-spent', 'action-points.action-taken', 'action-points.resolved']);
    s = r.state;
    expect(s.clock.phase).toBe('ready-missile');
  });

  it('one AP a phase: "If a creature completed an action during the previous phase it may perform another action now" (option apPerPhase)', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'light-torch').state;
    const e = err(s, { type: 'act', combatantId: 'pc', action: 'open-close-door' });
    expect(e.code).toBe('BUDGET_EXHAUSTED');
    expect(e.rule).toBe('action-points.one-ap-a-phase');
    let two = encounter([{ id: 'pc', side: 'a', at: { x: 0, y: 0 } }], { apPerPhase: 2 });
    two = until(two, 'pc', 'ready-missile');
    two = act(two, 'pc', 'light-torch').state;
    expect(act(two, 'pc', 'open-close-door').state.combatants.pc!.data.ap).toBe(1);
  });
});

describe('advanced actions', () => {
  it('"When you declare an advanced action, you spend 1 AP immediately. During the next action phase, you may spend another AP"', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'concentrate').state;
    expect(s.combatants.pc!.data.ap).toBe(2);
    expect(spells(s)).toMatchObject([{ action: 'concentrate', spent: 1, cost: 2, consecutive: true }]);
    const e = err(s, { type: 'continue', combatantId: 'pc' });
    expect(e.rule).toBe('action-points.advanced-one-ap-a-phase');
    s = end(s, 'pc').state;
    s = until(s, 'pc', 'thrown');
    const r = ok(s, { type: 'continue', combatantId: 'pc' });
    expect(types(r.events)).toContain('action-points.resolved');
    expect(r.state.combatants.pc!.data.inProgress).toHaveLength(0);
    expect(r.state.combatants.pc!.data.ap).toBe(1);
  });

  it('"any roll attempted to determine whether an advanced action is successful should be made after the AP are spent"', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    let r = act(s, 'pc', 'find-tracks', { check: { formula: '1d20+5', dc: 15 } });
    expect(types(r.events)).not.toContain('dice.rolled');
    s = until(end(r.state, 'pc').state, 'pc', 'thrown');
    r = ok(s, { type: 'continue', combatantId: 'pc' });
    expect(types(r.events)).not.toContain('dice.rolled');
    s = until(end(r.state, 'pc').state, 'pc', 'fast');
    r = ok(s, { type: 'continue', combatantId: 'pc' });
    const roll = find(r.events, 'dice.rolled')!;
    expect(roll.formula).toBe('1d20+5');
    expect(types(r.events).indexOf('dice.rolled')).toBeGreaterThan(types(r.events).indexOf('action-points.ap-spent'));
  });

  it('"spending AP on any other action spoils the incomplete advanced action" (and says so)', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'cast-standard-spell', { effect: { name: 'Shield', rounds: 1 } }).state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    expect(legal(s, 'pc').find((o) => o.action === 'light-torch')).toMatchObject({
      allowed: true,
      spoils: { action: 'cast-standard-spell' },
    });
    const r = act(s, 'pc', 'light-torch');
    const spoiled = find(r.events, 'action-points.advanced-spoiled')!;
    expect(spoiled).toMatchObject({ action: 'cast-standard-spell', combatantId: 'pc' });
    expect(spoiled.message).toContain('spoils the incomplete advanced action');
    expect(r.state.combatants.pc!.data.inProgress).toHaveLength(0);
  });

  it('"you must spend an action point (if you have any left) or the action is lost": passing a phase spoils it', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'drink').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    expect(legal(s, 'pc').find((o) => o.command === 'turn.end')!.label).toContain('spoils');
    const r = end(s, 'pc');
    expect(find(r.events, 'action-points.advanced-spoiled')!.reason).toContain('not continued');
  });

  it('"If you run out of AP during the current round, the action can be finished in the following round as long as you spend 1 AP on it as soon as you are able"', () => {
    let s = ok(solo(), { type: 'stop', combatantId: 'far' }).state;
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'light-torch').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    s = act(s, 'pc', 'open-close-door').state;
    s = until(end(s, 'pc').state, 'pc', 'fast');
    s = act(s, 'pc', 'cast-round-spell').state; // 1 of 3, no AP left
    expect(s.combatants.pc!.data.ap).toBe(0);
    const r = end(s, 'pc');
    expect(types(r.events)).not.toContain('action-points.advanced-spoiled');
    s = r.state;
    expect(s.clock.round).toBe(2);
    expect(s.combatants.pc!.data.inProgress[0]).toMatchObject({ action: 'cast-round-spell', spent: 1 });
    // declaration: a spell cannot be continued yet, so passing it is no fault
    s = until(s, 'pc', 'declaration');
    expect(types(end(s, 'pc').events)).not.toContain('action-points.advanced-spoiled');
    s = until(s, 'pc', 'ready-missile');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    const done = ok(s, { type: 'continue', combatantId: 'pc' });
    expect(find(done.events, 'action-points.resolved')!.action).toBe('cast-round-spell');
  });

  it('...and is lost if the first chance in the next round passes', () => {
    let s = until(ok(solo(), { type: 'stop', combatantId: 'far' }).state, 'pc', 'fast');
    s = act(s, 'pc', 'light-torch').state;
    s = until(end(s, 'pc').state, 'pc', 'average');
    s = act(s, 'pc', 'open-close-door').state;
    s = until(end(s, 'pc').state, 'pc', 'slow');
    s = act(s, 'pc', 'drink').state;
    s = until(end(s, 'pc').state, 'pc', 'ready-missile');
    expect(s.clock.round).toBe(2);
    expect(find(end(s, 'pc').events, 'action-points.advanced-spoiled')).toBeTruthy();
  });

  it('"Other advanced actions can be completed after spending the required number of AP, which can be split up over time"', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'disable-device', { consecutive: false, ap: 4, check: { formula: '1d20+8', dc: 20 } }).state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    const r = act(s, 'pc', 'light-torch');
    expect(types(r.events)).not.toContain('action-points.advanced-spoiled');
    s = until(end(r.state, 'pc').state, 'pc', 'fast');
    expect(types(end(s, 'pc').events)).not.toContain('action-points.advanced-spoiled');
    // the option makes any advanced action non-consecutive
    let o = encounter([{ id: 'pc', side: 'a', at: { x: 0, y: 0 } }], { nonConsecutiveActions: ['drink'] });
    o = until(o, 'pc', 'ready-missile');
    o = act(o, 'pc', 'drink').state;
    expect(o.combatants.pc!.data.inProgress[0]!.consecutive).toBe(false);
  });

  it('"If an advanced action doesn\'t state whether it requires consecutive or nonconsecutive AP expenditure, assume that they must be spent consecutively"', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'appraise-hoard').state;
    expect(s.combatants.pc!.data.inProgress[0]!.consecutive).toBe(true);
  });
});

describe('full-round actions', () => {
  const fr = () =>
    encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'ally', side: 'a', at: { x: 1, y: 1 } },
    ]);

  it('"usually requires 3 AP to be spent consecutively"; "you may take a 5-foot step as a free action (for 0 AP) before, during, or after the action"', () => {
    let s = until(fr(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'appraise-hoard').state;
    expect(s.combatants.pc!.data.inProgress[0]).toMatchObject({ cost: 3, fullRound: true });
    const r = act(s, 'pc', 'five-foot-step', { path: [{ x: 0, y: 1 }] });
    expect(r.state.combatants.pc!.position).toEqual({ x: 0, y: 1 });
    expect(r.state.combatants.pc!.data.ap).toBe(2);
    expect(r.state.combatants.pc!.data.freeStepUsed).toBe(true);
    s = until(end(r.state, 'pc').state, 'pc', 'thrown');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'five-foot-step', path: [{ x: 0, y: 2 }] }).rule).toBe(
      'action-points.full-round-step',
    );
  });

  it('"These options can\'t be combined with attack actions or any other simple action even if you have extra AP"', () => {
    let s = until(fr(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'light-torch').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'appraise-hoard' }).rule).toBe('action-points.full-round-alone');
    let t = until(fr(), 'pc', 'ready-missile');
    t = act(t, 'pc', 'appraise-hoard').state;
    t = until(end(t, 'pc').state, 'pc', 'thrown');
    expect(err(t, { type: 'act', combatantId: 'pc', action: 'light-torch' }).rule).toBe('action-points.full-round-alone');
  });

  it('"some full-round actions specify that a 5-foot step is not allowed" (run)', () => {
    let s = until(fr(), 'pc', 'thrown');
    s = act(s, 'pc', 'run', {
      path: [
        { x: -1, y: 0 },
        { x: -2, y: 0 },
      ],
    }).state;
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'five-foot-step', path: [{ x: 0, y: 1 }] }).message).toContain(
      'no 5-foot step',
    );
  });

  it('a free 5-foot step needs a full-round action', () => {
    const s = until(fr(), 'pc', 'ready-missile');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'five-foot-step', path: [{ x: 0, y: 1 }] }).rule).toBe(
      'action-points.full-round-step',
    );
  });
});

describe('free actions and reactions', () => {
  it('"Free actions ... cost 0 AP"; "no more than one free action per action phase"', () => {
    let s = until(solo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'drop-prone').state;
    expect(s.combatants.pc!.data.ap).toBe(3);
    const e = err(s, { type: 'act', combatantId: 'pc', action: 'recall-knowledge' });
    expect(e.rule).toBe('action-points.free-per-phase');
    // a free action and a simple action in the same phase are fine
    expect(act(s, 'pc', 'light-torch').state.combatants.pc!.data.ap).toBe(2);
  });

  it('"a limit of six such actions a round is logical in most cases" (option freeActionsPerRound)', () => {
    let s = solo();
    for (const phase of ['declaration', 'ready-missile', 'thrown', 'fast', 'average', 'slow']) {
      s = until(s, 'pc', phase);
      s = act(s, 'pc', 'speak', { text: phase }).state;
    }
    s = until(s, 'pc', 'very-slow');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'speak', text: 'seven' }).rule).toBe('action-points.free-per-round');
  });

  it('"Speak ... can be taken even when on another creature\'s initiative"; other free actions only on your own', () => {
    const s = until(solo(), 'far', 'ready-missile');
    expect(act(s, 'pc', 'speak', { text: 'Look out!' }).state.combatants.pc!.data.freeThisPhase).toBe(1);
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'drop-prone' }).code).toBe('NOT_YOUR_TURN');
  });

  it('"Reactions may be limited to one per phase" (option reactionsPerPhase): immediate actions', () => {
    let s = until(solo(), 'far', 'ready-missile');
    s = ok(s, { type: 'immediateAction', combatantId: 'pc', text: 'feather fall' }).state;
    expect(err(s, { type: 'immediateAction', combatantId: 'pc', text: 'again' }).rule).toBe('action-points.reactions-per-phase');
    s = until(end(s, 'far').state, 'far', 'thrown');
    expect(ok(s, { type: 'immediateAction', combatantId: 'pc', text: 'again' }).state.combatants.pc!.data.reactionsThisPhase).toBe(1);
  });
});
