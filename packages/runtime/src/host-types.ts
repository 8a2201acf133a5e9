import type { Actor, EncounterState, EngineEvent, Viewer } from '@fray/engine';
import type { DeadlinesMessage, PatchMessage, WireError } from '@fray/protocol';
import type { LogWriter } from './log-writer.js';
import type { RuntimeStore } from './store.js';
import type { HiddenGone } from './unseen.js';

/** The types a live encounter (host.ts) and its parts (acks.ts, deadline-timers.ts) share. */
export type Sink = (msg: PatchMessage) => void;

export interface Channel {
  viewer: Viewer;
  key: string;
  projection: EncounterState;
  /** the last version whose patch took something out of this view (hid, removed, made secret) */
  narrowedAt: number;
  sinks: Set<Sink>;
}

export type StoredResult = { ok: true; version: number; events: EngineEvent[] } | { ok: false; error: WireError };
/** An answer that waits for a read of the log, outside the encounter's queue (see `refuse`). */
export type Later = { later: Promise<StoredResult> };
/**
 * What the idempotency cache keeps: an accepted command's version (a number: nothing on the heap
 * for the 256 ids each encounter remembers; its events are in the log), or the refusal.
 */
export type Remembered = number | { ok: false; error: WireError; sender: string };

/**
 * The recent log that `sync` replays: kept states (`checkpoints`, oldest first, each a version of
 * the encounter's own state, sharing every unchanged part with the next) and the accepted commands
 * after the oldest one (`commands[i]` made version `checkpoints[0].version + 1 + i`).
 */
export interface RecentLog {
  checkpoints: EncounterState[];
  commands: Array<Record<string, unknown>>;
}

export interface SubmitInput {
  commandId: string;
  expectedVersion?: number;
  /** the timeline branch the sender was on (docs/timeline.md): another one is refused with STALE_BRANCH */
  branch?: number;
  /** the command without `by` */
  command: Record<string, unknown>;
  by: Actor;
}

export class RuntimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RuntimeError';
  }
  toWire(): WireError {
    return { code: this.code, message: this.message };
  }
}

/**
 * The most versions back `sync` answers with patches, whatever `syncHistory` asks: a sync replays
 * up to 1.5 times that many commands on the encounter's event loop (about 10–20 µs each), so this
 * bounds one sync to tens of milliseconds.
 */
export const MAX_SYNC_HISTORY = 1000;

/**
 * What a host needs of the runtime that holds it (the runtime implements it; an interface here
 * so that the host does not import the runtime, which imports the host).
 */
export interface HostRuntime {
  readonly options: { readonly snapshotEvery: number; readonly syncHistory: number; readonly reactionSeconds: number };
  readonly store: RuntimeStore;
  readonly writer: Pick<LogWriter, 'append'>;
  readonly now: () => number;
  readonly metrics: { commands: number };
  readonly deliver: (msg: PatchMessage, sinks: readonly Sink[]) => void;
  readonly onDeadlines: (sink: Sink, msg: DeadlinesMessage) => void;
  onClosed(encounterId: string, sink: Sink, reason: string): void;
  unload(
    encounterId: string,
    reason: string,
    opts?: { release?: boolean; snapshot?: boolean; notifyAfterRelease?: boolean },
  ): Promise<void>;
  queueSnapshot(host: SnapshotTarget): void;
}

/** What the runtime's background snapshot queue needs of a host. */
export interface SnapshotTarget {
  snapshotQueued: boolean;
  readonly closed: boolean;
  snapshot(): Promise<void>;
}

/** What a host's snapshot holds: the state and the runtime's own settings for it. */
export type SnapshotBody = { fraySnapshot: 1; state: EncounterState; runtime: { turnTimerSeconds: number | null; hiddenGone: HiddenGone } };
