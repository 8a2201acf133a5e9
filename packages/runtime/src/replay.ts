/**
 * Replay (docs/timeline.md, "Replay"): a saved encounter watched version by version, as one viewer
 * saw it live. Each version's view is what the host projected for that viewer then (the same
 * `projectState` through the same view key, from the state with the combatants removed while
 * hidden); each step's events are the ones its patch carried, and its ops the diff from the view
 * before. A page holds the view at its first version and the steps after it, so a caller never
 * keeps more than one page of steps, whatever the log's length.
 */
import { gmView, projectState, rebuild, type EncounterState, type Ruleset, type Viewer } from '@fray/engine';
import type { PatchOp, WireError, WireLogEntry } from '@fray/protocol';
import { diff } from './diff.js';
import { eventsOf, unwrapSnapshot } from './snapshots.js';
import type { LogEntryLike, RuntimeStore } from './store.js';
import { viewAs } from './sync-history.js';
import { noteHiddenRemovals, withHiddenGone, type HiddenGone } from './unseen.js';
import { projectEventsFor, projectLogFor } from './viewers.js';

/** The most steps one page holds. */
export const REPLAY_PAGE_MAX = 200;
const READ_CHUNK = 500;

/** One version of a replay: its log entry as the viewer saw it, and the patch from the view before. */
export type ReplayStep = WireLogEntry & { ops: PatchOp[] };

export interface ReplayPage {
  branch: number;
  /** the encounter's first version (its first snapshot) and the branch's last */
  firstVersion: number;
  lastVersion: number;
  /** the viewer's view at `from`, then the steps from+1 … to */
  from: number;
  to: number;
  state: EncounterState;
  steps: ReplayStep[];
}

export interface ReplayRequest {
  viewer: Viewer;
  /** default: the live branch */
  branch?: number;
  /** default: the first version */
  from?: number;
  /** at most REPLAY_PAGE_MAX */
  limit: number;
}

type Walk = { state: EncounterState; gone: HiddenGone };

function viewOf(ruleset: Ruleset, w: Walk, viewer: Viewer): { as: Viewer; seen: EncounterState; view: EncounterState } {
  if (viewer.role === 'gm') return { as: viewer, seen: w.state, view: gmView(w.state) };
  const as = viewAs(w.state, viewer);
  const seen = withHiddenGone(w.state, w.gone);
  return { as, seen, view: projectState(ruleset, seen, as) };
}

/** The entry's step as the viewer got it live (the events its patch carried, its own command for a player), and the view after it. */
function stepOf(
  ruleset: Ruleset,
  e: LogEntryLike,
  before: EncounterState,
  w: Walk,
  viewer: Viewer,
): { step: ReplayStep; view: EncounterState } {
  const { as, seen, view } = viewOf(ruleset, w, viewer);
  const logged = projectLogFor([e], viewer, seen, view)[0]!;
  const events = viewer.role === 'gm' ? logged.events : projectEventsFor(eventsOf(e), as, seen, view);
  return { step: { ...logged, events, ops: diff(before, view) }, view };
}

function unknownVersion(message: string): { error: WireError } {
  return { error: { code: 'UNKNOWN_VERSION', rule: 'timeline.replay', message } };
}

/** Where a replay runs: its first snapshot, the branch and its last version; or why not. */
async function bounds(
  store: RuntimeStore,
  encounterId: string,
  branch: number | undefined,
): Promise<{ start: ReturnType<typeof unwrapSnapshot>; branch: number; last: number } | { error: WireError }> {
  const first = store.firstSnapshot ? await store.firstSnapshot(encounterId) : null;
  if (!first || !store.listBranches) return { error: { code: 'NOT_FOUND', message: `No encounter "${encounterId}" to replay.` } };
  const branches = await store.listBranches(encounterId);
  const b = branch === undefined ? branches.find((x) => x.live) : branches.find((x) => x.branch === branch);
  if (!b)
    return {
      error: { code: 'UNKNOWN_BRANCH', message: `The encounter has no branch ${branch}; GET /encounters/:id/branches lists them.` },
    };
  return { start: unwrapSnapshot(first.state), branch: b.branch, last: b.lastVersion };
}

/**
 * A page of an encounter's replay for one viewer: rebuilt from the first snapshot through the
 * branch's log (read in chunks), projected as the host projected it live. Errors: NOT_FOUND,
 * UNKNOWN_BRANCH, UNKNOWN_VERSION (a `from` the branch never had).
 */
export async function replayPage(
  store: RuntimeStore,
  ruleset: Ruleset,
  encounterId: string,
  req: ReplayRequest,
): Promise<ReplayPage | { error: WireError }> {
  const b = await bounds(store, encounterId, req.branch);
  if ('error' in b) return b;
  const firstVersion = b.start.state.version;
  const last = Math.max(b.last, firstVersion);
  const from = req.from ?? firstVersion;
  if (from < firstVersion || from > last)
    return unknownVersion(`There is no version ${from} to replay from: this branch runs from version ${firstVersion} to ${last}.`);
  const to = Math.min(last, from + Math.max(0, Math.min(req.limit, REPLAY_PAGE_MAX)));
  const w: Walk = { state: b.start.state, gone: b.start.hiddenGone };
  let first = from === firstVersion ? viewOf(ruleset, w, req.viewer).view : null;
  let view = first;
  const steps: ReplayStep[] = [];
  let after = firstVersion;
  while (w.state.version < to) {
    const chunk = await store.readLog(encounterId, after, READ_CHUNK, b.branch);
    if (chunk.length === 0) throw new Error(`The log of ${encounterId} ends at ${w.state.version}, before ${to}.`);
    for (const e of chunk) {
      if (e.seq > to) break;
      if (e.seq !== w.state.version + 1) throw new Error(`Log gap at ${w.state.version + 1} (found ${e.seq}).`);
      noteHiddenRemovals(w.gone, w.state, e.events);
      w.state = rebuild(ruleset, w.state, [eventsOf(e)]);
      if (w.state.version === from) first = view = viewOf(ruleset, w, req.viewer).view;
      else if (view) {
        const s = stepOf(ruleset, e, view, w, req.viewer);
        steps.push(s.step);
        view = s.view;
      }
    }
    after = chunk[chunk.length - 1]!.seq;
  }
  return { branch: b.branch, firstVersion, lastVersion: last, from, to, state: first!, steps };
}
