import type { BranchLike, LogEntryLike } from './store.js';

/** The branches of an in-memory log (the same model as `@fray/store`'s timeline.ts), oldest first. */
export function branchesOf(log: LogEntryLike[]): BranchLike[] {
  const own = new Map<number, LogEntryLike[]>();
  for (const e of log) {
    const b = e.branch ?? 0;
    own.set(b, [...(own.get(b) ?? []), e]);
  }
  const last = (b: number) => Math.max(0, ...(own.get(b) ?? []).map((e) => e.seq));
  const out: BranchLike[] = [
    {
      branch: 0,
      parent: null,
      fromVersion: null,
      baseVersion: 0,
      lastVersion: last(0),
      commandId: null,
      command: null,
      createdAt: null,
      live: false,
    },
  ];
  for (const b of [...own.keys()].filter((k) => k > 0).sort((x, y) => x - y)) {
    const marker = own.get(b)!.reduce((m, e) => (e.seq < m.seq ? e : m));
    const ev: unknown = marker.events[0];
    out.push({
      branch: b,
      parent: numberIn(ev, 'fromBranch'),
      fromVersion: numberIn(ev, 'fromVersion'),
      baseVersion: marker.seq,
      lastVersion: last(b),
      commandId: marker.commandId,
      command: marker.command,
      createdAt: marker.createdAt ?? null,
      live: false,
    });
  }
  out[out.length - 1]!.live = true;
  return out;
}

/** A branch's log (default: the live one): the path of branches it came from, oldest first. */
export function branchLog(log: LogEntryLike[], branch?: number): LogEntryLike[] {
  const branches = branchesOf(log);
  const byId = new Map(branches.map((b) => [b.branch, b]));
  let b = byId.get(branch ?? branches[branches.length - 1]!.branch);
  const out: LogEntryLike[] = [];
  let upTo = Number.MAX_SAFE_INTEGER;
  while (b) {
    const { branch: id, baseVersion } = b;
    out.unshift(...log.filter((e) => (e.branch ?? 0) === id && e.seq > baseVersion && e.seq <= upTo).sort((x, y) => x.seq - y.seq));
    upTo = Math.min(upTo, baseVersion);
    b = b.parent === null ? undefined : byId.get(b.parent);
  }
  return out;
}

function numberIn(x: unknown, key: string): number {
  const v: unknown = typeof x === 'object' && x !== null ? Reflect.get(x, key) : undefined;
  return typeof v === 'number' ? v : 0;
}
