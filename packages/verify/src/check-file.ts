/**
 * What `fray-verify` checks (docs/dice.md): a log file a viewer holds — the socket `log` answer,
 * GET /encounters/:id/log, or an encounter export — against the revealed seed and salt (given on
 * the command line, or the log's own `dice.revealed`) and the commitment the viewer saw at its
 * first join (given, or the export's first snapshot, or the log's `dice.revealed`).
 */
import { z } from 'zod';
import { DiceVerifyError, diceSummary, rollLine, verifyDice, type DiceLog, type DiceReport, type DiceReveal } from '@fray/client';

/** Why the file could not be checked at all. */
export type CheckFileErrorCode = 'FILE_UNREADABLE' | 'NOT_JSON' | 'LOG_REFUSED' | DiceVerifyError['code'];

export class CheckFileError extends Error {
  readonly code: CheckFileErrorCode;
  constructor(code: CheckFileErrorCode, message: string) {
    super(message);
    this.name = 'CheckFileError';
    this.code = code;
  }
}

/** What the person gave on the command line besides the file. */
export interface CheckOptions {
  seed?: string;
  salt?: string;
  commitment?: string;
}

export interface CheckResult {
  report: DiceReport;
  /** the lines to print, one per roll, then the summary */
  lines: string[];
  /** where the commitment checked against came from */
  commitmentFrom: 'given' | 'export' | 'log';
}

const entry = z.looseObject({ events: z.array(z.unknown()) });
const exportFile = z.looseObject({
  format: z.literal('fray-encounter'),
  initial: z.looseObject({ state: z.looseObject({ dice: z.looseObject({ commitment: z.string() }).nullish() }) }),
  log: z.array(entry),
});
const refused = z.looseObject({ ok: z.literal(false), error: z.looseObject({ code: z.string(), message: z.string() }) });
const revealed = z.looseObject({ type: z.literal('dice.revealed'), seed: z.string(), salt: z.string(), commitment: z.string().optional() });

/** The log's entries, and the commitment an export's first snapshot published. */
function logOf(raw: unknown): { log: DiceLog; commitment?: string } {
  const denied = refused.safeParse(raw);
  if (denied.success)
    throw new CheckFileError(
      'LOG_REFUSED',
      `The file is a refusal from the server, not a log: ${denied.data.error.code}: ${denied.data.error.message}`,
    );
  if (typeof raw === 'object' && raw !== null && 'format' in raw) {
    const file = exportFile.safeParse(raw);
    if (!file.success)
      throw new CheckFileError('MALFORMED_LOG', `The file says it is an encounter export but is malformed: ${z.prettifyError(file.error)}`);
    const commitment = file.data.initial.state.dice?.commitment;
    return { log: file.data.log, ...(commitment ? { commitment } : {}) };
  }
  return { log: z.union([z.looseObject({ entries: z.array(entry) }), z.array(z.unknown())]).parse(raw) };
}

/** The `dice.revealed` event of a log, if it has one. */
function revealIn(log: DiceLog): z.infer<typeof revealed> | undefined {
  const wrapped = z.looseObject({ entries: z.array(z.unknown()) }).safeParse(log);
  const list = wrapped.success ? wrapped.data.entries : z.array(z.unknown()).catch([]).parse(log);
  for (const item of list) {
    const events = entry.safeParse(item);
    for (const e of events.success ? events.data.events : [item]) {
      const r = revealed.safeParse(e);
      if (r.success) return r.data;
    }
  }
  return undefined;
}

/** verifyDice, its errors as a `CheckFileError` (but `ignore`, which yields null). */
function verify(log: DiceLog, reveal: DiceReveal, ignore: DiceVerifyError['code']): DiceReport | null;
function verify(log: DiceLog, reveal: DiceReveal): DiceReport;
function verify(log: DiceLog, reveal: DiceReveal, ignore?: DiceVerifyError['code']): DiceReport | null {
  try {
    return verifyDice(log, reveal);
  } catch (e) {
    if (e instanceof DiceVerifyError && e.code === ignore) return null;
    if (e instanceof DiceVerifyError) throw new CheckFileError(e.code, e.message);
    throw e;
  }
}

/** Parses and checks a log file's text; throws a `CheckFileError` when it cannot be checked at all. */
export function checkLogText(text: string, options: CheckOptions = {}): CheckResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CheckFileError('NOT_JSON', `The file is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  let parsed: ReturnType<typeof logOf>;
  try {
    parsed = logOf(raw);
  } catch (e) {
    if (e instanceof z.ZodError)
      throw new CheckFileError(
        'MALFORMED_LOG',
        'The file is not a Fray log: neither a socket log answer, GET /encounters/:id/log, an encounter export, nor a list of entries.',
      );
    throw e;
  }
  const inLog = revealIn(parsed.log);
  const seed = options.seed ?? inLog?.seed;
  const salt = options.salt ?? inLog?.salt;
  if (seed === undefined || salt === undefined) {
    // a malformed log says so first (the verifier reads the log before the reveal)
    verify(parsed.log, { seed: '', salt: '' }, 'BAD_REVEAL');
    throw new CheckFileError(
      'NOT_REVEALED',
      'The log has no reveal of the dice (dice.revealed) and no --seed and --salt were given: the dice can be checked once combat has ended.',
    );
  }
  const commitment = options.commitment ?? parsed.commitment ?? inLog?.commitment;
  const commitmentFrom = options.commitment ? 'given' : parsed.commitment ? 'export' : 'log';
  const report = verify(parsed.log, { seed, salt, ...(commitment ? { commitment } : {}) });
  const lines = [...report.rolls.map(rollLine), diceSummary(report)];
  return { report, lines, commitmentFrom };
}
