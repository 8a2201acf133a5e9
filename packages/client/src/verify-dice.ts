/**
 * The dice verifier (docs/dice.md): from the revealed seed and salt, the commitment the viewer
 * saw at its first join, and the log it holds, recompute every roll it sees.
 */
import { z } from 'zod';
import { HEX32, HEX64, Rng, commitmentOf, deriveRngState, rollFormula, type DiceContribution } from '@fray/engine';

/** What went wrong with the input as a whole (nothing is checked then). */
export type DiceVerifyErrorCode = 'MALFORMED_LOG' | 'NOT_REVEALED' | 'BAD_REVEAL' | 'COMMITMENT_MISMATCH' | 'NOT_SEALED';

export class DiceVerifyError extends Error {
  readonly code: DiceVerifyErrorCode;
  constructor(code: DiceVerifyErrorCode, message: string) {
    super(message);
    this.name = 'DiceVerifyError';
    this.code = code;
  }
}

/** The seed and salt as revealed, and the commitment the viewer saw before anyone contributed. */
export interface DiceReveal {
  seed: string;
  salt: string;
  /** the commitment as first seen (from the state at the first join); the log's own if omitted */
  commitment?: string;
}

/** A log as a viewer holds it: GET /encounters/:id/log, the socket's `log`, or a list of events. */
export type DiceLog =
  | { entries: ReadonlyArray<{ seq?: number; events: readonly unknown[] }> }
  | ReadonlyArray<{ seq?: number; events: readonly unknown[] }>
  | readonly unknown[];

export type RollStatus = 'verified' | 'override' | 'forced' | 'mismatch' | 'unchecked';

export interface RollCheck {
  rollId: string;
  formula: string;
  purpose: string;
  /** the generator's position (outputs drawn before this roll), when the roll carries it */
  draw: number | null;
  status: RollStatus;
  /** in plain words, for a person */
  words: string;
  /** the faces the revealed dice give at this position (when checked) */
  expected?: number[];
  /** set for an override: the GM's new total and reason */
  override?: { total: number; previousTotal: number | null; reason: string | null };
}

export interface DiceReport {
  /** every roll checked is verified, forced or overridden in the open, and none clashes */
  ok: boolean;
  commitment: string;
  contributions: DiceContribution[];
  rolls: RollCheck[];
  /** generator outputs between the rolls this viewer sees (secret rolls it could not see) */
  unseenDraws: number;
  counts: Record<RollStatus, number>;
}

const hex64 = z.string().regex(HEX64);
const rolledSchema = z.looseObject({
  type: z.literal('dice.rolled'),
  rollId: z.string(),
  formula: z.string(),
  purpose: z.string().optional(),
  faces: z.array(z.looseObject({ value: z.number() })),
  total: z.number(),
  draw: z.number().int().min(0).max(10_000_000).optional(),
  drawn: z.number().int().min(0).optional(),
  forced: z.boolean().optional(),
  gmOnly: z.boolean().optional(),
});
const diceEventSchema = z.discriminatedUnion('type', [
  rolledSchema,
  z.looseObject({ type: z.literal('dice.contributed'), by: z.string(), value: hex64 }),
  z.looseObject({ type: z.literal('dice.sealed') }),
  z.looseObject({ type: z.literal('dice.revealed'), commitment: z.string().optional() }),
  z.looseObject({
    type: z.literal('dice.overridden'),
    rollId: z.string(),
    total: z.number(),
    previousTotal: z.number().nullish(),
    reason: z.string().nullish(),
  }),
]);
type Ev = z.infer<typeof diceEventSchema>;
type Rolled = z.infer<typeof rolledSchema>;
type Overridden = Extract<Ev, { type: 'dice.overridden' }>;
const anyEvent = z.looseObject({ type: z.string() });
const entries = z.union([
  z.array(z.looseObject({ events: z.array(z.unknown()) })),
  z.looseObject({ entries: z.array(z.looseObject({ events: z.array(z.unknown()) })) }),
]);
const DICE_TYPES = new Set(['dice.rolled', 'dice.contributed', 'dice.sealed', 'dice.revealed', 'dice.overridden']);

function eventsOf(log: DiceLog): Ev[] {
  const asEntries = entries.safeParse(log);
  const raw: unknown[] = asEntries.success
    ? (Array.isArray(asEntries.data) ? asEntries.data : asEntries.data.entries).flatMap((e) => e.events)
    : Array.isArray(log)
      ? log
      : [];
  if (!asEntries.success && !Array.isArray(log))
    throw new DiceVerifyError('MALFORMED_LOG', 'The log is neither a list of entries nor of events.');
  const out: Ev[] = [];
  for (const item of raw) {
    const e = anyEvent.safeParse(item);
    if (!e.success) throw new DiceVerifyError('MALFORMED_LOG', 'An entry holds an event without a type.');
    if (!DICE_TYPES.has(e.data.type)) continue;
    const d = diceEventSchema.safeParse(item);
    if (!d.success)
      throw new DiceVerifyError('MALFORMED_LOG', `A ${e.data.type} event in the log is malformed: ${z.prettifyError(d.error)}`);
    out.push(d.data);
  }
  return out;
}

function checkReveal(events: Ev[], reveal: DiceReveal): string {
  if (
    typeof reveal !== 'object' ||
    reveal === null ||
    typeof reveal.seed !== 'string' ||
    typeof reveal.salt !== 'string' ||
    !HEX64.test(reveal.seed) ||
    !HEX32.test(reveal.salt)
  ) {
    throw new DiceVerifyError('BAD_REVEAL', 'The reveal needs a 64-digit hex seed and a 32-digit hex salt.');
  }
  const logged = events.find((e) => e.type === 'dice.revealed');
  const commitment = reveal.commitment ?? (logged?.type === 'dice.revealed' ? logged.commitment : undefined);
  if (!commitment)
    throw new DiceVerifyError('NOT_REVEALED', 'Neither the reveal nor the log gives the commitment to check the seed against.');
  if (commitmentOf({ seed: reveal.seed, salt: reveal.salt }) !== commitment) {
    throw new DiceVerifyError(
      'COMMITMENT_MISMATCH',
      'SHA-256 of this seed and salt is not the commitment published at the start: these are not the dice that were committed.',
    );
  }
  return commitment;
}

/** The contributions the generator was sealed with: every `dice.contributed` before `dice.sealed`. */
function contributionsOf(events: Ev[]): DiceContribution[] {
  const out: DiceContribution[] = [];
  for (const e of events) {
    if (e.type === 'dice.sealed') return out;
    if (e.type === 'dice.contributed') out.push({ by: e.by, value: e.value });
  }
  throw new DiceVerifyError('NOT_SEALED', 'The log has no seal of the dice (dice.sealed): no die was rolled from committed dice.');
}

/** Moves forward along the generator; going back starts again from the seal. */
class Cursor {
  private rng: Rng;
  private at = 0;
  constructor(private readonly start: readonly number[]) {
    this.rng = new Rng(start);
  }
  rollAt(draw: number, formula: string): { faces: number[]; total: number; drawn: number } {
    if (draw < this.at) {
      this.rng = new Rng(this.start);
      this.at = 0;
    }
    this.rng.skip(draw - this.at);
    const before = this.rng.draws;
    const out = rollFormula(formula, this.rng);
    this.at = draw + (this.rng.draws - before);
    return { faces: out.faces.map((f) => f.value), total: out.total, drawn: this.rng.draws - before };
  }
}

const words = (xs: readonly number[]) => xs.join(', ');
const position = (draw: number | undefined) => draw ?? 0;

function checkRoll(e: Rolled, cursor: Cursor, overrides: Map<string, Overridden>): RollCheck {
  const base = { rollId: e.rollId, formula: e.formula, purpose: e.purpose ?? '', draw: e.draw ?? null };
  const faces = e.faces.map((f) => f.value);
  if (e.draw === undefined || e.drawn === undefined) {
    return {
      ...base,
      status: 'unchecked',
      words: 'Could not check: this roll has no position in the committed dice (rolled before them, or an older encounter).',
    };
  }
  let expected: { faces: number[]; total: number; drawn: number };
  try {
    expected = cursor.rollAt(e.draw, e.formula);
  } catch {
    return { ...base, status: 'mismatch', words: `Does not match: "${base.formula}" is not a formula the dice can roll.` };
  }
  const o = overrides.get(base.rollId);
  const override = o ? { total: o.total, previousTotal: o.previousTotal ?? null, reason: o.reason ?? null } : undefined;
  if (expected.drawn !== e.drawn)
    return {
      ...base,
      status: 'mismatch',
      expected: expected.faces,
      words: `Does not match: these dice take ${expected.drawn} draws at position ${base.draw}, the log says ${e.drawn}.`,
    };
  if (e.forced === true)
    return {
      ...base,
      status: 'forced',
      expected: expected.faces,
      ...(override ? { override } : {}),
      words: `Forced roll: the GM set this result in advance (the dice at position ${base.draw} were ${words(expected.faces)}).`,
    };
  const same = faces.length === expected.faces.length && faces.every((v, i) => v === expected.faces[i]) && e.total === expected.total;
  if (!same)
    return {
      ...base,
      status: 'mismatch',
      expected: expected.faces,
      words: `Does not match: the dice at position ${base.draw} are ${words(expected.faces)} (total ${expected.total}), the log says ${words(faces)} (total ${e.total}).`,
    };
  if (override) {
    const why = override.reason ? ` Reason: ${override.reason}` : ' No reason given.';
    return {
      ...base,
      status: 'override',
      expected: expected.faces,
      override,
      words: `GM override: the dice rolled ${expected.total} (verified), the GM changed the total to ${override.total}.${why}`,
    };
  }
  return {
    ...base,
    status: 'verified',
    expected: expected.faces,
    words: `Verified: ${words(expected.faces)} (total ${expected.total}) are the dice at position ${base.draw}.`,
  };
}

/**
 * Recompute every roll the viewer's log holds from the revealed seed and the contributions.
 * Throws a `DiceVerifyError` when the input cannot be checked at all (malformed log, a reveal that
 * is not the commitment's, no seal); otherwise reports each roll.
 */
export function verifyDice(log: DiceLog, reveal: DiceReveal): DiceReport {
  const events = eventsOf(log);
  const commitment = checkReveal(events, reveal);
  const contributions = contributionsOf(events);
  const cursor = new Cursor(deriveRngState(reveal.seed, contributions));
  const overrides = new Map<string, Overridden>();
  for (const e of events) if (e.type === 'dice.overridden') overrides.set(e.rollId, e);
  const rolled = events.filter((e): e is Rolled => e.type === 'dice.rolled');
  const rolls = rolled.map((e) => checkRoll(e, cursor, overrides));
  // positions: no two rolls may claim the same draws; gaps are rolls this viewer did not see
  const spans = rolled
    .filter((e) => e.draw !== undefined && e.drawn !== undefined)
    .map((e) => ({ from: position(e.draw), to: position(e.draw) + (e.drawn ?? 0), id: e.rollId }))
    .sort((a, b) => a.from - b.from);
  let unseenDraws = 0;
  let end = 0;
  for (const sp of spans) {
    if (sp.from < end) {
      const r = rolls.find((x) => x.rollId === sp.id);
      if (r)
        Object.assign(r, {
          status: 'mismatch',
          words: `Does not match: position ${sp.from} is claimed by an earlier roll too (the same dice used twice).`,
        });
    } else unseenDraws += sp.from - end;
    end = Math.max(end, sp.to);
  }
  const counts: Record<RollStatus, number> = { verified: 0, override: 0, forced: 0, mismatch: 0, unchecked: 0 };
  for (const r of rolls) counts[r.status] += 1;
  return { ok: counts.mismatch === 0, commitment, contributions, rolls, unseenDraws, counts };
}
