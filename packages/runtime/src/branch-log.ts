import { projectState, type Viewer } from '@fray/engine';
import type { RewindNote, WireLogEntry } from '@fray/protocol';
import type { EncounterHost } from './host.js';
import { stateAt } from './timeline.js';
import { withHiddenGone } from './unseen.js';
import { projectLogFor } from './viewers.js';

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
  const entries = await store.readLog(host.id, page.afterSeq, page.limit, page.branch);
  const branches = page.branch === undefined || !store.listBranches ? [] : await store.listBranches(host.id);
  const left = branches.find((b) => b.branch === page.branch && !b.live);
  if (!left) return host.projectLog(entries, viewer);
  const at = await stateAt(store, host.ruleset, host.id, left.lastVersion, left.branch);
  if ('error' in at) throw new Error(at.error.message);
  const seen = withHiddenGone(at.state, at.hiddenGone);
  return projectLogFor(
    entries,
    viewer,
    viewer.role === 'gm' ? at.state : seen,
    viewer.role === 'gm' ? at.state : projectState(host.ruleset, seen, viewer),
  );
}

/** How many entries a rewind note shows of what it undid, and for how many of the newest rewinds (each reads its branch again). */
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
  const all = await store.listBranches(host.id);
  const byId = new Map(all.map((b) => [b.branch, b]));
  const onPath = [];
  let upTo = Number.MAX_SAFE_INTEGER;
  for (let b = byId.get(branch ?? all.at(-1)?.branch ?? 0); b && b.parent !== null; b = byId.get(b.parent)) {
    if (b.baseVersion <= upTo) onPath.unshift({ ...b, parent: b.parent });
    upTo = Math.min(upTo, b.baseVersion);
  }
  return Promise.all(
    onPath.map(async (b, i) => {
      const fromVersion = b.fromVersion ?? b.baseVersion;
      const shown = i >= onPath.length - NOTES_WITH_UNDONE ? Math.min(UNDONE_SHOWN, fromVersion - b.baseVersion) : 0;
      const undone = shown > 0 ? await readLogFor(host, viewer, { afterSeq: b.baseVersion, limit: shown, branch: b.parent }) : [];
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
