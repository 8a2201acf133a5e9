import {
  DuplicateCommandIdError,
  DuplicateSeqError,
  SeqGapError,
  StaleBranchError,
  StaleOwnerError,
  StoreUnavailableError,
} from './types.js';

/**
 * Turns what Prisma, the pg adapter and pg throw into the store's typed errors. Database errors
 * travel as PrismaClientKnownRequestError (raw queries: P2010) whose message and meta carry the
 * Postgres SQLSTATE and message; connection failures as P1001/P1017, DriverAdapterError kinds, or
 * plain socket errors.
 */

function collect(error: unknown, out: string[], seen: Set<unknown>, depth: number): void {
  if (error === null || error === undefined || depth > 6 || seen.has(error)) return;
  if (typeof error === 'string' || typeof error === 'number') {
    out.push(String(error));
    return;
  }
  if (typeof error !== 'object') return;
  seen.add(error);
  const e = error;
  const field = (key: string): unknown => Reflect.get(e, key);
  for (const key of ['name', 'message', 'code', 'kind', 'originalCode', 'originalMessage', 'errorCode', 'constraint']) {
    const v = field(key);
    if (typeof v === 'string' || typeof v === 'number') out.push(`${key}=${String(v)}`);
  }
  const meta = field('meta');
  const fields = field('fields');
  const constraint = field('constraint');
  collect(field('cause'), out, seen, depth + 1);
  collect(meta, out, seen, depth + 1);
  if (meta && typeof meta === 'object') {
    for (const v of Object.values(meta)) collect(v, out, seen, depth + 1);
  }
  if (Array.isArray(fields)) for (const f of fields) collect(f, out, seen, depth + 1);
  if (constraint && typeof constraint === 'object') collect(JSON.stringify(constraint), out, seen, depth + 1);
}

export function describeError(error: unknown): string {
  const parts: string[] = [];
  collect(error, parts, new Set(), 0);
  return parts.join(' | ');
}

const UNAVAILABLE = new RegExp(
  [
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EPIPE',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENOTFOUND',
    'EAI_AGAIN',
    'Connection terminated',
    'connection timeout',
    'timeout exceeded when trying to connect',
    'Query read timeout',
    'Connection ended',
    'Client has encountered a connection error',
    'server closed the connection',
    "Can't reach database server",
    'DatabaseNotReachable',
    'ConnectionClosed',
    'SocketTimeout',
    'TooManyConnections',
    'Too many connections',
    'the database system is (starting up|shutting down|in recovery mode)',
    'terminating connection due to administrator command',
    'code=P1001',
    'code=P1002',
    'code=P1017',
    'code=57P01',
    'code=57P03',
    'code=08',
  ].join('|'),
);

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  if (name === 'PrismaClientInitializationError') return true;
  return UNAVAILABLE.test(describeError(error));
}

/** Map an error from a store operation to the store's typed errors (or return it unchanged). */
export function mapError(error: unknown, what: string): unknown {
  if (
    error instanceof StaleOwnerError ||
    error instanceof DuplicateSeqError ||
    error instanceof SeqGapError ||
    error instanceof StaleBranchError ||
    error instanceof StoreUnavailableError
  ) {
    return error;
  }
  const text = describeError(error);
  const fray = /fray: ([^|`\n]*)/.exec(text);
  if (/FY001/.test(text) || (fray && /fencing token/.test(fray[1] ?? ''))) {
    return new StaleOwnerError(`Stale owner: ${fray?.[1]?.trim() ?? 'fencing token refused'}.`);
  }
  if (/FY002/.test(text) || (fray && /already exists/.test(fray[1] ?? ''))) {
    return new DuplicateSeqError(`Duplicate seq: ${fray?.[1]?.trim() ?? 'seq taken'}.`);
  }
  if (/FY004/.test(text) || (fray && /live branch/.test(fray[1] ?? ''))) {
    return new StaleBranchError(`Stale branch: ${fray?.[1]?.trim() ?? 'not the live branch'}.`);
  }
  if (/FY003/.test(text) || (fray && /gap/.test(fray[1] ?? ''))) {
    return new SeqGapError(`Seq gap: ${fray?.[1]?.trim() ?? 'entries do not continue the log'}.`);
  }
  if (
    /command_log_encounter_command_key|\(encounter_id, command_id\)|\bcommand_id\b.*unique|encounterId.*commandId/.test(text) &&
    /23505|P2002|unique|Unique/.test(text)
  ) {
    return new DuplicateCommandIdError();
  }
  if (/command_log_encounter_seq_key|command_log_pkey/.test(text) && /23505|P2002|unique|Unique|duplicate/.test(text)) {
    return new DuplicateSeqError();
  }
  if (isUnavailable(error)) {
    return new StoreUnavailableError(`The database is unavailable (${what}).`, { cause: error });
  }
  return error;
}
