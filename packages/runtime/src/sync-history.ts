import { apply, viewKeyOf, viewerOfKey, type EncounterState, type EngineEvent, type Ruleset, type Viewer } from '@fray/engine';
import type { Deadlines, PatchMessage } from '@fray/protocol';
import { diff } from './diff.js';
import { MAX_SYNC_HISTORY, type Channel, type RecentLog } from './host-types.js';
import type { Logger } from './store.js';
import { projectEventsFor } from './viewers.js';

/** The viewer whose view `viewer` shares in `state` (the engine's view keys), as the broadcast projects for it. */
export function viewAs(state: EncounterState, viewer: Viewer): Viewer {
  return viewerOfKey(viewKeyOf(state, viewer), viewer);
}

/** What the recent log needs of its encounter. */
interface HistoryHost {
  readonly id: string;
  readonly ruleset: Ruleset;
  readonly state: EncounterState;
  readonly logger: Logger;
  projectFor(state: EncounterState, viewer: Viewer): EncounterState;
  seenFrom(state: EncounterState): EncounterState;
}

/**
 * The recent log that `sync` replays: kept states (`checkpoints`, oldest first, each a version of
 * the encounter's own state, sharing every unchanged part with the next) and the accepted commands
 * after the oldest one.
 */
export class SyncHistory {
  private recent: RecentLog;

  constructor(
    private readonly host: HistoryHost,
    state: EncounterState,
    private readonly syncHistory: number,
  ) {
    this.recent = { checkpoints: [state], commands: [] };
  }

  /** Forget every command: the live state is the one checkpoint. */
  reset(state: EncounterState): void {
    this.recent = { checkpoints: [state], commands: [] };
  }

  /**
   * Keep an accepted command for `sync`: every ceil(syncHistory / 2) versions the state is kept
   * as a checkpoint, and the checkpoints (with their commands) older than the newest one at or
   * before `version - syncHistory` are let go, so that the last syncHistory to 1.5 × syncHistory
   * versions can be replayed. Nothing is kept while nobody watches (a viewer who joins gets a
   * snapshot, and syncs only from then on).
   */
  record(command: Record<string, unknown>, state: EncounterState, watched: boolean): void {
    const keep = Math.min(MAX_SYNC_HISTORY, this.syncHistory);
    const r = this.recent;
    if (keep <= 0 || !watched) {
      r.checkpoints.length = 0;
      r.checkpoints.push(state);
      r.commands.length = 0;
      return;
    }
    r.commands.push(command);
    if (state.version - r.checkpoints[r.checkpoints.length - 1]!.version < Math.ceil(keep / 2)) return;
    r.checkpoints.push(state);
    while (r.checkpoints.length > 1 && r.checkpoints[1]!.version <= state.version - keep) {
      r.commands.splice(0, r.checkpoints[1]!.version - r.checkpoints[0]!.version);
      r.checkpoints.shift();
    }
  }

  /**
   * The patches from `since` to now for a channel's viewer, as the broadcast made them: the
   * engine is deterministic, so the kept state at or before `since`, with the logged commands
   * after it applied again, goes through the same states; each is projected and diffed as the
   * broadcast does, and each command's events are projected from that state. Only the deadlines
   * are today's (every message carries the current ones; the broadcast sent those of the time).
   *
   * Null when `since` is older than the oldest kept state, or when the replay does not end at
   * the live state (it always should: then it is logged as an error and the viewer gets a snapshot
   * rather than a patch that could be wrong).
   *
   * This is instead of keeping every sent patch for every view (about 23 objects each, two or three
   * views per command, all living long enough to reach V8's old generation): a few commands and
   * the states they were applied to are all that stays (docs/journal/performance-2026-11.md, "Session 11").
   */
  replay(ch: Channel, since: number, deadlines: Deadlines): PatchMessage[] | null {
    const { checkpoints, commands } = this.recent;
    const oldest = checkpoints[0]!.version;
    if (since < oldest) return null;
    let c = checkpoints.length - 1;
    while (checkpoints[c]!.version > since) c -= 1;
    let state = checkpoints[c]!;
    let next = state.version - oldest;
    const step = (): { state: EncounterState; events: EngineEvent[] } | null => {
      const command = commands[next];
      if (!command) return null;
      next += 1;
      const r = apply(this.host.ruleset, state, command);
      return r.ok ? { state: r.state, events: r.events } : null;
    };
    while (state.version < since) {
      const r = step();
      if (!r) return this.failed(since, state.version);
      state = r.state;
    }
    let projection = this.host.projectFor(state, viewAs(state, ch.viewer));
    const out: PatchMessage[] = [];
    while (state.version < this.host.state.version) {
      const r = step();
      if (!r) return this.failed(since, state.version);
      const viewer = viewAs(r.state, ch.viewer);
      const after = this.host.projectFor(r.state, viewer);
      out.push({
        encounterId: this.host.id,
        from: state.version,
        to: r.state.version,
        ops: diff(projection, after),
        events: projectEventsFor(r.events, viewer, this.host.seenFrom(r.state), after),
        deadlines,
      });
      state = r.state;
      projection = after;
    }
    if (diff(state, this.host.state).length > 0) return this.failed(since, state.version);
    return out;
  }

  private failed(since: number, at: number): null {
    this.host.logger.error(
      { since, at, version: this.host.state.version },
      'replaying the recent log for sync did not reach the live state; sending a snapshot',
    );
    return null;
  }
}
