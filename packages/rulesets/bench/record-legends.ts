import { createEncounter, type Ruleset } from '@fray/engine';
import { legends, type LState, type Position } from '../src/legends/index.js';
import { gm, must, play, type Cmd, type Recorded, type St } from './kit.js';

// ---------------------------------------------------------------- legends
export function legendsRecord(count: number): Recorded {
  const R: Ruleset = legends;
  let s = createEncounter(R, { id: 'bench', seed: 7, options: { initialTurnOrderDecisions: true } });
  const setup: Cmd[] = [
    {
      type: 'defineZone',
      zone: { id: 'courtyard', traits: { groupDefenseRatio: 2 }, features: [{ id: 'well', name: 'Well', description: '' }] },
    },
    { type: 'defineZone', zone: { id: 'walls', neighbors: ['courtyard'], traits: { movementDie: 20 } } },
    { type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'], tags: ['slowing'] } },
    { type: 'defineAction', action: { key: 'brace', name: 'Brace', kinds: ['minor'] } },
    { type: 'defineAction', action: { key: 'focus', name: 'Focus', kinds: ['free'], tags: ['purely-mental'] } },
  ];
  for (let i = 0; i < 12; i++) {
    const side = i < 6 ? 'heroes' : 'raiders';
    const ranged = i % 3 === 2;
    setup.push({
      type: 'combatant.add',
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side,
        controller: side === 'heroes' ? `p${i}` : null,
        stats: {
          DEX: 4 + (i % 5),
          SPD: 5 + (i % 4),
          STR: 4 + (i % 6),
          competences: ['blade', 'bow'],
          encumbrance: i === 4 ? 1 : 0,
          sprintingFocus: i % 5 === 0 ? 1 : 0,
          toughness: 1000,
        },
        items: [
          ranged
            ? { id: `w${i}`, name: 'Bow', location: 'both-hands', props: { weapon: 'ranged', type: 'bow', twoHandedOnly: true } }
            : { id: `w${i}`, name: 'Blade', location: 'right-hand', props: { weapon: 'melee', type: 'blade', oneHanded: { STR: 3 } } },
          { id: `p${i}`, name: 'Potion', location: 'carried' },
        ],
        position: { zone: 'courtyard', area: i < 6 ? 'gate' : 'keep' },
      },
    });
  }
  setup.push({ type: 'formGroup', combatantIds: ['c0', 'c1', 'c2'], groupId: 'h-front' });
  setup.push({ type: 'formGroup', combatantIds: ['c3', 'c4', 'c5'], groupId: 'h-back' });
  setup.push({ type: 'formGroup', combatantIds: ['c6', 'c7', 'c8'], groupId: 'r-front' });
  setup.push({ type: 'formGroup', combatantIds: ['c9', 'c10', 'c11'], groupId: 'r-back' });
  setup.push({ type: 'setSurprised', combatantId: 'c11', surprised: true });
  setup.push({ type: 'combat.start' });
  for (const c of setup) s = must(R, s, { by: gm, ...c });

  const candidates = (st: St, n: number): Cmd[] => {
    const s = st as LState;
    const out: Cmd[] = [];
    const push = (c: Cmd) => out.push({ by: gm, ...c });
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      if (n % 4 === 0) push({ type: 'react', combatantId: who, destination: { join: w.trigger.combatantId! } });
      push({ type: 'reaction.pass', combatantId: who });
      return out;
    }
    // the GM confirms each attack's outcome as rolled, as a table does (toughness 1000: the fight runs its
    // length); unconfirmed attacks would pile up in the state and measure a table nobody plays
    const attack = s.rs.attacks[0];
    if (attack) return [{ by: gm, type: 'resolveAttack', attackId: attack.id }];
    const phase = s.clock.phase;
    if (phase === 'turn-order' || phase === 'reorder') {
      const id = s.rs.queue[0]!;
      push({ type: 'changeTurnOrder', combatantId: id, index: s.clock.order.length - 1 });
      push({ type: 'changeTurnOrder', combatantId: id });
      return out;
    }
    if (phase === 'group-defense') {
      const g = s.rs.queue[0]!;
      const members = Object.values(s.combatants).filter((c) => (c.position as Position | null)?.group === g);
      const last = members[members.length - 1]!;
      push({ type: 'declareGroupDefense', combatantId: members[0]!.id, protected: n % 2 ? [last.id] : [] });
      push({ type: 'declareGroupDefense', combatantId: members[0]!.id, protected: [] });
      return out;
    }
    if (phase === 'movement') {
      const pending = s.rs.pending.find((p) => !p.finished);
      if (pending) {
        push({ type: 'finishMove', combatantId: pending.combatantId, rush: n % 5 === 0 ? 'self' : 'none' });
        push({ type: 'finishMove', combatantId: pending.combatantId });
        return out;
      }
      const id = s.rs.queue[0]!;
      const me = s.combatants[id]!;
      const enemies = Object.values(s.combatants)
        .filter((c) => c.side !== me.side)
        .map((c) => c.id);
      const target = enemies[n % enemies.length]!;
      const later = s.clock.order.slice(s.clock.order.indexOf(id) + 1).find((x) => s.rs.queue.includes(x));
      if (n % 7 === 0 && later) push({ type: 'prepareReaction', combatantId: id, watch: later, anticipate: 'follow' });
      if (n % 3 !== 0) push({ type: 'move', combatantId: id, destination: { join: target, mode: 'engage' } });
      if (n % 11 === 0) push({ type: 'move', combatantId: id, destination: { zone: 'courtyard', area: 'well' } });
      push({ type: 'stay', combatantId: id });
      return out;
    }
    const id = s.clock.current!;
    const me = s.combatants[id]!;
    const t = me.data.turn;
    const enemies = Object.values(s.combatants)
      .filter((c) => c.side !== me.side)
      .map((c) => c.id);
    const target = enemies[n % enemies.length]!;
    const act = (action: string, extra: Cmd = {}) => push({ type: 'act', combatantId: id, action, ...extra });
    if (t.seq.length === 0) {
      act('speak');
      act('focus');
    }
    if (t.free.length < 2) {
      act('focus');
      act('shout');
    }
    if (t.minors.length === 0) {
      act(n % 4 === 0 ? 'bypass' : 'aim');
      act('brace');
    }
    if (t.minors.length === 1 && n % 3 === 0) {
      act('brace');
      act('aim');
    }
    for (const e of [target, ...enemies]) {
      act('melee-attack', { targetId: e, weaponId: `w${id.slice(1)}` });
      act('ranged-attack', { targetId: e, weaponId: `w${id.slice(1)}` });
    }
    act('inventory', { as: 'major', ops: [{ op: 'draw', itemId: `p${id.slice(1)}` }] });
    push({ type: 'turn.end', combatantId: id });
    return out;
  };
  return play(R, s, count, candidates, () => ({ by: gm, type: 'advancePhase' }));
}
