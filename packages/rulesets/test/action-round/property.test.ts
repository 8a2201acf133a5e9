import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, createEncounter, rebuild, replay, type EngineEvent } from '@fray/engine';
import { actionRound, invariants } from '../../src/action-round/index.js';
import type { State } from '../../src/action-round/state/index.js';

const gm = { role: 'gm' } as const;
const IDS = ['a', 'b', 'c', 'd', 'e'];

function start(seed: number, encounterType: string) {
  const initial = createEncounter(actionRound, { id: 'p', seed, options: { encounterType, freeActionLimit: 3 } }) as unknown as State;
  const setup: unknown[] = IDS.map((id, i) => ({
    type: 'combatant.add',
    by: gm,
    combatant: {
      id,
      name: id,
      side: i % 2 ? 'npc' : 'pc',
      position: { x: i % 3, y: Math.floor(i / 3) * 2 },
      stats: {
        naturalWeapons: i !== 4,
        range: 8,
        destiny: 1,
        skills: { wits: i % 2, insight: 2, lore: 1, athletics: 3, endurance: 2 },
        powers: [{ id: 'burst', name: 'Burst', action: 'move', range: 'close', area: true, reach: 2, effect: 'damage', rank: 1 }],
      },
      items: [{ id: `w${id}`, name: 'Blade', location: 'carried', tags: ['weapon'] }],
    },
  }));
  setup.push({ type: 'combat.start', by: gm });
  return { initial, setup };
}

const DIRS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [-1, -1],
  [1, -1],
  [-1, 1],
];

/** Turn a pick into a command for the state at hand (legal or not: illegal ones must change nothing). */
function commandFor(s: State, pick: number[]): Record<string, unknown> {
  const [k = 0, t = 0, d = 0, n = 1] = pick;
  const w = s.reaction;
  // mostly the acting (or reacting) character, sometimes someone else (off-turn talk, surges, delayed turns)
  const actor = w
    ? (w.eligible.find((id) => w.responses[id] === 'pending') ?? IDS[0]!)
    : n % 4 === 3
      ? IDS[(t + 1) % IDS.length]!
      : (s.clock.current ?? IDS[t % IDS.length]!);
  const target = IDS[t % IDS.length]!;
  const me = s.combatants[actor];
  const p = (me?.position as { x: number; y: number } | null) ?? { x: 0, y: 0 };
  const dir = DIRS[d % DIRS.length]!;
  const path = Array.from({ length: 1 + (n % 3) }, (_, i) => ({ x: p.x + dir[0]! * (i + 1), y: p.y + dir[1]! * (i + 1) }));
  const base = { by: gm, combatantId: actor };
  const kinds = ['close', 'ranged', 'court', 'rumor'];
  const options: Record<string, unknown>[] = [
    { type: 'turn.end' },
    { type: 'attack', kind: kinds[n % 4], targetId: target, raises: n % 3 === 2 ? 1 : 0 },
    { type: 'move', mode: n % 5 === 0 ? 'run' : 'walk', path },
    { type: 'aim', targetId: target },
    { type: 'maintain-aim' },
    { type: 'defend' },
    { type: 'draw', itemId: `w${actor}` },
    { type: 'talk', text: 'hi' },
    { type: 'surge', benefit: ['edge', 'additional-action', 'boost', 'burst'][n % 4], trait: 'attack' },
    { type: 'delay' },
    { type: 'act-now' },
    { type: 'reaction.pass' },
    { type: 'opportunity-attack' },
    { type: 'stunt', targetId: target, benefit: ['push', 'pull', 'grab', 'afflict', 'disarm', 'break'][n % 6] },
    { type: 'counter-stunt', benefit: 'push' },
    {
      type: 'ready',
      action: 'attack',
      params: { kind: 'close' },
      trigger: { event: ['acts', 'moves', 'attacks', 'enters-reach'][n % 4], by: null },
    },
    { type: 'readied', targetId: target },
    { type: 'charge', targetId: target },
    { type: 'use-power', powerId: 'burst', targetIds: [target] },
    { type: 'advance', path: path.slice(0, 1) },
    { type: 'withdraw', path: path.slice(0, 1) },
    { type: 'drop', what: 'prone' },
    { type: 'stand', acrobatic: n % 2 === 0 },
    { type: 'escape', skill: 'might' },
    { type: 'recover', choice: 'damage' },
    { type: 'spend', use: ['recover', 'coup', 'improve-roll', 'inspiration'][n % 4] },
    { type: 'gambit', skill: 'athletics' },
    { type: 'assess', targetId: target, skill: 'insight', benefit: n % 2 ? 'analyze' : 'appraisal' },
    { type: 'stance', penalty: { on: 'defense', n: 1 + (n % 3) }, bonus: { on: 'attack', n: 1 + (n % 3) } },
  ];
  return { ...base, ...options[k % options.length]! };
}

function play(seed: number, encounterType: string, picks: number[][]) {
  const { initial, setup } = start(seed, encounterType);
  let s = initial;
  const log: unknown[] = [];
  const batches: EngineEvent[][] = [];
  const step = (cmd: unknown) => {
    const before = JSON.stringify(s);
    const r = apply(actionRound as never, s as never, cmd);
    if (!r.ok) {
      expect(JSON.stringify(s)).toBe(before);
      expect(r.error.rule).toMatch(/^(action-round|engine)\./);
      return;
    }
    s = r.state as unknown as State;
    log.push(cmd);
    batches.push(r.events);
    expect(invariants(s), JSON.stringify(cmd)).toEqual([]);
  };
  setup.forEach(step);
  for (const pick of picks) step(commandFor(s, pick));
  return { initial, s, log, batches };
}

describe('property tests', () => {
  it('random play keeps the invariants, refusals change nothing, and the log and the events rebuild the byte-identical state', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.constantFrom('combat', 'conflict', 'challenge'),
        fc.array(fc.array(fc.nat(40), { minLength: 4, maxLength: 4 }), { maxLength: 120 }),
        (seed, type, picks) => {
          const { initial, s, log, batches } = play(seed, type, picks);
          const fromLog = replay(actionRound as never, initial as never, log);
          expect(JSON.stringify(fromLog)).toBe(JSON.stringify(s));
          const fromEvents = rebuild(actionRound as never, initial as never, batches);
          expect(JSON.stringify(fromEvents)).toBe(JSON.stringify(s));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('one reaction per turn and one standard action per turn hold under random play', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.array(fc.nat(40), { minLength: 4, maxLength: 4 }), { maxLength: 100 }), (seed, picks) => {
        const { batches } = play(seed, 'combat', picks);
        const reactedIn = new Map<string, number>();
        const standards = new Map<string, number>();
        let seq = 0;
        for (const batch of batches) {
          for (const e of batch) {
            if (e.type === 'action-round.turn-started' || e.type === 'action-round.turn-resumed' || e.type === 'action-round.delay-ended') {
              seq++;
              standards.clear();
            }
            if (e.type === 'action-round.reacted') {
              const key = `${String(e.combatantId)}@${seq}`;
              reactedIn.set(key, (reactedIn.get(key) ?? 0) + 1);
              expect(reactedIn.get(key)).toBe(1);
            }
            if (e.type === 'action-round.surge-action') standards.set(String(e.combatantId), -1);
            if (e.type === 'action-round.spent' && e.actionType === 'standard') {
              const id = String(e.combatantId);
              standards.set(id, (standards.get(id) ?? 0) + 1);
              expect(standards.get(id)!).toBeLessThanOrEqual(1);
            }
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
