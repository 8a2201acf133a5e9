import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apply, createEncounter, rebuild, replay } from '../src/engine.js';
import { commitmentOf, deriveRngState } from '../src/commit.js';
import { projectState } from '../src/projection.js';
import { projectEvents } from '../src/project-events.js';
import { mini } from './fixture.js';
import type { Command, EncounterState, EngineEvent } from '../src/types.js';

const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;
const SEED = 'a1'.repeat(32);
const SALT = '5e'.repeat(16);
const C_GM = '01'.repeat(32);
const C_P1 = 'fe'.repeat(32);

type S = EncounterState<unknown>;
function run(s: S, cmd: unknown): { state: S; events: EngineEvent[] } {
  const r = apply(mini as never, s as never, cmd);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r as never;
}
function refused(s: S, cmd: unknown): { code: string; rule: string } {
  const r = apply(mini as never, s as never, cmd);
  if (r.ok) throw new Error('accepted');
  return r.error;
}
const adds: Command[] = [
  { type: 'combatant.add', by: gm, combatant: { id: 'a', name: 'Aria', side: 'heroes', controller: 'p1', stats: { hp: 10 } } },
  { type: 'combatant.add', by: gm, combatant: { id: 'g', name: 'Ghoul', side: 'monsters', hidden: true, stats: { hp: 8 } } },
];
function fresh(): S {
  return createEncounter(mini, { id: 'enc', seed: 7, dice: { seed: SEED, salt: SALT } }) as S;
}
function started(): { s0: S; s: S; log: Command[]; events: EngineEvent[][] } {
  const s0 = fresh();
  const log: Command[] = [
    ...adds,
    { type: 'dice.contribute', by: gm, value: C_GM },
    { type: 'dice.contribute', by: p1, value: C_P1 },
    { type: 'combat.start', by: gm },
  ];
  let s = s0;
  const events: EngineEvent[][] = [];
  for (const c of log) {
    const r = run(s, c);
    s = r.state;
    events.push(r.events);
  }
  return { s0, s, log, events };
}

describe('committed dice (docs/dice.md)', () => {
  it('"the encounter publishes commitment = SHA-256(seed || salt)": the same digest as node:crypto over the raw bytes', () => {
    const s = fresh();
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from(SEED, 'hex'), Buffer.from(SALT, 'hex')]))
      .digest('hex');
    expect(commitmentOf({ seed: SEED, salt: SALT })).toBe(expected);
    expect(s.dice).toMatchObject({
      scheme: 'fray-dice/v1',
      commitment: expected,
      contributions: [],
      sealed: false,
      draws: 0,
      autoReveal: true,
      revealed: null,
    });
  });

  it('"the secret stays out of every projection (GM too)": every viewer sees the commitment, none the seed, salt or generator', () => {
    const { s, events } = started();
    for (const viewer of [gm, p1, { role: 'spectator' } as const]) {
      const view = projectState(mini as never, s as never, viewer);
      const text = JSON.stringify(view) + JSON.stringify(events.map((b) => projectEvents(b, viewer, s as never, view)));
      expect(text).toContain(s.dice!.commitment);
      expect(text).not.toContain(SEED);
      expect(text).not.toContain(SALT);
      expect(text).not.toContain('rngAfter');
      expect(view.rng).toEqual([]);
    }
  });

  it('"at combat start the generator\'s 128-bit state is derived from the server seed and every contribution", as documented', () => {
    const { s, events } = started();
    const startEvents = events[events.length - 1]!;
    expect(startEvents[0]).toEqual({ type: 'combat.started' });
    expect(startEvents[1]).toEqual({ type: 'dice.sealed', contributors: ['gm', 'player:p1'] });
    // the documented derivation, computed here with node:crypto
    const digest = createHash('sha256')
      .update(
        JSON.stringify([
          'fray-dice/v1',
          SEED,
          [
            ['gm', C_GM],
            ['player:p1', C_P1],
          ],
        ]),
        'utf8',
      )
      .digest();
    const state = [0, 4, 8, 12].map((i) => digest.readInt32BE(i));
    expect(
      deriveRngState(SEED, [
        { by: 'gm', value: C_GM },
        { by: 'player:p1', value: C_P1 },
      ]),
    ).toEqual(state);
    // initiative rolls: positions one after the other from 0
    const rolls = startEvents.filter((e) => e.type === 'dice.rolled');
    expect(rolls.map((r) => r.draw)).toEqual([0, rolls[0]!.drawn]);
    expect(s.dice!.draws).toBe((rolls[1]!.draw as number) + (rolls[1]!.drawn as number));
    // another contribution gives other dice
    const other = deriveRngState(SEED, [{ by: 'gm', value: C_GM }]);
    expect(other).not.toEqual(state);
  });

  it("replays and rebuilds to the live state (the secret is in the server's state, the log needs nothing else)", () => {
    const { s0, s, log, events } = started();
    const more: Command[] = [
      { type: 'dice.roll', by: gm, formula: '4d6kh3+1', purpose: 'secret', secret: true },
      { type: 'combat.end', by: gm },
    ];
    let live = s;
    for (const c of more) {
      const r = run(live, c);
      live = r.state;
      events.push(r.events);
    }
    expect(JSON.stringify(replay(mini as never, s0 as never, [...log, ...more]))).toBe(JSON.stringify(live));
    expect(JSON.stringify(rebuild(mini as never, s0 as never, events))).toBe(JSON.stringify(live));
  });

  it('bad input: contribute twice, after the seal, on an old encounter, not hex: typed errors naming engine.dice.contribute, nothing changed', () => {
    const s0 = fresh();
    const once = run(s0, { type: 'dice.contribute', by: gm, value: C_GM }).state;
    expect(refused(once, { type: 'dice.contribute', by: gm, value: C_P1 })).toMatchObject({
      code: 'DICE_ALREADY_CONTRIBUTED',
      rule: 'engine.dice.contribute',
    });
    expect(refused(s0, { type: 'dice.contribute', by: gm, value: 'xyz' })).toMatchObject({ code: 'INVALID_COMMAND' });
    expect(refused(s0, { type: 'dice.contribute', by: { role: 'system' }, value: C_GM })).toMatchObject({
      code: 'NOT_AUTHORIZED',
      rule: 'engine.dice.contribute',
    });
    const { s } = started();
    expect(refused(s, { type: 'dice.contribute', by: p1, value: C_GM })).toMatchObject({
      code: 'DICE_SEALED',
      rule: 'engine.dice.contribute',
    });
    const old = createEncounter(mini, { id: 'enc', seed: 7 }) as S;
    expect(refused(old, { type: 'dice.contribute', by: gm, value: C_GM })).toMatchObject({ code: 'DICE_NOT_COMMITTED' });
    // a roll in setup seals too: contributions close with the first die
    const rolled = run(once, { type: 'dice.roll', by: gm, formula: '1d6', purpose: 'test' });
    expect(rolled.events.map((e) => e.type)).toEqual(['dice.sealed', 'dice.rolled']);
    expect(refused(rolled.state, { type: 'dice.contribute', by: p1, value: C_P1 })).toMatchObject({ code: 'DICE_SEALED' });
  });

  it('"reveal only after combat ended": too early, then automatic at the end, then twice: typed errors, nothing changed', () => {
    const { s } = started();
    expect(refused(s, { type: 'dice.reveal', by: gm })).toMatchObject({ code: 'DICE_REVEAL_TOO_EARLY', rule: 'engine.dice.reveal' });
    expect(refused(s, { type: 'dice.reveal', by: p1 })).toMatchObject({ code: 'NOT_AUTHORIZED' });
    const end = run(s, { type: 'combat.end', by: gm });
    expect(end.events.at(-1)).toEqual({ type: 'dice.revealed', seed: SEED, salt: SALT, commitment: s.dice!.commitment });
    expect(projectState(mini as never, end.state as never, p1).dice).toMatchObject({ revealed: { seed: SEED, salt: SALT } });
    expect(refused(end.state, { type: 'dice.reveal', by: gm })).toMatchObject({
      code: 'DICE_ALREADY_REVEALED',
      rule: 'engine.dice.reveal',
    });
    expect(refused(end.state, { type: 'dice.roll', by: gm, formula: '1d6', purpose: 'late' })).toMatchObject({ code: 'COMBAT_ENDED' });
  });

  it('"automatic when combat ends, an encounter option, default on": off, the GM reveals by command after the end', () => {
    const { s } = started();
    const off = run(s, { type: 'dice.autoReveal', by: gm, on: false }).state;
    const end = run(off, { type: 'combat.end', by: gm });
    expect(end.events.map((e) => e.type)).toEqual(['combat.ended']);
    expect(end.state.dice!.revealed).toBeNull();
    const shown = run(end.state, { type: 'dice.reveal', by: gm });
    expect(shown.events).toEqual([{ type: 'dice.revealed', seed: SEED, salt: SALT, commitment: s.dice!.commitment }]);
  });

  it('an encounter without committed dice rolls as before: no position in its events, no dice state, reveal refused', () => {
    let s = createEncounter(mini, { id: 'enc', seed: 7 }) as S;
    for (const c of [...adds, { type: 'combat.start', by: gm }]) s = run(s, c).state;
    const r = run(s, { type: 'dice.roll', by: gm, formula: '2d6', purpose: 'x' });
    expect(Object.keys(r.events[0]!)).toEqual(['type', 'rollId', 'formula', 'faces', 'total', 'purpose', 'combatantId', 'rngAfter']);
    expect(r.state.dice).toBeNull();
    expect(refused(s, { type: 'dice.reveal', by: gm })).toMatchObject({ code: 'DICE_NOT_COMMITTED' });
  });
});
