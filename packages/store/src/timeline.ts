/**
 * The GM's timeline in the log (docs/timeline.md): branches. Branch 0 is the encounter as first
 * played; a rewind to version v starts branch k = newest + 1, whose first row is the rewind itself
 * at seq v (command `timeline.rewind`, event `timeline.rewound { fromBranch, fromVersion,
 * toVersion, branch }`). A branch's log is the path: the branch it left up to v, then its own rows
 * after v. Nothing is ever deleted: every branch stays readable.
 */

/** One branch of an encounter's log: where it came from (null for branch 0) and how far it went. */
export interface BranchRecord {
  branch: number;
  /** the branch it left, and that branch's version then (null for branch 0) */
  parent: number | null;
  fromVersion: number | null;
  /** the version it started from (0 for branch 0) */
  baseVersion: number;
  /** its newest version (its own rows, else its base) */
  lastVersion: number;
  /** the rewind that started it (null for branch 0) */
  commandId: string | null;
  command: unknown;
  createdAt: Date | null;
  live: boolean;
}

/** A stretch of one branch's own rows that belongs to a path: seq in (after, upTo]. */
export interface PathSegment {
  branch: number;
  after: number;
  upTo: number;
}

export interface TimelineQuery {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A column of a row (pg's rows and the json in them are untyped). */
function col(row: unknown, key: string): unknown {
  return typeof row === 'object' && row !== null ? Reflect.get(row, key) : undefined;
}
const int = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

function fromBranchOf(events: unknown): { fromBranch: number; fromVersion: number } {
  const e: unknown = Array.isArray(events) ? events[0] : null;
  return { fromBranch: int(col(e, 'fromBranch')), fromVersion: int(col(e, 'fromVersion')) };
}

/** Every branch of an encounter, oldest first: one indexed read of each branch's first and last rows. */
export async function listBranches(db: TimelineQuery, encounterId: string): Promise<BranchRecord[]> {
  const { rows } = await db.query(
    `SELECT c.branch, c.seq, c.command_id, c.command, c.events, c.created_at,
            (SELECT max(l.seq) FROM command_log l WHERE l.encounter_id = $1 AND l.branch = c.branch) AS last
       FROM command_log c
      WHERE c.encounter_id = $1 AND c.branch > 0
        AND c.seq = (SELECT min(m.seq) FROM command_log m WHERE m.encounter_id = $1 AND m.branch = c.branch)
      ORDER BY c.branch`,
    [encounterId],
  );
  const { rows: zero } = await db.query('SELECT max(seq) AS last FROM command_log WHERE encounter_id = $1 AND branch = 0', [encounterId]);
  const out: BranchRecord[] = [
    {
      branch: 0,
      parent: null,
      fromVersion: null,
      baseVersion: 0,
      lastVersion: int(col(zero[0], 'last')),
      commandId: null,
      command: null,
      createdAt: null,
      live: false,
    },
  ];
  for (const m of rows) {
    const { fromBranch, fromVersion } = fromBranchOf(col(m, 'events'));
    const at = { baseVersion: int(col(m, 'seq')), lastVersion: int(col(m, 'last')), createdAt: date(col(m, 'created_at')) };
    out.push({
      branch: int(col(m, 'branch')),
      parent: fromBranch,
      fromVersion,
      ...at,
      commandId: String(col(m, 'command_id')),
      command: col(m, 'command'),
      live: false,
    });
  }
  out[out.length - 1]!.live = true;
  return out;
}

/** The rows a branch's log is made of (see the module comment), oldest first; null for a branch that does not exist. */
export function pathOf(branches: BranchRecord[], branch: number): PathSegment[] | null {
  const byId = new Map(branches.map((b) => [b.branch, b]));
  let b = byId.get(branch);
  if (!b) return null;
  const out: PathSegment[] = [];
  let upTo = Number.MAX_SAFE_INTEGER;
  for (;;) {
    out.unshift({ branch: b.branch, after: b.baseVersion, upTo });
    if (b.parent === null) break;
    upTo = Math.min(upTo, b.baseVersion);
    b = byId.get(b.parent);
    if (!b) break;
  }
  // a branch's own rows start after its base; branch 0's from 0
  return out;
}

/** The SQL condition for a path's rows (parameters from `$first`), and its parameters. */
export function pathCondition(path: PathSegment[], first: number): { sql: string; values: number[] } {
  const parts: string[] = [];
  const values: number[] = [];
  for (const s of path) {
    const i = first + values.length;
    parts.push(`(branch = $${i} AND seq > $${i + 1} AND seq <= $${i + 2})`);
    values.push(s.branch, s.after, Math.min(s.upTo, 2147483647));
  }
  return { sql: `(${parts.join(' OR ')})`, values };
}

/** A branch's log (default: the live branch) after `afterSeq`, oldest first; empty for a branch that does not exist. */
export async function readBranchLog(db: TimelineQuery, encounterId: string, afterSeq: number, limit?: number, branch?: number) {
  const branches = await listBranches(db, encounterId);
  const path = pathOf(branches, branch ?? branches[branches.length - 1]!.branch);
  if (!path) return [];
  const cond = pathCondition(path, 3);
  const { rows } = await db.query(
    `SELECT branch, seq, command_id, command, events, created_at FROM command_log
      WHERE encounter_id = $1 AND seq > $2 AND ${cond.sql}
      ORDER BY seq${limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(limit))}` : ''}`,
    [encounterId, afterSeq, ...cond.values],
  );
  return rows.map((r) => {
    const branch = int(col(r, 'branch'));
    const events = col(r, 'events');
    return {
      encounterId,
      seq: int(col(r, 'seq')),
      ...(branch ? { branch } : {}),
      commandId: String(col(r, 'command_id')),
      command: col(r, 'command'),
      events: Array.isArray(events) ? events : [],
      createdAt: date(col(r, 'created_at')),
    };
  });
}
