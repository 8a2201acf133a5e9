import { viewerOfKey, type EncounterState, type EngineEvent, type Viewer } from '@fray/engine';
import type { Deadlines, PatchMessage } from '@fray/protocol';
import { diff } from './diff.js';
import type { Channel, Sink } from './host-types.js';
import { projectEventsFor } from './viewers.js';

/** What the patches need of their encounter (host.ts). */
export interface BroadcastHost {
  readonly id: string;
  readonly state: EncounterState;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly timers: { forView(projection: EncounterState): Deadlines };
  readonly runtime: { readonly deliver: (msg: PatchMessage, sinks: readonly Sink[]) => void };
  view(viewer: Viewer): { key: string; projection: EncounterState };
  seenFrom(state: EncounterState): EncounterState;
}

/**
 * One patch per channel after a command. Channels whose viewers share a view and were at the same
 * projection get the same message (projected, diffed and event-filtered once). The diff skips every
 * subtree the new projection shares with the old one, so it costs what changed.
 */
export function broadcast(h: BroadcastHost, events: EngineEvent[]): void {
  const from = h.state.version - 1;
  const to = h.state.version;
  // the messages made, one per view (and per earlier projection): a list, searched in place, as
  // an encounter has a few views (the GM's, the public one, a player's own)
  const made: Array<{
    key: string;
    before: EncounterState;
    msg: PatchMessage;
    narrowed: boolean;
    projection: EncounterState;
    sinks: Sink[];
  }> = [];
  for (const ch of h.channels.values()) {
    const { key, projection } = h.view(ch.viewer);
    let m: (typeof made)[number] | undefined;
    for (let i = made.length - 1; i >= 0; i--) {
      if (made[i]!.key === key) {
        m = made[i];
        break;
      }
    }
    if (!m || m.before !== ch.projection) {
      const ops = diff(ch.projection, projection);
      const narrowed = ops.some((o) => o.op === 'remove');
      const before = ch.projection;
      ch.projection = projection; // the deadlines below read the new projection
      m = {
        key,
        before,
        projection,
        narrowed,
        sinks: [],
        msg: {
          encounterId: h.id,
          from,
          to,
          ops,
          events: projectEventsFor(events, viewerOfKey(key, ch.viewer), h.seenFrom(h.state), projection),
          deadlines: h.timers.forView(ch.projection),
        },
      };
      made.push(m);
    }
    ch.projection = m.projection;
    if (m.narrowed) ch.narrowedAt = to;
    for (const s of ch.sinks) m.sinks.push(s);
  }
  for (const m of made) if (m.sinks.length > 0) h.runtime.deliver(m.msg, m.sinks);
}

/**
 * The patch of a rewind (docs/timeline.md): every viewer's whole view replaced at once, on the new
 * branch. A sync from any version the left branch had (up to `from`) gets a snapshot (`narrowedAt`):
 * the same version number on the new branch is another state.
 */
export function broadcastRewind(h: BroadcastHost, from: number, branch: number, events: EngineEvent[]): void {
  for (const ch of h.channels.values()) {
    const { key, projection } = h.view(ch.viewer);
    ch.projection = projection;
    ch.narrowedAt = from + 1;
    const seen = projectEventsFor(events, viewerOfKey(key, ch.viewer), h.seenFrom(h.state), projection);
    const msg: PatchMessage = {
      encounterId: h.id,
      from,
      to: h.state.version,
      branch,
      ops: [{ op: 'replace', path: '', value: projection }],
      events: seen,
      deadlines: h.timers.forView(projection),
    };
    if (ch.sinks.size > 0) h.runtime.deliver(msg, [...ch.sinks]);
  }
}
