import { describe, expect, it } from 'vitest';
import { PHASES, baseActionSpeed, DEFAULT_BASE_SPEED_BY_SIZE } from '../../src/action-points/index.js';
import { act, encounter, end, err, legal, ok, until, find } from './helpers.js';

const table = { baseSpeedBySize: DEFAULT_BASE_SPEED_BY_SIZE, fastMovement: 45, slowMovement: 20 };
const greatsword = { id: 'gs', name: 'Greatsword', category: 'two-handed', damage: '2d6' };

describe('action phases', () => {
  it('"The action phases are ordered by action speed": declaration, ready-missile, thrown, fast, average, slow, very slow', () => {
    expect(PHASES).toEqual(['declaration', 'ready-missile', 'thrown', 'fast', 'average', 'slow', 'very-slow']);
    let s = encounter([{ id: 'solo', side: 'a' }]);
    const phases: string[] = [];
    for (let i = 0; i < 7; i++) {
      phases.push(s.clock.phase!);
      s = end(s, 'solo').state;
    }
    expect(phases).toEqual([...PHASES]);
    expect(s.clock.round).toBe(2);
  });

  it('declaration: "all of the players declare what actions they intend"; "Intended actions are just that" (they bind nobody)', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'orc', side: 'b', at: { x: 3, y: 0 } },
    ]);
    s = ok(s, { type: 'declare', combatantId: 'orc', intent: 'attack the elf', action: 'attack', targetId: 'pc' }).state;
    s = ok(s, { type: 'declare', combatantId: 'pc', intent: 'approach and attack', action: 'attack', targetId: 'orc' }).state;
    expect(s.rs.intents.map((i) => i.combatantId)).toEqual(['orc', 'pc']);
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'drink').state; // not what was declared: allowed
    expect(s.combatants.pc!.data.inProgress[0]!.action).toBe('drink');
    expect(err(s, { type: 'declare', combatantId: 'pc', intent: 'late' }).code).toBe('WRONG_PHASE');
  });

  it('declaration allows only "any action which can be completed at the speed of thought" (speaking), nothing costing AP', () => {
    const s = encounter([{ id: 'pc', side: 'a', at: { x: 0, y: 0 } }]);
    expect(s.clock.phase).toBe('declaration');
    expect(ok(s, { type: 'act', combatantId: 'pc', action: 'speak', text: 'Now!' }).state.combatants.pc!.data.freeThisRound).toBe(1);
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'light-torch' }).code).toBe('WRONG_PHASE');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'drop-prone' }).code).toBe('WRONG_PHASE');
    const opts = legal(s, 'pc');
    expect(opts.find((o) => o.action === 'speak')!.allowed).toBe(true);
    expect(opts.find((o) => o.action === 'light-torch')!.blocked!.rule).toBe('action-points.action-phases');
  });

  it('ready-missile: "free or swift actions", "triggered weapons (such as crossbows)", "advanced actions without the move or attack subtypes ... may be started"', () => {
    let s = encounter([
      {
        id: 'pc',
        side: 'a',
        stats: { weapons: [{ id: 'xb', name: 'Light crossbow', kind: 'crossbow', category: 'ranged', damage: '1d8' }] },
        at: { x: 0, y: 0 },
      },
      { id: 'orc', side: 'b', at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    const opts = legal(s, 'pc');
    const by = (a: string) => opts.find((o) => o.action === a)!;
    expect(by('cast-swift-spell').allowed).toBe(true);
    expect(by('cast-standard-spell').allowed).toBe(true);
    expect(by('attack').allowed).toBe(true); // crossbow: a triggered weapon
    expect(by('charge').blocked!.code).toBe('WRONG_PHASE'); // move subtype: thrown phase
    expect(by('move').blocked!.code).toBe('WRONG_PHASE');
    expect(by('trip').blocked!.code).toBe('WRONG_PHASE'); // attack subtype: speed phase
    const r = act(s, 'pc', 'attack', { targetId: 'orc', weaponId: 'xb' });
    expect(find(r.events, 'action-points.attack-resolved')).toBeTruthy();
    expect(r.state.combatants.pc!.data.unloaded).toEqual(['xb']);
  });

  it('thrown: "thrown weapons in hand and other ranged weapons that were not fired previously"; "Advanced actions without the attack subtype may also be started"', () => {
    let s = encounter([
      {
        id: 'pc',
        side: 'a',
        stats: { weapons: [{ id: 'jav', name: 'Javelin', kind: 'thrown', category: 'ranged', damage: '1d6' }] },
        at: { x: 0, y: 0 },
      },
      { id: 'orc', side: 'b', at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    expect(legal(s, 'pc').find((o) => o.action === 'attack')!.blocked!.code).toBe('WRONG_PHASE');
    s = end(s, 'pc').state;
    s = until(s, 'pc', 'thrown');
    const opts = legal(s, 'pc');
    expect(opts.find((o) => o.action === 'attack')!.allowed).toBe(true);
    expect(opts.find((o) => o.action === 'charge')!.allowed).toBe(true);
    expect(opts.find((o) => o.action === 'run')!.allowed).toBe(true);
  });

  it('"Characters can loose readied missiles during the second phase": a nocked arrow flies in ready-missile, an un-nocked one from thrown', () => {
    let s = encounter([
      {
        id: 'elf',
        side: 'a',
        stats: { weapons: [{ id: 'bow', name: 'Longbow', kind: 'bow', category: 'ranged', damage: '1d8' }] },
        at: { x: 0, y: 0 },
      },
      { id: 'orc', side: 'b', at: { x: 8, y: 0 } },
    ]);
    s = until(s, 'elf', 'ready-missile');
    expect(legal(s, 'elf').find((o) => o.action === 'attack')!.earliestPhase).toBe('thrown');
    s = act(s, 'elf', 'draw-nock').state;
    expect(s.combatants.elf!.data.nocked).toBe('bow');
    // nocked during this phase, it is not a readied missile yet (see departures.test.ts); next round it is
    s = until(end(s, 'elf').state, 'elf', 'ready-missile');
    expect(s.clock.round).toBe(2);
    const opt = legal(s, 'elf').find((o) => o.action === 'attack')! as ReturnType<typeof legal>[number] & { earliestPhase?: string };
    expect((opt as { earliestPhase?: string }).earliestPhase).toBe('ready-missile');
    expect(opt.allowed).toBe(true);
    s = act(s, 'elf', 'attack', { targetId: 'orc' }).state;
    expect(s.combatants.elf!.data.nocked).toBeNull();
  });

  it('"these are the earliest phases ... not required to take such actions only during that phase": later phases are fine', () => {
    let s = encounter([{ id: 'pc', side: 'a', at: { x: 0, y: 0 } }]);
    s = until(s, 'pc', 'very-slow');
    expect(act(s, 'pc', 'cast-swift-spell').state.combatants.pc!.data.ap).toBe(2);
  });
});

describe('action speed', () => {
  it('"most player characters have a base action speed of fast" (medium, speed 30)', () => {
    expect(baseActionSpeed('medium', 30, table)).toBe('fast');
    expect(baseActionSpeed('small', 20, table)).toBe('average');
  });

  it('"Improve base action speed one step for a movement speed of 45 or better, and reduce it step for a movement speed of 20 or less"', () => {
    expect(baseActionSpeed('large', 40, table)).toBe('average');
    expect(baseActionSpeed('large', 45, table)).toBe('fast');
    expect(baseActionSpeed('large', 20, table)).toBe('slow');
    expect(baseActionSpeed('huge', 20, table)).toBe('very-slow');
    expect(baseActionSpeed('colossal', 10, table)).toBe('very-slow');
  });

  it('"A medium-size or smaller creature with a movement rate of 45 or more may take appropriate actions during the third [phase]"', () => {
    expect(baseActionSpeed('small', 50, table)).toBe('thrown');
    expect(baseActionSpeed('medium', 45, table)).toBe('thrown');
    expect(baseActionSpeed('large', 60, table)).toBe('fast'); // larger: no thrown step
    let s = encounter([
      {
        id: 'wolf',
        side: 'b',
        stats: { size: 'small', speed: 50, weapons: [{ id: 'bite', name: 'Bite', category: 'natural', speed: 'thrown', damage: '1d6' }] },
        at: { x: 0, y: 0 },
      },
      { id: 'pc', side: 'a', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'wolf', 'thrown');
    const attack = legal(s, 'wolf').find((o) => o.action === 'attack')!;
    expect(attack.allowed).toBe(true);
    expect(act(s, 'wolf', 'attack', { targetId: 'pc', weaponId: 'bite' }).state.combatants.wolf!.data.attacksThisRound).toBe(1);
  });

  it('"A fast human armed with a greatsword makes attacks beginning in the slow phase of the round"', () => {
    let s = encounter([
      { id: 'ftr', side: 'a', stats: { weapons: [greatsword] }, at: { x: 0, y: 0 } },
      { id: 'orc', side: 'b', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'ftr', 'fast');
    const e = err(s, { type: 'act', combatantId: 'ftr', action: 'attack', targetId: 'orc' });
    expect(e.code).toBe('WRONG_PHASE');
    expect(e.rule).toBe('action-points.action-speed');
    expect(e.message).toContain('slow');
    s = until(s, 'ftr', 'average');
    expect(err(s, { type: 'act', combatantId: 'ftr', action: 'attack', targetId: 'orc' }).code).toBe('WRONG_PHASE');
    s = until(s, 'ftr', 'slow');
    expect(act(s, 'ftr', 'attack', { targetId: 'orc' }).state.combatants.ftr!.data.ap).toBe(2);
  });

  it('"whichever is later": a slow (huge) creature with a light weapon still waits for its base speed', () => {
    let s = encounter([
      {
        id: 'giant',
        side: 'b',
        stats: { size: 'huge', speed: 40, weapons: [{ id: 'd', name: 'Dagger', category: 'light' }] },
        at: { x: 0, y: 0 },
      },
      { id: 'pc', side: 'a', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'giant', 'average');
    expect(legal(s, 'giant').find((o) => o.action === 'attack')!.blocked!.message).toContain('slow');
  });

  it('"Record the character\'s base action on the character sheet": a recorded base action speed wins', () => {
    let s = encounter([
      { id: 'pc', side: 'a', stats: { baseActionSpeed: 'very-slow' }, at: { x: 0, y: 0 } },
      { id: 'orc', side: 'b', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'pc', 'slow');
    expect(legal(s, 'pc').find((o) => o.action === 'attack')!.allowed).toBe(false);
  });

  it('the reconstructed tables are options: baseSpeedBySize, weaponSpeedByCategory, earliestPhaseOverrides', () => {
    let s = encounter(
      [
        { id: 'ftr', side: 'a', stats: { weapons: [greatsword] }, at: { x: 0, y: 0 } },
        { id: 'orc', side: 'b', stats: { size: 'large' }, at: { x: 1, y: 0 } },
      ],
      {
        weaponSpeedByCategory: { 'two-handed': 'average' },
        baseSpeedBySize: { large: 'very-slow' },
        earliestPhaseOverrides: { 'light-torch': 'declaration' },
      },
    );
    s = until(s, 'ftr', 'declaration');
    expect(legal(s, 'ftr').find((o) => o.action === 'light-torch')!.allowed).toBe(true);
    s = until(s, 'ftr', 'average');
    expect(legal(s, 'ftr').find((o) => o.action === 'attack')!.blocked).toBeUndefined();
    s = until(s, 'orc', 'slow');
    expect(legal(s, 'orc').find((o) => o.action === 'attack')!.blocked!.code).toBe('WRONG_PHASE');
  });
});
