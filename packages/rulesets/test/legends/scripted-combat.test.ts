import { describe, expect, it } from 'vitest';
import { rebuild, replay } from '@fray/engine';
import { legends } from '../../src/legends/index.js';
import { Table } from './helpers.js';

/**
 * An ambush on the road, three rounds, six combatants on two sides. It uses surprise (the
 * bandits never saw the party coming), a first-round movement phase for the non-surprised side,
 * rushing, grouped-up movement, an engagement, group defense, a successful and a failed bypass, a
 * double minor, reactive movement, escaping an engagement, a forfeited turn and a change of turn
 * order. Every command is checked against the invariants, and the whole log replays to the same
 * bytes.
 */
describe('legends: scripted combat', () => {
  it('three rounds of an ambush', () => {
    const t = new Table(2024);
    const check = () => expect(legends.invariants!(t.state)).toEqual([]);
    const step = (cmd: Record<string, unknown>) => {
      const ev = t.do(cmd);
      check();
      return ev;
    };
    // ---- setup -------------------------------------------------------------------------------
    step({
      type: 'defineZone',
      zone: { id: 'road', name: 'Forest road', features: [{ id: 'cart', name: 'Overturned cart', description: 'cover' }] },
    });
    step({
      type: 'defineZone',
      zone: { id: 'woods', name: 'Pine woods', neighbors: ['road'], traits: { movementDie: 20, notes: ['dense undergrowth'] } },
    });
    const sword = { id: 'sword', name: 'Sword', location: 'right-hand', props: { weapon: 'melee', type: 'sword', oneHanded: { STR: 5 } } };
    const bow = { id: 'bow', name: 'Bow', location: 'both-hands', props: { weapon: 'ranged', type: 'bow', twoHandedOnly: true } };
    const club = (id: string) => ({ id, name: 'Club', location: 'right-hand', props: { weapon: 'melee', type: 'club' } });
    const at = (area: string) => ({ zone: 'road', area });
    t.add({ id: 'kara', side: 'party', STR: 7, items: [sword], stats: { competences: ['sword'] }, position: at('bend') });
    t.add({
      id: 'lio',
      side: 'party',
      position: at('bend'),
      stats: { actions: [{ key: 'ward', name: 'Ward', kinds: ['minor'], tags: ['purely-mental'] }] },
    });
    t.add({ id: 'mira', side: 'party', items: [bow], stats: { competences: ['bow'] }, position: at('bend') });
    t.add({ id: 'chief', side: 'bandits', items: [club('club-c')], position: at('camp') });
    t.add({ id: 'bandit-a', side: 'bandits', items: [club('club-a')], position: at('camp') });
    t.add({ id: 'bandit-b', side: 'bandits', items: [club('club-b')], position: at('camp') });
    step({ type: 'defineAction', action: { key: 'rally', name: 'Rally the party', kinds: ['minor'], tags: ['verbal'] } });
    step({ type: 'formGroup', combatantIds: ['kara', 'lio', 'mira'], groupId: 'party' });
    step({ type: 'formGroup', combatantIds: ['chief', 'bandit-a', 'bandit-b'], groupId: 'gang' });
    // "If a character cannot see any enemy characters when combat begins, they are considered surprised"
    for (const id of ['chief', 'bandit-a', 'bandit-b']) step({ type: 'setSurprised', combatantId: id, surprised: true });
    // turn order rolls in id order: bandit-a, bandit-b, chief, kara, lio, mira
    t.force(5, 6, 4, 1, 3, 2);
    step({ type: 'combat.start' });
    expect(t.clock.order).toEqual(['kara', 'mira', 'lio', 'chief', 'bandit-a', 'bandit-b']);

    // ---- initial turn order decisions, from the second-to-last upward ---------------------------
    expect(t.state.rs.queue).toEqual(['bandit-a', 'chief', 'lio', 'mira', 'kara']);
    step({ type: 'changeTurnOrder', combatantId: 'bandit-a' });
    step({ type: 'changeTurnOrder', combatantId: 'chief' });
    step({ type: 'changeTurnOrder', combatantId: 'lio' });
    step({ type: 'changeTurnOrder', combatantId: 'mira', index: 2 }); // below Lio
    step({ type: 'changeTurnOrder', combatantId: 'kara' });
    expect(t.clock.order).toEqual(['kara', 'lio', 'mira', 'chief', 'bandit-a', 'bandit-b']);

    // ---- round 1: a movement phase for the non-surprised side only -----------------------------
    expect(t.clock).toMatchObject({ round: 1, phase: 'movement', current: 'kara' });
    expect(t.state.rs.movers).toEqual(['kara', 'lio', 'mira']);
    // Kara charges the camp (medium range away): succeeds by 5, rushes for +SPD → 11
    t.force(1);
    step({ type: 'move', combatantId: 'kara', destination: { join: 'chief', mode: 'engage' } });
    step({ type: 'finishMove', combatantId: 'kara', rush: 'self' });
    const eng = t.pos('kara').engagement!;
    expect(eng).toBeTruthy();
    for (const id of ['chief', 'bandit-a', 'bandit-b']) expect(t.pos(id).engagement).toBe(eng);
    expect(t.c('kara').data.fatigue).toBe(6);
    // Lio and Mira follow together: the rolls wait for the last member
    step({ type: 'groupMove', combatantId: 'lio', destination: { join: 'kara', mode: 'group' } });
    expect(t.state.rs.pending).toEqual([]);
    t.force(2, 1);
    step({ type: 'groupMove', combatantId: 'mira', destination: { join: 'kara', mode: 'group' } });
    step({ type: 'finishMove', combatantId: 'lio', rush: 'self' });
    step({ type: 'finishMove', combatantId: 'mira', rush: 'self' });
    const party = t.pos('kara').group!;
    for (const id of ['lio', 'mira']) expect(t.pos(id)).toEqual(t.pos('kara'));
    expect(party).toBe('party');

    // end of the movement phase: group defense
    expect(t.clock.phase).toBe('group-defense');
    t.refuse({ type: 'declareGroupDefense', combatantId: 'kara', protected: ['lio', 'mira'] }, 'legends.group-defense.ratio');
    step({ type: 'declareGroupDefense', combatantId: 'kara', protected: ['lio'] });
    step({ type: 'declareGroupDefense', combatantId: 'chief', protected: [] });
    expect(t.clock).toMatchObject({ phase: 'action', current: 'kara' });

    // action phase, round 1
    const hit = step({ type: 'act', combatantId: 'kara', action: 'melee-attack', targetId: 'chief', weaponId: 'sword' });
    expect(hit.find((e) => e.type === 'legends.attacked')).toMatchObject({ competent: true, meleeDisadvantage: 0 });
    expect(t.clock.current).toBe('lio');
    t.refuse({ type: 'act', combatantId: 'lio', action: 'melee-attack', targetId: 'chief' }, 'legends.group-defense.no-melee');
    // the double minor: two different minor actions, the second ends the turn
    step({ type: 'act', combatantId: 'lio', action: 'ward' });
    t.refuse({ type: 'act', combatantId: 'lio', action: 'ward' }, 'legends.double-minor');
    const dm = step({ type: 'act', combatantId: 'lio', action: 'rally' });
    expect(dm.find((e) => e.type === 'legends.acted')!.doubleMinor).toBe(true);
    expect(t.clock.current).toBe('mira');
    step({ type: 'act', combatantId: 'mira', action: 'ranged-attack', targetId: 'bandit-a', weaponId: 'bow' });
    // the chief bypasses the party's group defense: 2d12 on SPD, no outnumbering dice at 3 against 3
    expect(t.clock.current).toBe('chief');
    t.refuse({ type: 'act', combatantId: 'chief', action: 'melee-attack', targetId: 'lio', weaponId: 'club-c' }, 'legends.group-defense');
    t.forceFaces('2d12', [2, 2]);
    const by = step({ type: 'act', combatantId: 'chief', action: 'bypass' });
    expect(by.find((e) => e.type === 'legends.bypassRolled')).toMatchObject({ success: true, hindrance: 0, easing: 0 });
    step({ type: 'act', combatantId: 'chief', action: 'melee-attack', targetId: 'lio', weaponId: 'club-c' });
    step({ type: 'act', combatantId: 'bandit-a', action: 'melee-attack', targetId: 'kara', weaponId: 'club-a' });
    t.refuse(
      { type: 'act', combatantId: 'bandit-b', action: 'melee-attack', targetId: 'lio', weaponId: 'club-b' },
      'legends.group-defense',
    );
    step({ type: 'act', combatantId: 'bandit-b', action: 'melee-attack', targetId: 'mira', weaponId: 'club-b' });

    // ---- round 2 ----------------------------------------------------------------------------
    expect(t.clock).toMatchObject({ round: 2, phase: 'movement', current: 'kara' });
    // last round's group defense holds until the new declarations at the end of this movement phase
    expect(t.state.rs.defense.party!.protected).toEqual(['lio']);
    step({ type: 'prepareReaction', combatantId: 'kara', watch: 'bandit-b', anticipate: 'chase bandit-b if it flees' });
    for (const id of ['lio', 'mira', 'chief', 'bandit-a']) step({ type: 'stay', combatantId: id });
    // bandit-b escapes toward the woods: +2 Hindrance, the larger die of the woods
    t.force(1);
    const esc = step({ type: 'move', combatantId: 'bandit-b', destination: { zone: 'woods' } });
    expect(esc.find((e) => e.type === 'dice.rolled')!.formula).toBe('3d20kh1');
    step({ type: 'finishMove', combatantId: 'bandit-b' });
    expect(t.pos('bandit-b')).toMatchObject({ zone: 'road', area: 'camp>zone:woods', engagement: null, group: null });
    // Kara's prepared reactive movement is offered; she declines
    expect(t.state.reaction).toMatchObject({ kind: 'legends.reactive-movement', eligible: ['kara'] });
    step({ type: 'reaction.pass', combatantId: 'kara' });
    expect(t.clock.phase).toBe('group-defense');
    step({ type: 'declareGroupDefense', combatantId: 'mira', protected: ['lio'] });
    step({ type: 'declareGroupDefense', combatantId: 'chief', protected: [] });
    // Kara forfeits her turn to change her place next round
    expect(t.clock.current).toBe('kara');
    step({ type: 'forfeitTurn', combatantId: 'kara' });
    step({ type: 'act', combatantId: 'lio', action: 'speak' });
    t.refuse({ type: 'act', combatantId: 'lio', action: 'rally' }, 'legends.verbal');
    step({ type: 'turn.end', combatantId: 'lio' });
    step({ type: 'act', combatantId: 'mira', action: 'ranged-attack', targetId: 'bandit-a', weaponId: 'bow' });
    // a failed bypass: 1 degree of melee disadvantage until the chief's next turn
    t.forceFaces('2d12', [12, 12]);
    step({ type: 'act', combatantId: 'chief', action: 'bypass' });
    const weak = step({ type: 'act', combatantId: 'chief', action: 'melee-attack', targetId: 'kara', weaponId: 'club-c' });
    expect(weak.find((e) => e.type === 'legends.attacked')!.meleeDisadvantage).toBe(1);
    // bandit-a falls: its turn is skipped and its club drops where it fell
    step({ type: 'effect.apply', targetId: 'bandit-a', name: 'Incapacitated', condition: 'incapacitated' });
    expect(t.clock.current).toBe('bandit-a');
    step({ type: 'turn.end', combatantId: 'bandit-a' });
    step({ type: 'turn.end', combatantId: 'bandit-b' });

    // ---- round 3 ----------------------------------------------------------------------------
    expect(t.clock).toMatchObject({ round: 3, phase: 'movement' });
    expect(t.state.rs.movers).not.toContain('bandit-a');
    for (const id of ['kara', 'lio', 'mira', 'chief', 'bandit-b']) step({ type: 'stay', combatantId: id });
    step({ type: 'declareGroupDefense', combatantId: 'kara', protected: ['lio'] });
    // the chief guards his fallen man's body (1/4 of a character)
    step({ type: 'declareGroupDefense', combatantId: 'chief', protected: ['bandit-a'] });
    // Kara's new place, decided after the movement phase
    expect(t.clock).toMatchObject({ phase: 'reorder', current: 'kara' });
    step({ type: 'changeTurnOrder', combatantId: 'kara', index: 5 });
    expect(t.clock.order).toEqual(['lio', 'mira', 'chief', 'bandit-a', 'bandit-b', 'kara']);
    expect(t.clock).toMatchObject({ phase: 'action', current: 'lio' });
    step({ type: 'turn.end', combatantId: 'lio' });
    step({ type: 'act', combatantId: 'mira', action: 'ranged-attack', targetId: 'chief', weaponId: 'bow' });
    // the chief's disadvantage ended as his turn began
    expect(t.effectsOn('chief').some((e) => e.condition === 'melee-disadvantage')).toBe(false);
    t.refuse({ type: 'act', combatantId: 'chief', action: 'melee-attack', targetId: 'lio', weaponId: 'club-c' }, 'legends.group-defense');
    step({ type: 'act', combatantId: 'chief', action: 'melee-attack', targetId: 'kara', weaponId: 'club-c' });
    expect(t.clock.current).toBe('bandit-b'); // bandit-a skipped
    step({ type: 'turn.end', combatantId: 'bandit-b' });
    step({ type: 'act', combatantId: 'kara', action: 'melee-attack', targetId: 'chief', weaponId: 'sword' });
    expect(t.clock).toMatchObject({ round: 4, phase: 'movement' });
    step({ type: 'combat.end', reason: 'the bandits surrender' });

    // ---- the log rebuilds the same bytes -------------------------------------------------------
    expect(JSON.stringify(replay(legends, t.initial as never, t.log))).toBe(JSON.stringify(t.state));
    expect(JSON.stringify(rebuild(legends, t.initial as never, t.events))).toBe(JSON.stringify(t.state));
  });
});
