import type { Ruleset } from '@fray/engine';
import type { DeadlinesMessage, PatchMessage } from '@fray/protocol';
import type { Sink } from './host-types.js';
import type { Logger, RuntimeStore } from './store.js';

/** The runtime's options and what it is built from. */
export interface RuntimeOptions {
  /** this process's id, recorded in the encounter leases */
  ownerId: string;
  /** a snapshot every N commands */
  snapshotEvery: number;
  /** an encounter with no viewers and no command for this long is snapshotted and leaves memory */
  idleMs: number;
  /** snapshot an encounter that had no command for this long */
  idleSnapshotMs: number;
  leaseTtlMs: number;
  /** how often leases are renewed and idle encounters swept */
  sweepMs: number;
  /** default seconds before an open reaction window is resolved by the runtime (0 = never) */
  reactionSeconds: number;
  /**
   * how many versions back `sync` answers with patches (0 = always a snapshot). The patches are
   * made again on demand by replaying the recent log (`EncounterHost.sync`), which keeps this many
   * to 1.5 times this many commands and two or three earlier states. A patch averages about 7 %
   * of the state's bytes (the benchmark), so past about 14 missed patches a snapshot is the
   * smaller reply anyway; the default is 16, the most `MAX_SYNC_HISTORY` (1,000).
   */
  syncHistory: number;
  /** the largest group-commit batch */
  maxBatch: number;
  /**
   * periodic snapshots written at once (the rest wait in a queue): a burst of snapshots must not
   * take the database pool's connections, nor the disk, from the log appends that acks wait for
   */
  snapshotsInFlight: number;
  /**
   * group-commit batches written at once: fewer means bigger batches (fewer commits, less CPU in
   * this process and in Postgres) and a longer wait behind the commit in flight
   */
  commitsInFlight: number;
  /** a warn line for each group commit slower than this (ms; 0 = none): for diagnosing latency */
  logSlowCommitMs: number;
  /**
   * encounter loads are batched (loader.ts, when the store can): a batch waits this long (ms) for
   * more ids, takes at most `loadBatchSize` of them, and `loadBatchesInFlight` run at once (the
   * next keeps collecting meanwhile), so a rejoin storm leaves the pool's other connections to
   * the log appends and the sign-ins
   */
  loadBatchMs: number;
  loadBatchSize: number;
  loadBatchesInFlight: number;
}

export const defaultRuntimeOptions: Omit<RuntimeOptions, 'ownerId'> = {
  snapshotEvery: 100,
  idleMs: 5 * 60_000,
  idleSnapshotMs: 10_000,
  leaseTtlMs: 30_000,
  sweepMs: 5_000,
  reactionSeconds: 30,
  syncHistory: 16,
  maxBatch: 128,
  commitsInFlight: 6,
  snapshotsInFlight: 2,
  logSlowCommitMs: 0,
  loadBatchMs: 2,
  loadBatchSize: 250,
  loadBatchesInFlight: 2,
};

export interface RuntimeInit {
  store: RuntimeStore;
  /** the rulesets by id (the registry, or a fixture in tests) */
  rulesets: Record<string, Ruleset>;
  logger?: Logger;
  options?: Partial<RuntimeOptions>;
  /** the clock (tests may move it) */
  now?: () => number;
  /** called when a host goes away while a sink is subscribed */
  onClosed?: (encounterId: string, sink: Sink, reason: string) => void;
  /**
   * Deliver one patch message to several sinks at once (default: call each). Sinks of viewers who
   * share a view get the same message object, so a transport can serialize it once for all of them.
   */
  deliver?: (msg: PatchMessage, sinks: readonly Sink[]) => void;
  /** tell a sink's viewer that the deadlines changed while the state did not (the turn timer) */
  onDeadlines?: (sink: Sink, msg: DeadlinesMessage) => void;
}

/** A refusal a newcomer can act on: the ruleset asked for, and the ones this server has. */
export function unknownRulesetMessage(asked: string, known: string[]): string {
  return `Unknown ruleset "${asked}". Known rulesets: ${known.join(', ')} (GET /rulesets describes each).`;
}
