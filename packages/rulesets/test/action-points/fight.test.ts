import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, find, ok, types, until, type St } from './helpers.js';
import { actionPoints } from '../../src/action-points/index.js';

const dagger = { id: 'dagger', name: 'Dagger', category: 'light', damage: '1d4' };
const greatsword = { id: 'gs', name: 'Greatsword', category: 'two-handed', damage: '2d6' };

function setup(): St {
  return encounter(
    [
      {
        id: 'kell',
        name: 'Kell',
        side: 'heroes',
        controller: 'p1',
        stats: { dexterity: 17, hp: 100, baseAttackBonus: 3, weapons: [dagger] },
        at: { x: 0, y: 0 },
      },
      { id: 'mira', name: 'Mira', side: 'heroes', controller: 'p2', stats: { dexterity: 15, hp: 100, ac: 11 }, at: { x: 0, y: 5 } },
      {
        id: 'goblin',
        name: 'Goblin',
        side: 'monsters',
        stats: { dexterity: 14, hp: 100, weapons: [{ id: 'bow', name: 'Shortbow', kind: 'bow', category: 'ranged', damage: '1d6' }] },
        at: { x: 4, y: 1 },
      },
      {
        id: 'brom',
        name: 'Brom',
        side: 'heroes',
        controller: 'p3',
        stats: { dexterity: 13, hp: 100, baseAttackBonus: 3, weapons: [greatsword] },
        at: { x: 1, y: 1 },
      },
      {
        id: 'chief',
        name: 'Orc chief',
        side: 'monsters',
        stats: {
          dexterity: 12,
          hp: 100,
          extraAttacksOfOpportunity: 1,
          weapons: [
            { id: 'claw1', name: 'Claw', category: 'natural', damage: '1d4' },
            { id: 'claw2', name: 'Claw', category: 'natural', damage: '1d4' },
          ],
        },
        at: { x: 1, y: 0 },
      },
    ],
    {},
    2024,
    { goblin: false, chief: false },
  );
}

describe('a scripted fight', () => {
  it('surprise round, a spell over two rounds spoiled by a dodge, a greatsword in the slow phase, -5/-10, complex provoking each phase, a ready, a full-round action with its step', () => {
    let s = setup();
    const invariants = () => expect(actionPoints.invariants!(s as never)).toEqual([]);

    // ---- Round 1: the surprise round. Only the aware act, with 2 AP.
    expect(s.rs.surprise).toBe(true);
    expect(s.clock.order).toEqual(['kell', 'mira', 'goblin', 'brom', 'chief']);
    expect([s.combatants.kell!.data.ap, s.combatants.goblin!.data.ap, s.combatants.chief!.data.ap]).toEqual([2, 0, 0]);
    expect(err(s, { type: 'declare', combatantId: 'chief', intent: 'roar' }).rule).toBe('action-points.surprise-round');
    s = ok(s, { type: 'declare', combatantId: 'mira', intent: 'cast a web over the orcs' }).state;
    s = until(s, 'mira', 'ready-missile');
    s = act(s, 'mira', 'cast-round-spell', { effect: { name: 'Web', rounds: 2, targetId: 'chief' } }).state;
    s = until(end(s, 'mira').state, 'mira', 'thrown');
    s = ok(s, { type: 'continue', combatantId: 'mira' }).state; // 2 of 3 AP: she is out of AP
    expect(s.combatants.mira!.data.ap).toBe(0);
    s = until(end(s, 'mira').state, 'kell', 'fast');
    const k1 = act(s, 'kell', 'attack', { targetId: 'chief' });
    expect(find(k1.events, 'action-points.attack-resolved')!.penalty).toBe(0);
    s = until(end(k1.state, 'kell').state, 'brom', 'fast');
    // the greatsword gates Brom's attacks to the slow phase
    const early = err(s, { type: 'act', combatantId: 'brom', action: 'attack', targetId: 'chief' });
    expect(early).toMatchObject({ code: 'WRONG_PHASE', rule: 'action-points.action-speed' });
    s = until(s, 'kell', 'average');
    const k2 = act(s, 'kell', 'attack', { targetId: 'chief' });
    expect(find(k2.events, 'action-points.attack-resolved')!.penalty).toBe(-5);
    s = until(end(k2.state, 'kell').state, 'brom', 'slow');
    s = act(s, 'brom', 'attack', { targetId: 'chief' }).state;
    s = until(end(s, 'brom').state, 'brom', 'very-slow');
    s = act(s, 'brom', 'attack', { targetId: 'chief' }).state; // his second and last AP
    invariants();
    const r1 = end(s, 'brom');
    expect(types(r1.events)).toContain('action-points.round-ended');
    s = r1.state;

    // ---- Round 2: 3 AP each. The spell carried over must be continued at the first chance.
    expect(s.clock.round).toBe(2);
    expect(s.combatants.mira!.data.inProgress[0]).toMatchObject({ action: 'cast-round-spell', spent: 2, cost: 3 });
    s = until(s, 'kell', 'ready-missile');
    // a complex action adjacent to the chief provokes before it is taken...
    let r = act(s, 'kell', 'drink');
    expect(r.state.reaction).toMatchObject({ kind: 'action-points.attack-of-opportunity', eligible: ['chief'] });
    r = ok(r.state, { type: 'attackOfOpportunity', combatantId: 'chief' });
    expect(find(r.events, 'action-points.attack-resolved')!.combatantId).toBe('chief');
    s = end(r.state, 'kell').state;
    // Mira dodges (total defense) instead of finishing the spell: it is spoiled, and the event says so
    expect(s.clock.current).toBe('mira');
    r = act(s, 'mira', 'total-defense');
    const spoiled = find(r.events, 'action-points.advanced-spoiled')!;
    expect(spoiled).toMatchObject({ combatantId: 'mira', action: 'cast-round-spell' });
    expect(String(spoiled.message)).toContain('spoils the incomplete advanced action');
    s = end(r.state, 'mira').state;
    // the goblin readies a bow shot for whoever comes adjacent
    expect(s.clock.current).toBe('goblin');
    s = act(s, 'goblin', 'ready', {
      readied: { action: 'attack', weaponId: 'bow' },
      trigger: { kind: 'moves-adjacent', description: 'if a foe moves adjacent to me' },
    }).state;
    s = until(end(s, 'goblin').state, 'kell', 'thrown');
    // ...and again in the next phase AP are spent on it (the chief has Combat Reflexes)
    r = ok(s, { type: 'continue', combatantId: 'kell' });
    expect(r.state.reaction!.eligible).toEqual(['chief']);
    expect(types(r.events)).not.toContain('action-points.resolved');
    r = ok(r.state, { type: 'attackOfOpportunity', combatantId: 'chief' });
    const aooThenDrink = r.events.map((e) => e.type).filter((t) => t === 'action-points.attack-resolved' || t === 'action-points.resolved');
    expect(aooThenDrink).toEqual(['action-points.attack-resolved', 'action-points.resolved']);
    s = until(end(r.state, 'kell').state, 'mira', 'thrown');
    s = ok(s, { type: 'continue', combatantId: 'mira' }).state;
    expect(s.effects.find((e) => e.name === 'Total defense')!.data).toMatchObject({ ac: 4 });
    s = until(end(s, 'mira').state, 'brom', 'thrown');
    // Brom closes on the goblin: the readied shot goes off
    r = act(s, 'brom', 'move', {
      path: [
        { x: 2, y: 1 },
        { x: 3, y: 1 },
      ],
    });
    expect(r.state.combatants.brom!.position).toEqual({ x: 3, y: 1 });
    expect(r.state.reaction).toMatchObject({ kind: 'action-points.ready', eligible: ['goblin'] });
    r = ok(r.state, { type: 'completeReady', combatantId: 'goblin' });
    // a ranged attack provokes from Brom, who threatens the goblin: his attack comes first
    expect(r.state.reaction).toMatchObject({ kind: 'action-points.attack-of-opportunity', eligible: ['brom'] });
    r = ok(r.state, { type: 'attackOfOpportunity', combatantId: 'brom' });
    expect(r.events.filter((e) => e.type === 'action-points.attack-resolved').map((e) => e.combatantId)).toEqual(['brom', 'goblin']);
    expect(r.state.combatants.goblin!.data.ap).toBe(1);
    s = r.state;
    invariants();
    for (const id of ['kell', 'mira', 'brom', 'chief'])
      if (!s.combatants[id]!.data.stopped) s = ok(s, { type: 'stop', combatantId: id }).state;
    expect(s.clock.round).toBe(3);

    // ---- Round 3: the cumulative penalty, and a full-round action with its free 5-foot step
    s = until(s, 'mira', 'declaration');
    expect(s.effects.some((e) => e.name === 'Total defense')).toBe(false); // "until the start of your next round of actions"
    s = until(s, 'kell', 'fast');
    const pen: number[] = [];
    pen.push(find(act(s, 'kell', 'attack', { targetId: 'chief' }).events, 'action-points.attack-resolved')!.penalty as number);
    s = act(s, 'kell', 'attack', { targetId: 'chief' }).state;
    s = until(end(s, 'kell').state, 'chief', 'fast');
    s = act(s, 'chief', 'natural-attacks', { targetId: 'kell' }).state;
    const step = act(s, 'chief', 'five-foot-step', { path: [{ x: 1, y: -1 }] });
    expect(step.state.reaction).toBeNull();
    expect(step.state.combatants.chief!.position).toEqual({ x: 1, y: -1 });
    expect(step.state.combatants.chief!.data.ap).toBe(2);
    s = until(end(step.state, 'chief').state, 'kell', 'average');
    pen.push(find(act(s, 'kell', 'attack', { targetId: 'chief' }).events, 'action-points.attack-resolved')!.penalty as number);
    s = act(s, 'kell', 'attack', { targetId: 'chief' }).state;
    s = until(end(s, 'kell').state, 'chief', 'average');
    s = ok(s, { type: 'continue', combatantId: 'chief' }).state;
    s = until(end(s, 'chief').state, 'kell', 'slow');
    const k3 = act(s, 'kell', 'attack', { targetId: 'chief' });
    pen.push(find(k3.events, 'action-points.attack-resolved')!.penalty as number);
    expect(pen).toEqual([0, -5, -10]);
    // a fourth AP in a round is refused
    expect(err(k3.state, { type: 'act', combatantId: 'kell', action: 'light-torch' })).toMatchObject({
      code: 'BUDGET_EXHAUSTED',
      rule: 'action-points.action-points',
    });
    s = until(end(k3.state, 'kell').state, 'chief', 'slow');
    const claws = ok(s, { type: 'continue', combatantId: 'chief' });
    expect(claws.events.filter((e) => e.type === 'action-points.attack-resolved' && e.combatantId === 'chief')).toHaveLength(2);
    s = claws.state;
    invariants();
  });
});
