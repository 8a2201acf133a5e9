import { describe, expect, it } from 'vitest';
import { apply } from '@fray/engine';
import { actionPoints } from '../../src/action-points/index.js';
import { act, encounter, end, err, find, ok, until, type St } from './helpers.js';

const greatsword = { id: 'gs', name: 'Greatsword', category: 'two-handed', damage: '2d6' };
const fighters = () =>
  encounter([
    { id: 'pc', side: 'a', controller: 'p1', stats: { dexterity: 14, weapons: [greatsword] }, at: { x: 0, y: 0 } },
    { id: 'foe', side: 'b', stats: { dexterity: 10 }, at: { x: 1, y: 0 } },
  ]);

/** The command is refused with a typed error and the state is left exactly as it was. */
function refused(s: St, cmd: Record<string, unknown>) {
  const before = JSON.stringify(s);
  const r = apply(actionPoints as never, s as never, { by: { role: 'gm' }, ...cmd });
  expect(r.ok).toBe(false);
  expect(JSON.stringify(s)).toBe(before);
  if (r.ok) throw new Error('unreachable');
  expect(r.error.code).toMatch(/^[A-Z_]+$/);
  expect(r.error.rule).toBeTruthy();
  expect(r.error.message.length).toBeGreaterThan(10);
  return r.error;
}

describe('bad input', () => {
  it('a fourth AP in a round', () => {
    let s = until(fighters(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'light-torch').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    s = act(s, 'pc', 'open-close-door').state;
    s = until(end(s, 'pc').state, 'pc', 'fast');
    s = act(s, 'pc', 'lower-spell-resistance').state;
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'search' })).toMatchObject({
      code: 'BUDGET_EXHAUSTED',
      rule: 'action-points.action-points',
    });
    s = end(s, 'pc').state;
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'search' }).message).toContain('3 AP');
  });

  it('a third AP in the surprise round', () => {
    let s = encounter(
      [
        { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
        { id: 'foe', side: 'b', at: { x: 5, y: 0 } },
      ],
      {},
      1,
      { foe: false },
    );
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'light-torch').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    s = act(s, 'pc', 'open-close-door').state;
    const e = refused(s, { type: 'act', combatantId: 'pc', action: 'search' });
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED', rule: 'action-points.action-points' });
    expect(e.message).toContain('surprise round');
  });

  it('an attack before its speed phase', () => {
    const s = until(fighters(), 'pc', 'fast');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'attack', targetId: 'foe' })).toMatchObject({
      code: 'WRONG_PHASE',
      rule: 'action-points.action-speed',
    });
  });

  it('AP spent elsewhere mid consecutive action: allowed, it spoils, and says so', () => {
    let s = until(fighters(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'cast-standard-spell').state;
    if (s.reaction) s = ok(s, { type: 'reaction.pass', combatantId: 'foe' }).state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    const r = act(s, 'pc', 'light-torch');
    expect(find(r.events, 'action-points.advanced-spoiled')).toMatchObject({
      action: 'cast-standard-spell',
      reason: 'AP spent on Light a torch',
    });
  });

  it('a second action after a ready', () => {
    let s = until(fighters(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'attacked', description: 'if the foe attacks me' },
    }).state;
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'light-torch' })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-points.ready-forfeits',
    });
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'drop-prone' }).rule).toBe('action-points.ready-forfeits');
    // speaking is still possible
    expect(act(s, 'pc', 'speak', { text: 'Come on!' }).state.combatants.pc!.data.freeThisRound).toBe(1);
  });

  it('malformed and out-of-turn commands', () => {
    let s = until(fighters(), 'pc', 'ready-missile');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'teleport' }).code).toBe('INVALID_COMMAND');
    expect(refused(s, { type: 'act', combatantId: 'foe', action: 'light-torch' }).code).toBe('NOT_YOUR_TURN');
    expect(refused(s, { type: 'continue', combatantId: 'pc' }).rule).toBe('action-points.advanced');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'step', path: [{ x: 5, y: 5 }] }).code).toBe('INVALID_COMMAND');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'step', path: [{ x: 1, y: 0 }] }).rule).toBe('action-points.movement');
    const p1 = apply(actionPoints as never, s as never, {
      type: 'act',
      by: { role: 'player', playerId: 'p2' },
      combatantId: 'pc',
      action: 'light-torch',
    });
    expect(p1.ok ? null : p1.error.code).toBe('NOT_AUTHORIZED');
    s = until(s, 'pc', 'slow');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'attack', targetId: 'nobody' }).code).toBe('UNKNOWN_TARGET');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'attack' }).code).toBe('INVALID_COMMAND');
    expect(refused(s, { type: 'turn.end', combatantId: 'foe' }).code).toBe('NOT_YOUR_TURN');
    expect(err(s, { type: 'setAware', combatantId: 'pc', aware: false }).code).toBe('COMBAT_ALREADY_STARTED');
  });

  it('a target out of reach', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'foe', side: 'b', at: { x: 3, y: 0 } },
    ]);
    s = until(s, 'pc', 'fast');
    expect(refused(s, { type: 'act', combatantId: 'pc', action: 'attack', targetId: 'foe' }).rule).toBe('action-points.reach');
  });

  it('while a reaction window is open only the reactions are legal', () => {
    let s = until(fighters(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'drink').state;
    expect(s.reaction).not.toBeNull();
    expect(refused(s, { type: 'turn.end', combatantId: 'pc' }).code).toBe('REACTION_PENDING');
    expect(refused(s, { type: 'completeReady', combatantId: 'foe' }).code).toBe('REACTION_PENDING');
  });
});
