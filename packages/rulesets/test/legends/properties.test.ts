import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, createEncounter, legalActions, rebuild, replay, type ActionOption, type EngineEvent } from '@fray/engine';
import { legends, type LState } from '../../src/legends/index.js';

const gm = { role: 'gm' } as const;
const weapon = (id: string, loc = 'right-hand') => ({ id, name: id, location: loc, props: { weapon: 'melee', type: 'blade' } });

function setupLog(): unknown[] {
  const add = (id: string, side: string, extra: Record<string, unknown> = {}, items: unknown[] = []) => ({
    type: 'combatant.add',
    by: gm,
    combatant: {
      id,
      name: id,
      side,
      controller: side === 'h' ? `p-${id}` : null,
      stats: { DEX: 6, SPD: 6, STR: 6, competences: ['blade'], ...extra },
      items,
    },
  });
  return [
    { type: 'defineZone', by: gm, zone: { id: 'yard', neighbors: ['main'], traits: { movementDie: 10 } } },
    add('h1', 'h', {}, [weapon('w1'), { id: 'rope', name: 'Rope', location: 'carried' }]),
    add('h2', 'h', { encumbrance: 1 }, [weapon('w2')]),
    add('h3', 'h', { externalSPD: 3 }),
    add('f1', 'f', {}, [weapon('w3')]),
    add('f2', 'f', { kind: 'animal' }),
    add('f3', 'f', { sprintingFocus: 1 }, [weapon('w4', 'carried')]),
    { type: 'formGroup', by: gm, combatantIds: ['h1', 'h2', 'h3'], groupId: 'party' },
    { type: 'formGroup', by: gm, combatantIds: ['f1', 'f3'], groupId: 'pack' },
    { type: 'formEngagement', by: gm, combatantIds: ['h1', 'f1'], engagementId: 'melee' },
    { type: 'setSurprised', by: gm, combatantId: 'f2', surprised: true },
    { type: 'defineAction', by: gm, action: { key: 'rally', name: 'Rally', kinds: ['minor'], tags: ['verbal'] } },
    { type: 'defineAction', by: gm, action: { key: 'focus', name: 'Focus', kinds: ['free'], tags: ['purely-mental'] } },
    { type: 'defineAction', by: gm, action: { key: 'aim', name: 'Aim', kinds: ['minor'], tags: ['slowing'] } },
    { type: 'combat.start', by: gm },
  ];
}

/** Turn a legal option into a concrete command, choosing parameters with `pick`. */
function fill(s: LState, o: ActionOption, pick: (n: number) => number): Record<string, unknown> | null {
  const cmd: Record<string, unknown> = { type: o.command, by: gm, ...(o.template ?? {}) };
  const ids = Object.keys(s.combatants);
  const me = s.combatants[cmd.combatantId as string];
  for (const p of o.params ?? []) {
    if (p.optional && pick(2) === 0) continue;
    switch (p.name) {
      case 'targetId':
      case 'itemId':
      case 'weaponId':
      case 'watch':
      case 'toId':
      case 'hand':
      case 'index': {
        const list = (p.options ?? []) as (string | number)[];
        if (list.length === 0) return null;
        cmd[p.name] = list[pick(list.length)];
        break;
      }
      case 'anticipate':
        cmd.anticipate = 'anything';
        break;
      case 'destination': {
        const choices: unknown[] = [
          { zone: 'main', area: 'hill' },
          { zone: 'yard' },
          { zone: 'main', area: null },
          ...ids.filter((x) => x !== me?.id).map((x) => ({ join: x })),
        ];
        cmd.destination = choices[pick(choices.length)];
        break;
      }
      case 'breakout':
        cmd.breakout = [{ removeHindrance: true }, { ignoreLowerDex: true }][pick(2)];
        break;
      case 'rush':
        cmd.rush = ['none', 'self', 'external'][pick(3)];
        break;
      case 'keepTogether':
        cmd.keepTogether = pick(2) === 0;
        break;
      case 'protected': {
        const list = (p.options ?? []) as string[];
        cmd.protected = list.length > 0 && pick(2) === 0 ? [list[pick(list.length)]] : [];
        break;
      }
      case 'ops': {
        const it = me?.items[pick(Math.max(1, me.items.length))];
        if (!it) return null;
        cmd.ops = [
          it.location === 'carried'
            ? { op: 'draw', itemId: it.id }
            : it.location === 'ground'
              ? { op: 'pickup', itemId: it.id }
              : { op: 'stow', itemId: it.id },
        ];
        break;
      }
      default:
        break;
    }
  }
  return cmd;
}

function randomCommand(s: LState, pick: (n: number) => number): Record<string, unknown> {
  const roll = pick(10);
  const ids = Object.keys(s.combatants);
  if (roll === 0) {
    // GM tools and junk
    const c = ids[pick(ids.length)]!;
    const gmCmds: Record<string, unknown>[] = [
      { type: 'advancePhase', by: gm },
      {
        type: 'effect.apply',
        by: gm,
        targetId: c,
        name: 'cond',
        condition: ['deafened', 'pinned', 'incapacitated', 'grappled'][pick(4)],
        duration: { unit: ['round', 'end-of-turn', 'movement-phase'][pick(3)], count: 1 + pick(2) },
      },
      {
        type: 'act',
        by: gm,
        combatantId: c,
        action: ['speak', 'touch', 'melee-attack', 'bypass', 'nonsense'][pick(5)],
        targetId: ids[pick(ids.length)],
      },
      { type: 'turn.end', by: gm, combatantId: c },
      { type: 'forfeitTurn', by: gm, combatantId: c },
      { type: 'dice.force', by: gm, total: 1 + pick(12) },
      { type: 'bogus', by: gm },
      { type: 'act', by: { role: 'player', playerId: 'p-h1' }, combatantId: 'f1', action: 'speak' },
      { type: 'combatant.remove', by: gm, combatantId: c },
      {
        type: 'combatant.add',
        by: gm,
        combatant: { name: 'Newcomer', side: ['h', 'f'][pick(2)]!, stats: { DEX: 1 + pick(10), SPD: 6, STR: 6 } },
      },
      { type: 'effect.remove', by: gm, effectId: s.effects[pick(Math.max(1, s.effects.length))]?.id ?? 'none' },
    ];
    return gmCmds[pick(gmCmds.length)]!;
  }
  const options: ActionOption[] = [];
  for (const id of ids) for (const o of legalActions(legends, s as never, id)) if (o.allowed) options.push(o);
  if (options.length === 0) return { type: 'advancePhase', by: gm };
  const o = options[pick(options.length)]!;
  return fill(s, o, pick) ?? { type: 'advancePhase', by: gm };
}

function run(seed: number, choices: number[]) {
  let state = createEncounter(legends, { id: 'p', seed, options: { initialTurnOrderDecisions: true } }) as unknown as LState;
  const initial = state;
  const log: unknown[] = [];
  const batches: EngineEvent[][] = [];
  for (const c of setupLog()) {
    const r = apply(legends, state as never, c);
    if (!r.ok) throw new Error(r.error.message);
    state = r.state as unknown as LState;
    log.push(c);
    batches.push(r.events);
  }
  let i = 0;
  const pick = (n: number) => (n <= 1 ? 0 : (choices[i++ % choices.length]! >>> 0) % n);
  for (let step = 0; step < choices.length; step++) {
    const cmd = randomCommand(state, pick);
    const before = JSON.stringify(state);
    const r = apply(legends, state as never, cmd);
    if (!r.ok) {
      expect(JSON.stringify(state)).toBe(before);
      expect(r.error.rule).toBeTruthy();
      continue;
    }
    state = r.state as unknown as LState;
    log.push(cmd);
    batches.push(r.events);
    const broken = legends.invariants!(state);
    if (broken.length > 0) throw new Error(`invariants broken after ${JSON.stringify(cmd)}: ${broken.join('; ')}`);
  }
  return { initial, state, log, batches };
}

describe('legends: properties', () => {
  it('random command streams never break the invariants, and replay rebuilds the byte-identical state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.nat(), { minLength: 20, maxLength: 120 }), (seed, choices) => {
        const { initial, state, log, batches } = run(seed, choices);
        const replayed = replay(legends, initial as never, log);
        expect(JSON.stringify(replayed)).toBe(JSON.stringify(state));
        const rebuilt = rebuild(legends, initial as never, batches);
        expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(state));
      }),
      { numRuns: Number(process.env.LEGENDS_RUNS ?? 25), endOnFailure: true },
    );
  }, 600_000);

  it('legalActions agrees with apply: allowed options (and every target they list) are accepted, blocked ones are refused by the rule they name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.nat(), { minLength: 10, maxLength: 80 }), (seed, choices) => {
        const { state } = run(seed, choices);
        for (const id of Object.keys(state.combatants)) {
          for (const o of legalActions(legends, state as never, id)) {
            const required = (o.params ?? []).filter((p) => !p.optional);
            if (o.allowed && o.command === 'act' && required.length === 1 && required[0]!.name === 'targetId') {
              // every target the option lists is accepted
              for (const target of required[0]!.options ?? []) {
                const r = apply(legends, state as never, { type: 'act', by: gm, ...(o.template ?? {}), targetId: target });
                expect(r.ok, `${o.label} → ${String(target)}: ${r.ok ? '' : r.error.rule + ' ' + r.error.message}`).toBe(true);
              }
            }
            if (required.length > 0) continue;
            const r = apply(legends, state as never, { type: o.command, by: gm, ...(o.template ?? {}) });
            if (o.allowed) expect(r.ok, `${o.label}: ${r.ok ? '' : r.error.rule + ' ' + r.error.message}`).toBe(true);
            else if (o.blocked) {
              expect(r.ok, `${o.label} should be refused`).toBe(false);
              if (!r.ok) expect(r.error.rule, o.label).toBe(o.blocked.rule);
            }
          }
        }
      }),
      { numRuns: Number(process.env.LEGENDS_RUNS ?? 15), endOnFailure: true },
    );
  }, 600_000);

  it('long games progress through rounds and keep turn order a permutation of the combatants', () => {
    const { state, log } = run(
      42,
      Array.from({ length: 600 }, (_, i) => (i * 7919) % 1009),
    );
    expect(state.clock.round).toBeGreaterThan(1);
    // the stream really plays: movement, actions and group defense all happen
    const types = new Set(
      log.map(
        (c) =>
          (c as { type: string; action?: string }).type +
          ((c as { action?: string }).action ? `:${(c as { action?: string }).action}` : ''),
      ),
    );
    if (process.env.LEGENDS_DIAG) console.log([...types].sort().join(' '), state.clock.round);
    for (const t of ['move', 'finishMove', 'declareGroupDefense', 'changeTurnOrder']) expect(types.has(t), t).toBe(true);
    expect([...types].filter((t) => t.startsWith('act:')).length).toBeGreaterThan(5);
    expect([...state.clock.order].sort()).toEqual(Object.keys(state.combatants).sort());
  }, 60_000);
});
