import { projectState, type Viewer } from '@fray/engine';
import type { RewindNote, WireLogEntry } from '@fray/protocol';
import type { EncounterHost } from './host.js';
import type { BranchLike } from './store.js';
import { stateAt } from './timeline.js';
import { withHiddenGone } from './unseen.js';
import { projectLogFor } from './viewers.js';

/**
 * The last state of each branch a rewind left, per host (the newest few): such a branch never
 * changes (the log refuses an entry on it), and rebuilding it replays the log from the first
 * snapshot, so every viewer's read after a rewind shares one rebuild.
 */
const leftStates = new WeakMap<EncounterHost, Map<number, ReturnType<typeof stateAt>>>();
const LEFT_STATES_KEPT = 4;

function leftStateOf(host: EncounterHost, left: BranchLike): ReturnType<typeof stateAt> {
  let kept = leftStates.get(host);
  if (!kept) leftStates.set(host, (kept = new Map()));
  let at = kept.get(left.branch);
  if (!at) {
    at = stateAt(host.runtime.store, host.ruleset, host.id, left.lastVersion, left.branch);
    const forget = () => kept.delete(left.branch);
    at.then((r) => 'error' in r && forget(), forget);
  }
  kept.delete(left.branch);
  kept.set(left.branch, at);
  for (const oldest of kept.keys()) if (kept.size > LEFT_STATES_KEPT) kept.delete(oldest);
  return at;
}

/** A page of a left branch, projected against that branch's own last state. */
async function readLeft(host: EncounterHost, viewer: Viewer, left: BranchLike, afterSeq: number, limit: number): Promise<WireLogEntry[]> {
  const entries = await host.runtime.store.readLog(host.id, afterSeq, limit, left.branch);
  const at = await leftStateOf(host, left);
  if ('error' in at) throw new Error(at.error.message);
  const seen = withHiddenGone(at.state, at.hiddenGone);
  return projectLogFor(
    entries,
    viewer,
    viewer.role === 'gm' ? at.state : seen,
    viewer.role === 'gm' ? at.state : projectState(host.ruleset, seen, viewer),
  );
}

/**
 * A page of a branch's log as a viewer may see it (docs/timeline.md). The live branch is projected
 * as the host projects its log; a branch a rewind left, against that branch's own last state (rebuilt
 * from the log): the live state may no longer hold a combatant the left branch hid from the viewer,
 * and then nothing would mark it unseen.
 */
export async function readLogFor(
  host: EncounterHost,
  viewer: Viewer,
  page: { afterSeq: number; limit: number; branch?: number },
): Promise<WireLogEntry[]> {
  const store = host.runtime.store;
  const branches = page.branch === undefined || !store.listBranches ? [] : await store.listBranches(host.id);
  const left = branches.find((b) => b.branch === page.branch && !b.live);
  if (left) return readLeft(host, viewer, left, page.afterSeq, page.limit);
  return host.projectLog(await store.readLog(host.id, page.afterSeq, page.limit, page.branch), viewer);
}

/**
 * The rewinds on a branch's path (default the live one), oldest first: each one's branch, the
 * branch it left, the version it left from, and how many of the entries it undid a note shows.
 * A rewind a later one went back past is left out.
 */
export function rewindsOnPath(
  all: BranchLike[],
  branch?: number,
): Array<{ branch: BranchLike & { parent: number }; parent: BranchLike; fromVersion: number; shown: number }> {
  const byId = new Map(all.map((b) => [b.branch, b]));
  const onPath: Array<BranchLike & { parent: number }> = [];
  let upTo = Number.MAX_SAFE_INTEGER;
  for (let b = byId.get(branch ?? all.at(-1)?.branch ?? 0); b && b.parent !== null; b = byId.get(b.parent)) {
    if (b.baseVersion <= upTo) onPath.unshift({ ...b, parent: b.parent });
    upTo = Math.min(upTo, b.baseVersion);
  }
  return onPath.flatMap((b, i) => {
    const parent = byId.get(b.parent);
    if (!parent) return [];
    const fromVersion = b.fromVersion ?? b.baseVersion;
    const shown = i >= onPath.length - NOTES_WITH_UNDONE ? Math.min(UNDONE_SHOWN, fromVersion - b.baseVersion) : 0;
    return [{ branch: b, parent, fromVersion, shown }];
  });
}

/** How many entries a rewind note shows of what it undid, and for how many of the newest rewinds (each reads the branch it left). */
const UNDONE_SHOWN = 3;
const NOTES_WITH_UNDONE = 3;

/**
 * The rewinds on a branch's path, oldest first, each with the first entries it undid as this viewer
 * may see them (read as `readLogFor` reads a left branch: nothing the viewer did not see live). A
 * rewind a later one went back past is left out: none of its branch is on the path any more.
 */
export async function rewindsFor(host: EncounterHost, viewer: Viewer, branch?: number): Promise<RewindNote[]> {
  const store = host.runtime.store;
  if (!store.listBranches) return [];
  const onPath = rewindsOnPath(await store.listBranches(host.id), branch);
  return Promise.all(
    onPath.map(async ({ branch: b, parent, fromVersion, shown }) => {
      const undone = shown > 0 ? await readLeft(host, viewer, parent, b.baseVersion, shown) : [];
      return {
        branch: b.branch,
        fromBranch: b.parent,
        fromVersion,
        toVersion: b.baseVersion,
        at: b.createdAt?.toISOString() ?? null,
        undone,
        undoneCount: fromVersion - b.baseVersion,
      };
    }),
  );
}
