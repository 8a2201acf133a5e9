import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, createEncounter, legalActions, rebuild, replay } from '../src/engine.js';
import { parseFormula, rollFormula } from '../src/dice.js';
import { Rng, seedRng } from '../src/rng.js';
import { projectState } from '../src/projection.js';
import { projectEvent } from '../src/project-events.js';
import { mini } from './fixture.js';
import type { Command, EncounterState, EngineEvent } from '../src/types.js';

const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;
const p2 = { role: 'player', playerId: 'p2' } as const;

function must<RS>(state: EncounterState<RS>, cmd: unknown) {
  const r = apply(mini as never, state as never, cmd);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r as { ok: true; state: EncounterState<RS>; events: EngineEvent[] };
}

function setup(seed = 7, parry = true) {
  let s = createEncounter(mini, { id: 'enc', seed, options: { parry } });
  const log: Command[] = [
    { type: 'combatant.add', by: gm, combatant: { id: 'a', name: 'Aria', side: 'heroes', controller: 'p1', stats: { hp: 10 } } },
    { type: 'combatant.add', by: gm, combatant: { id: 'b', name: 'Brak', side: 'heroes', controller: 'p2', stats: { hp: 10 } } },
    { type: 'combatant.add', by: gm, combatant: { id: 'g', name: 'Ghoul', side: 'monsters', hidden: true, stats: { hp: 8 } } },
    { type: 'combatant.add', by: gm, combatant: { id: 'o', name: 'Orc', side: 'monsters', secretStats: ['hp'], stats: { hp: 12 } } },
    { type: 'combat.start', by: gm },
  ];
  for (const c of log) s = must(s, c).state;
  return { s, log };
}

describe('dice', () => {
  it('parses NdX±M with keep and drop', () => {
    expect(parseFormula('3d6+2')).toEqual({ dice: [{ count: 3, sides: 6, sign: 1 }], modifier: 2 });
    expect(parseFormula('4d6kh3').dice[0]!.keep).toEqual({ which: 'h', n: 3 });
    expect(parseFormula('d2').dice[0]).toEqual({ count: 1, sides: 2, sign: 1 });
    expect(parseFormula('2d12-1-1d4').modifier).toBe(-1);
    expect(() => parseFormula('3x6')).toThrow();
    expect(() => parseFormula('1000d6')).toThrow();
    expect(() => parseFormula('2d6kh3')).toThrow();
  });
  it('keeps the highest dice and totals only kept faces', () => {
    const rng = new Rng(seedRng(1));
    for (let i = 0; i < 200; i++) {
      const r = rollFormula('4d6kh3', rng);
      const kept = r.faces.filter((f) => f.kept).map((f) => f.value);
      expect(kept).toHaveLength(3);
      expect(r.total).toBe(kept.reduce((a, b) => a + b, 0));
      expect(Math.min(...kept)).toBeGreaterThanOrEqual(Math.min(...r.faces.map((f) => f.value)));
    }
  });
  it('the same seed gives the same rolls; faces stay in range', () => {
    const a = new Rng(seedRng(42));
    const b = new Rng(seedRng(42));
    const xs = Array.from({ length: 100 }, () => a.int(1, 12));
    expect(xs).toEqual(Array.from({ length: 100 }, () => b.int(1, 12)));
    expect(xs.every((x) => x >= 1 && x <= 12)).toBe(true);
    expect(new Set(xs).size).toBe(12);
  });
});

describe('apply', () => {
  it('every roll is an event with formula, faces, total and purpose', () => {
    const { s } = setup();
    expect(s.rolls.filter((r) => r.purpose.startsWith('initiative'))).toHaveLength(4);
    const r = must(s, { type: 'dice.roll', by: p1, formula: '2d6+1', purpose: 'luck', combatantId: 'a' });
    const ev = r.events.find((e) => e.type === 'dice.rolled')!;
    expect(ev).toMatchObject({ formula: '2d6+1', purpose: 'luck', combatantId: 'a' });
    expect((ev.faces as unknown[]).length).toBe(2);
    expect(ev.total).toBe((ev.faces as { value: number }[]).reduce((a, f) => a + f.value, 1));
  });

  it('refuses unknown commands, malformed fields and wrong roles with a typed error and no change', () => {
    const { s } = setup();
    const cases: [unknown, string][] = [
      [{ type: 'fly', by: gm }, 'UNKNOWN_COMMAND'],
      [{ type: 'attack', by: p1, combatantId: 'a' }, 'INVALID_COMMAND'],
      [{ type: 'attack', by: p2, combatantId: 'a', targetId: 'o' }, 'NOT_AUTHORIZED'],
      [{ type: 'attack', by: p1, combatantId: 'zz', targetId: 'o' }, 'UNKNOWN_COMBATANT'],
      [{ type: 'combatant.remove', by: p1, combatantId: 'o' }, 'NOT_AUTHORIZED'],
      [{ type: 'combatant.setStat', by: gm, combatantId: 'o', stat: 'hp', value: -3 }, 'INVALID_STATS'],
      [{ type: 'dice.roll', by: p1, formula: '1d6', purpose: 'x', secret: true }, 'NOT_AUTHORIZED'],
      [{ type: 'dice.roll', by: gm, formula: 'banana', purpose: 'x' }, 'INVALID_DICE'],
      ['not even an object', 'INVALID_COMMAND'],
      [{ type: 'combat.start', by: gm }, 'COMBAT_ALREADY_STARTED'],
    ];
    const before = JSON.stringify(s);
    for (const [cmd, code] of cases) {
      const r = apply(mini, s, cmd);
      expect(r.ok, JSON.stringify(cmd)).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe(code);
        expect(r.error.rule).toBeTruthy();
        expect(r.error.message).toBeTruthy();
      }
    }
    expect(JSON.stringify(s)).toBe(before);
  });

  it('a reaction window admits only the eligible reactions, a pass, or the GM, then resumes', () => {
    let { s } = setup();
    const first = s.clock.current!;
    const controller = s.combatants[first]!.controller;
    const by = controller ? { role: 'player' as const, playerId: controller } : gm;
    const target = first === 'o' ? 'a' : 'o';
    s = must(s, { type: 'attack', by, combatantId: first, targetId: target }).state;
    expect(s.reaction?.eligible).toEqual([target]);
    const blocked = apply(mini, s, { type: 'turn.end', by: gm, combatantId: first });
    expect(blocked.ok === false && blocked.error.code).toBe('REACTION_PENDING');
    const notEligible = apply(mini, s, { type: 'parry', by: gm, combatantId: first });
    expect(notEligible.ok === false && notEligible.error.code).toBe('ILLEGAL_ACTION');
    const hpBefore = s.combatants[target]!.data.hp;
    const r = must(s, { type: 'reaction.pass', by: gm, combatantId: target });
    expect(r.state.reaction).toBeNull();
    expect(r.events.map((e) => e.type)).toEqual(['reaction.responded', 'reaction.closed', 'dice.rolled', 'mini.damaged']);
    expect(r.state.combatants[target]!.data.hp as number).toBeLessThan(hpBefore as number);
  });

  it('a parry reaction stops the damage', () => {
    let { s } = setup();
    const first = s.clock.current!;
    const target = first === 'o' ? 'a' : 'o';
    s = must(s, { type: 'attack', by: gm, combatantId: first, targetId: target }).state;
    const r = must(s, { type: 'parry', by: gm, combatantId: target });
    expect(r.events.map((e) => e.type)).toEqual(['mini.parried', 'reaction.responded', 'reaction.closed']);
  });

  it('the GM can force the next roll and override a recent one', () => {
    let { s } = setup();
    s = must(s, { type: 'dice.force', by: gm, faces: [6, 6] }).state;
    const r = must(s, { type: 'dice.roll', by: gm, formula: '2d6', purpose: 'forced' });
    expect(r.events[0]!.total).toBe(12);
    expect(r.state.forcedRolls).toEqual([]);
    const rollId = r.events[0]!.rollId as string;
    const o = must(r.state, { type: 'dice.override', by: gm, rollId, total: 3, reason: 'table ruling' });
    expect(o.state.rolls.find((x) => x.id === rollId)).toMatchObject({ total: 3, overridden: true });
    expect(apply(mini, o.state, { type: 'dice.override', by: p1, rollId, total: 3 }).ok).toBe(false);
  });

  it('legalActions shows the pass option to an eligible reactor', () => {
    let { s } = setup();
    const first = s.clock.current!;
    const target = first === 'o' ? 'a' : 'o';
    s = must(s, { type: 'attack', by: gm, combatantId: first, targetId: target }).state;
    expect(legalActions(mini, s, target).some((o) => o.command === 'reaction.pass')).toBe(true);
  });
});

describe('projection', () => {
  it('players never see hidden combatants, secret stats, the RNG or GM-only rolls', () => {
    let { s } = setup();
    s = must(s, { type: 'dice.roll', by: gm, formula: '1d20', purpose: 'secret', secret: true }).state;
    const view = projectState(mini, s, p1);
    expect(view.combatants.g).toBeUndefined();
    expect(view.combatants.o!.stats).toEqual({ init: 0 });
    expect(view.combatants.a!.stats).toEqual({ hp: 10, init: 0 });
    expect(view.rng).toEqual([]);
    expect(view.clock.order).not.toContain('g');
    expect(view.rolls.some((r) => r.purpose === 'secret' || r.combatantId === 'g')).toBe(false);
    const spectator = JSON.stringify(projectState(mini, s, { role: 'spectator' }));
    expect(spectator).not.toContain('Ghoul');
    // the GM sees all of it but the generator's state (docs/dice.md: whoever reads it foresees the dice)
    expect(projectState(mini, s, gm)).toEqual({ ...s, rng: [] });
    expect(projectState(mini, s, gm).combatants).toBe(s.combatants);
  });
  it('events about hidden combatants are GM-only, and dice events lose the RNG state', () => {
    const s0 = createEncounter(mini, { id: 'x', seed: 1 });
    const r = must(s0, { type: 'combatant.add', by: gm, combatant: { name: 'Spy', side: 'm', hidden: true, stats: { hp: 3 } } });
    expect(projectEvent(r.events[0]!, p1, r.state)).toBeNull();
    const r2 = must(r.state, { type: 'dice.roll', by: gm, formula: '1d6', purpose: 'open' });
    expect(projectEvent(r2.events[0]!, p1, r2.state)).not.toHaveProperty('rngAfter');
  });
});

describe('replay', () => {
  it('the same seed and command log rebuild the byte-identical state, and events alone do too', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.nat(5), { maxLength: 40 }), (seed, picks) => {
        const { s: start, log } = setup(seed);
        let s = start;
        const accepted: Command[] = [...log];
        const batches: EngineEvent[][] = [];
        for (const p of picks) {
          const cur = s.clock.current!;
          const reactor = s.reaction?.eligible[0];
          const options: Command[] = [
            { type: 'attack', by: gm, combatantId: cur, targetId: cur === 'a' ? 'o' : 'a' },
            { type: 'turn.end', by: gm, combatantId: cur },
            { type: 'reaction.pass', by: gm, combatantId: reactor ?? cur },
            { type: 'parry', by: gm, combatantId: reactor ?? cur },
            { type: 'dice.roll', by: p1, formula: '1d8', purpose: 'p', combatantId: 'a' },
            { type: 'attack', by: p2, combatantId: 'a', targetId: 'o' },
          ];
          const cmd = options[p]!;
          const r = apply(mini, s, cmd);
          if (r.ok) {
            s = r.state;
            accepted.push(cmd);
            batches.push(r.events);
          }
          expect(s.version).toBe(accepted.length);
        }
        const initial = createEncounter(mini, { id: 'enc', seed, options: { parry: true } });
        expect(JSON.stringify(replay(mini, initial, accepted))).toBe(JSON.stringify(s));
        const fromEvents = rebuild(mini, start, batches);
        expect(JSON.stringify(fromEvents)).toBe(JSON.stringify(s));
      }),
      { numRuns: 60 },
    );
  });
});
