import { projectState, type Viewer } from '@fray/engine';
import type { WireLogEntry } from '@fray/protocol';
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
export async function readLogFor(host: EncounterHost, viewer: Viewer, page: { afterSeq: number; limit: number; branch?: number }): Promise<WireLogEntry[]> {
  const store = host.runtime.store;
  const entries = await store.readLog(host.id, page.afterSeq, page.limit, page.branch);
  const branches = page.branch === undefined || !store.listBranches ? [] : await store.listBranches(host.id);
  const left = branches.find((b) => b.branch === page.branch && !b.live);
  if (!left) return host.projectLog(entries, viewer);
  const at = await stateAt(store, host.ruleset, host.id, left.lastVersion, left.branch);
  if ('error' in at) throw new Error(at.error.message);
  const seen = withHiddenGone(at.state, at.hiddenGone);
  return projectLogFor(entries, viewer, viewer.role === 'gm' ? at.state : seen, viewer.role === 'gm' ? at.state : projectState(host.ruleset, seen, viewer));
}
