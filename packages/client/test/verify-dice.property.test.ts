import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, createEncounter, projectEvents, type EncounterState, type EngineEvent, type Ruleset } from '@fray/engine';
import { getRuleset } from '@fray/rulesets';
import { DiceVerifyError, verifyDice, type DiceReveal } from '../src/verify-dice.js';

// legends changes its state copy-on-write: the dice events go through that path too
const legends = getRuleset('legends') as Ruleset;
const gm = { role: 'gm' } as const;
const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'));
const FORMULAS = ['1d20', '2d6+3', '4d6kh3', '3d8dl1-2', '1d100', 'd2', '2d12-1d4', '1d1000'];

interface Step {
  formula: string;
  secret: boolean;
  forced: boolean;
  override: boolean;
}
const stepArb: fc.Arbitrary<Step> = fc.record({
  formula: fc.constantFrom(...FORMULAS),
  secret: fc.boolean(),
  forced: fc.boolean(),
  override: fc.boolean(),
});
const caseArb: fc.Arbitrary<Case> = fc.record({
  seed: hex(32),
  salt: hex(16),
  players: fc.uniqueArray(fc.constantFrom('p1', 'p2', 'p3'), { maxLength: 3 }),
  values: fc.array(hex(32), { minLength: 4, maxLength: 4 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 12 }),
});

/** An honest encounter: contributions, rolls (secret, forced, overridden), the end (auto reveal). */
interface Case {
  seed: string;
  salt: string;
  players: string[];
  values: string[];
  steps: Step[];
}
function honest(c: Case) {
  let s = createEncounter(legends, { id: 'enc', seed: 1, dice: { seed: c.seed, salt: c.salt } });
  const commitment = s.dice!.commitment;
  const batches: Array<{ events: EngineEvent[]; state: EncounterState }> = [];
  const run = (cmd: Record<string, unknown>) => {
    const r = apply(legends, s, cmd);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    s = r.state;
    batches.push({ events: r.events, state: s });
    return r.events;
  };
  run({ type: 'dice.contribute', by: gm, value: c.values[0] });
  c.players.forEach((p, i) => run({ type: 'dice.contribute', by: { role: 'player', playerId: p }, value: c.values[i + 1] }));
  // the first roll is plain: every case has one roll a player can check
  c.steps.forEach((step, i) => {
    const plain = i === 0;
    if (step.forced && !plain) run({ type: 'dice.force', by: gm, formula: step.formula, total: 7 });
    const rolled = run({ type: 'dice.roll', by: gm, formula: step.formula, purpose: `roll ${i}`, secret: step.secret && !plain });
    const id = rolled.find((e) => e.type === 'dice.rolled')!.rollId as string;
    if (step.override && !plain) run({ type: 'dice.override', by: gm, rollId: id, total: 1, reason: 'the rules say so' });
  });
  run({ type: 'combat.end', by: gm });
  const reveal: DiceReveal = { seed: c.seed, salt: c.salt, commitment };
  const gmLog = batches.map((b, seq) => ({ seq, events: projectEvents(b.events, gm, b.state) }));
  const playerLog = batches.map((b, seq) => ({ seq, events: projectEvents(b.events, { role: 'player', playerId: 'p1' }, b.state) }));
  return { reveal, gmLog, playerLog, steps: c.steps };
}

const flip = (h: string) => (h[0] === '0' ? '1' : '0') + h.slice(1);
const rollsOf = (log: Array<{ events: EngineEvent[] }>) => log.flatMap((b) => b.events).filter((e) => e.type === 'dice.rolled');
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('verifyDice (docs/dice.md)', () => {
  it('"the verifier accepts every honest log", the GM\'s whole and a player\'s (secret rolls unseen)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const h = honest(c);
        const all = verifyDice({ entries: h.gmLog }, h.reveal);
        expect(all.ok).toBe(true);
        expect(all.unseenDraws).toBe(0);
        expect(all.rolls).toHaveLength(h.steps.length);
        expect(all.counts.mismatch + all.counts.unchecked).toBe(0);
        h.steps.forEach((step, i) => {
          const r = all.rolls[i]!;
          expect(r.status).toBe(i > 0 && step.forced ? 'forced' : i > 0 && step.override ? 'override' : 'verified');
        });
        const mine = verifyDice(h.playerLog, h.reveal);
        expect(mine.ok).toBe(true);
        // the secret rolls between the ones the player sees are gaps it can count (not those after its last)
        const lastSeen = Math.max(...rollsOf(h.playerLog).map((e) => e.draw as number));
        const secretDraws = rollsOf(h.gmLog)
          .filter((e) => e.gmOnly && (e.draw as number) < lastSeen)
          .reduce((n, e) => n + (e.drawn as number), 0);
        expect(mine.unseenDraws).toBe(secretDraws);
        // a player never holds a secret roll, nor the generator's state
        expect(JSON.stringify(h.playerLog)).not.toContain('rngAfter');
        expect(
          mine.rolls.every((r) => !r.purpose.startsWith('roll ') || !h.steps[Number(r.purpose.slice(5))]!.secret || r.purpose === 'roll 0'),
        ).toBe(true);
      }),
      { numRuns: 60, seed: 36 },
    );
  });

  it('"rejects any single changed die face, total, seed, salt or contribution"', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), fc.constantFrom('face', 'total', 'seed', 'salt', 'contribution'), (c, pick, what) => {
        const h = honest(c);
        const log = copy(h.gmLog);
        const checkable = rollsOf(log).filter((e) => !e.forced);
        const roll = checkable[pick % checkable.length]!;
        if (what === 'seed' || what === 'salt') {
          const reveal = { ...h.reveal, [what]: flip(h.reveal[what]) };
          expect(() => verifyDice(log, reveal)).toThrow(expect.objectContaining({ code: 'COMMITMENT_MISMATCH' }));
          return;
        }
        if (what === 'face') {
          const faces = roll.faces as Array<{ sides: number; value: number }>;
          const f = faces[pick % faces.length]!;
          f.value = f.value === f.sides ? 1 : f.value + 1;
          if (f.sides === 1) f.value = 2;
        } else if (what === 'total') {
          roll.total = (roll.total as number) + 1;
        } else {
          const contributed = log.flatMap((b) => b.events).find((e) => e.type === 'dice.contributed')!;
          contributed.value = flip(contributed.value as string);
        }
        const report = verifyDice(log, h.reveal);
        expect(report.ok).toBe(false);
        if (what !== 'contribution') expect(report.rolls.find((r) => r.rollId === roll.rollId)!.status).toBe('mismatch');
      }),
      { numRuns: 80, seed: 36 },
    );
  });

  it('bad input: a forged log, a log without a seal, a malformed reveal: typed errors', () => {
    const h = honest({
      seed: 'ab'.repeat(32),
      salt: 'cd'.repeat(16),
      players: ['p1'],
      values: ['01'.repeat(32), '02'.repeat(32), '03'.repeat(32), '04'.repeat(32)],
      steps: [{ formula: '1d20', secret: false, forced: false, override: false }],
    });
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(DiceVerifyError);
        return (e as DiceVerifyError).code;
      }
      return 'accepted';
    };
    expect(code(() => verifyDice({ entries: [{ events: [42] }] } as never, h.reveal))).toBe('MALFORMED_LOG');
    expect(code(() => verifyDice('nonsense' as never, h.reveal))).toBe('MALFORMED_LOG');
    expect(code(() => verifyDice([], h.reveal))).toBe('NOT_SEALED');
    expect(code(() => verifyDice(h.gmLog, { seed: 'zz', salt: h.reveal.salt }))).toBe('BAD_REVEAL');
    // the same roll twice at one position (a forged log reusing good dice)
    const forged = copy(h.gmLog);
    const roll = rollsOf(forged)[0]!;
    forged.push({ seq: 99, events: [{ ...roll, rollId: 'r99.1' }] });
    const report = verifyDice(forged, h.reveal);
    expect(report.ok).toBe(false);
    expect(report.rolls.at(-1)!.status).toBe('mismatch');
  });
});
