import {
  gmView,
  projectState,
  viewKeyOf,
  viewerOfKey,
  type EncounterState,
  type EngineEvent,
  type Ruleset,
  type Viewer,
} from '@fray/engine';
import type { CommandAck, Deadlines, SyncAck, WireError, WireLogEntry } from '@fray/protocol';
import { fnv1a } from './id-filter.js';
import { type LeaseLike, type Logger } from './store.js';
import { broadcast, broadcastRewind } from './broadcast.js';
import { reachOf, type ReachAnswer, type ReachRequest } from './reach.js';
import { legalFor, noteHiddenRemovals, withHiddenGone, type HiddenGone } from './unseen.js';
import { commandGate, projectEventsFor, projectLogFor, viewerKey, type LoggedEntry } from './viewers.js';
import { CommandMemory } from './acks.js';
import { DeadlineTimers } from './deadline-timers.js';
import { SyncHistory } from './sync-history.js';
import { type Channel, type HostRuntime, type SnapshotBody, type Sink, type StoredResult, type SubmitInput } from './host-types.js';
import { processCommand } from './command.js';
import { type RewoundEvent } from './timeline.js';

/**
 * One live encounter in memory: its state, its serialized command queue, its viewers' channels
 * (projections), the recent log its viewers' syncs replay, and its deadlines.
 */
export class EncounterHost {
  state: EncounterState;
  /** the version of the newest saved snapshot */
  snapshotVersion: number;
  /** the next periodic snapshot's version: every `snapshotEvery` commands, the first at the id hash's offset (not all at once) */
  private nextSnapshotAt: number;
  /** the live timeline branch (docs/timeline.md) and the rewind that started it, when this process made it */
  branch: number;
  lastRewind: (RewoundEvent & { commandId: string }) | null = null;
  /** the snapshot being saved (a rewind waits for it before it drops the snapshots after its version) */
  private snapshotting: Promise<void> = Promise.resolve();
  /** waiting in the runtime's background snapshot queue */
  snapshotQueued = false;
  lastActivity: number;
  archived = false;
  closed = false;
  turnTimerSeconds: number | null;
  /** combatants removed while hidden (see `withHiddenGone`): saved with the snapshots */
  private readonly hiddenGone: HiddenGone;
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  readonly channels = new Map<string, Channel>();
  readonly memory: CommandMemory;
  readonly timers: DeadlineTimers;
  private views: { state: EncounterState | null; byKey: Map<string, EncounterState> } = { state: null, byKey: new Map() };
  private readonly history: SyncHistory;

  constructor(
    readonly runtime: HostRuntime,
    readonly ruleset: Ruleset,
    readonly accountId: string,
    state: EncounterState,
    public lease: LeaseLike,
    readonly logger: Logger,
    opts: {
      snapshotVersion: number;
      turnTimerSeconds: number | null;
      hiddenGone?: HiddenGone;
      archived: boolean;
      recentCommands: Array<{ commandId: string; seq: number; events: unknown[] }>;
      branch?: number;
    },
  ) {
    this.state = state;
    this.branch = opts.branch ?? 0;
    this.history = new SyncHistory(this, state, runtime.options.syncHistory);
    this.snapshotVersion = opts.snapshotVersion;
    const every = Math.max(1, runtime.options.snapshotEvery);
    this.nextSnapshotAt = opts.snapshotVersion + every - (fnv1a(state.id) % every);
    this.turnTimerSeconds = opts.turnTimerSeconds;
    this.hiddenGone = opts.hiddenGone ?? {};
    this.archived = opts.archived;
    this.lastActivity = runtime.now();
    this.memory = new CommandMemory(this, runtime, opts.recentCommands.length >= state.version);
    this.timers = new DeadlineTimers(this, runtime);
    for (const r of opts.recentCommands) this.memory.remember(r.commandId, r.seq);
  }

  get id(): string {
    return this.state.id;
  }

  get version(): number {
    return this.state.version;
  }

  get subscriberCount(): number {
    let n = 0;
    for (const c of this.channels.values()) n += c.sinks.size;
    return n;
  }

  get busy(): boolean {
    return this.queued > 0;
  }

  /**
   * The current state as a viewer sees it. Viewers with the same view (see the engine's
   * `viewKeyOf`: the GM; the public view that spectators and most players share; a player who
   * controls something hidden or secret) get the same object, projected once per state.
   */
  view(viewer: Viewer): { key: string; projection: EncounterState } {
    if (this.views.state !== this.state) this.views = { state: this.state, byKey: new Map() };
    const key = viewKeyOf(this.state, viewer);
    let projection = this.views.byKey.get(key);
    if (!projection) {
      projection = this.projectFor(this.state, viewerOfKey(key, viewer));
      this.views.byKey.set(key, projection);
    }
    return { key, projection };
  }

  /** The state as a viewer sees it (the GM: the state itself). */
  projectFor(state: EncounterState, viewer: Viewer): EncounterState {
    return viewer.role === 'gm' ? gmView(state) : projectState(this.ruleset, this.seenFrom(state), viewer);
  }

  /** The state players' views are projected from: with the combatants removed while hidden (`withHiddenGone`). */
  seenFrom(state: EncounterState): EncounterState {
    return withHiddenGone(state, this.hiddenGone);
  }

  private channel(viewer: Viewer): Channel {
    const key = viewerKey(viewer);
    let ch = this.channels.get(key);
    if (!ch) {
      ch = { viewer, key, projection: this.view(viewer).projection, narrowedAt: this.state.version, sinks: new Set() };
      this.channels.set(key, ch);
    }
    return ch;
  }

  /** Start receiving patches; returns the current projected state (consistent with the next patch). */
  subscribe(
    viewer: Viewer,
    sink: Sink,
  ): { version: number; branch: number; state: EncounterState; deadlines: Deadlines; unsubscribe: () => void } {
    const ch = this.channel(viewer);
    ch.sinks.add(sink);
    this.lastActivity = this.runtime.now();
    return {
      version: this.state.version,
      branch: this.branch,
      state: ch.projection,
      deadlines: this.timers.forView(ch.projection),
      unsubscribe: () => {
        ch.sinks.delete(sink);
        this.lastActivity = this.runtime.now();
      },
    };
  }

  /**
   * The patches a viewer missed since `since`, made again by replaying the recent log (see
   * `replayPatches`), or a fresh snapshot when that version is no longer kept.
   */
  sync(viewer: Viewer, since: number): SyncAck {
    const ch = this.channel(viewer);
    const version = this.state.version;
    if (since === version) return { ok: true, kind: 'patches', version, patches: [] };
    // Old patches may carry what the viewer could see then but may not now: a snapshot instead.
    if (since < version && since >= ch.narrowedAt) {
      const patches = this.history.replay(ch, since, this.timers.forView(ch.projection));
      if (patches) return { ok: true, kind: 'patches', version, patches };
    }
    return {
      ok: true,
      kind: 'snapshot',
      version,
      branch: this.branch,
      state: ch.projection,
      deadlines: this.timers.forView(ch.projection),
    };
  }

  deadlinesOf(viewer: Viewer): Deadlines {
    return this.timers.forView(this.channel(viewer).projection);
  }

  projectionFor(viewer: Viewer): EncounterState {
    return this.channel(viewer).projection;
  }

  /** The legal actions of a combatant, for the GM or the player who commands it (see unseen.ts `legalFor`). */
  legal(viewer: Viewer, combatantId: string): { ok: true; version: number; actions: unknown[] } | { ok: false; error: WireError } {
    const projection = this.channel(viewer).projection;
    const gate = commandGate(this.state, projection, viewer, combatantId);
    if (gate) return { ok: false, error: gate };
    return { ok: true, version: this.state.version, actions: legalFor(this.ruleset, this.state, projection, viewer, combatantId) };
  }

  /** Where a combatant can go with a movement option (see reach.ts): GM, or the player who commands it. */
  reach(viewer: Viewer, req: ReachRequest): ReachAnswer {
    const projection = this.channel(viewer).projection;
    const gate = commandGate(this.state, projection, viewer, req.combatantId);
    if (gate) return { ok: false, error: gate };
    return reachOf(this.ruleset, this.state, viewer, new Set(Object.keys(projection.combatants)), req);
  }

  /** Log entries as a viewer may see them (see viewers.ts `projectLogFor`). */
  projectLog(entries: readonly LoggedEntry[], viewer: Viewer): WireLogEntry[] {
    // the state with the combatants removed while hidden: old entries may name them
    return viewer.role === 'gm'
      ? projectLogFor(entries, viewer, this.state, this.state)
      : projectLogFor(entries, viewer, this.seenFrom(this.state), this.channel(viewer).projection);
  }

  /**
   * Let go of what only viewers need once none is left: their channels (projection), the recent
   * log kept for their syncs (a viewer who comes back gets a snapshot) and the projected views.
   * An idle live encounter then holds its state, its deadlines and a few hundred remembered
   * command ids.
   */
  compact(): void {
    for (const [key, ch] of this.channels) if (ch.sinks.size === 0) this.channels.delete(key);
    this.views = { state: null, byKey: new Map() };
    if (this.channels.size === 0) this.history.reset(this.state);
  }

  /** Tell every subscriber that this host is going away. */
  notifyClosed(reason: string): void {
    for (const ch of this.channels.values()) for (const s of ch.sinks) this.runtime.onClosed(this.id, s, reason);
  }

  /** Run `fn` after every command queued before it (the encounter's serialized queue). */
  enqueue<T>(fn: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const run = this.queue.then(fn, fn);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => {
      this.queued -= 1;
      this.lastActivity = this.runtime.now();
    });
  }

  /** Wait until every queued command is done. */
  async drain(): Promise<void> {
    await this.queue;
  }

  /**
   * Validate and apply a command; acknowledge it only after its log entry is committed.
   * `viewer` is whom the ack's events are projected for.
   */
  async submit(input: SubmitInput, viewer: Viewer): Promise<CommandAck> {
    const r = await this.enqueue(() => processCommand(this, input));
    return this.project('later' in r ? await r.later : r, viewer);
  }

  private project(r: StoredResult, viewer: Viewer): CommandAck {
    if (!r.ok) return r;
    return {
      ok: true,
      version: r.version,
      events: projectEventsFor(
        r.events,
        viewer,
        this.seenFrom(this.state),
        viewer.role === 'gm' ? this.state : this.channel(viewer).projection,
      ),
    };
  }

  /** The command's entry is in the log: take the new state, remember the id, tell every viewer. */
  committed(
    commandId: string,
    command: Record<string, unknown>,
    prev: EncounterState,
    next: EncounterState,
    events: EngineEvent[],
  ): StoredResult {
    noteHiddenRemovals(this.hiddenGone, prev, events);
    this.state = next;
    this.history.record(command, next, this.channels.size > 0);
    this.memory.remember(commandId, next.version);
    this.runtime.metrics.commands += 1;
    this.timers.evaluate();
    broadcast(this, events);
    this.afterCommit();
    return { ok: true, version: next.version, events };
  }

  /** Go on from `state` on a new branch (a rewind, rewind.ts): every viewer's view is replaced at once. */
  adoptBranch(state: EncounterState, hiddenGone: HiddenGone, event: RewoundEvent, commandId: string): void {
    const from = this.state.version;
    this.state = state;
    this.branch = event.branch;
    this.lastRewind = { ...event, commandId };
    this.history.reset(state);
    this.snapshotVersion = -1; // the rewind saves one at once
    this.nextSnapshotAt = state.version + Math.max(1, this.runtime.options.snapshotEvery);
    for (const k of Object.keys(this.hiddenGone)) delete this.hiddenGone[k];
    Object.assign(this.hiddenGone, hiddenGone);
    this.memory.remember(commandId, state.version);
    this.timers.close();
    this.timers.evaluate();
    broadcastRewind(this, from, event.branch, [event]);
  }

  /** A background snapshot still being written (a rewind waits for it). */
  settleSnapshots(): Promise<void> {
    return this.snapshotting;
  }

  private afterCommit(): void {
    if (this.state.version >= this.nextSnapshotAt) this.runtime.queueSnapshot(this);
  }

  /** Save a snapshot of the current state (with the runtime's own settings). */
  async snapshot(): Promise<void> {
    const version = this.state.version;
    if (version <= this.snapshotVersion && version !== 0) return;
    const state = this.state;
    try {
      const saving = this.runtime.store.saveSnapshot(this.id, version, this.snapshotBody(state), {
        status: state.status,
        round: state.clock.round,
      });
      this.snapshotting = saving.catch(() => undefined);
      await saving;
      if (version > this.snapshotVersion) this.snapshotVersion = version;
      this.nextSnapshotAt = Math.max(this.nextSnapshotAt, version + Math.max(1, this.runtime.options.snapshotEvery));
    } catch (e) {
      this.logger.error({ err: String(e), version }, 'snapshot failed');
    }
  }

  /** What `snapshot` would save now (null when the newest state is saved), for a batch of many (a graceful stop). */
  snapshotDue(): {
    encounterId: string;
    version: number;
    state: SnapshotBody;
    summary: { status: EncounterState['status']; round: number };
  } | null {
    const state = this.state;
    if (state.version <= this.snapshotVersion && state.version !== 0) return null;
    return {
      encounterId: this.id,
      version: state.version,
      state: this.snapshotBody(state),
      summary: { status: state.status, round: state.clock.round },
    };
  }

  /** A snapshot saved for this host by a batch (`snapshotDue`). */
  snapshotSaved(version: number): void {
    if (version > this.snapshotVersion) this.snapshotVersion = version;
  }

  private snapshotBody(state: EncounterState): SnapshotBody {
    return { fraySnapshot: 1, state, runtime: { turnTimerSeconds: this.turnTimerSeconds, hiddenGone: this.hiddenGone } };
  }

  /** Set the GM's turn timer (null = off); saved at once with a snapshot. */
  async setTurnTimer(seconds: number | null): Promise<void> {
    await this.enqueue(async () => {
      this.turnTimerSeconds = seconds;
      this.timers.clearTurn();
      this.timers.evaluate();
      this.announceDeadlines();
      await this.runtime.store.saveSnapshot(this.id, this.state.version, this.snapshotBody(this.state));
      this.snapshotVersion = this.state.version;
    });
  }

  /** Re-arm the deadlines after a change of state outside a command (a load). */
  evaluateDeadlines(): void {
    this.timers.evaluate();
  }

  /** Every viewer's deadlines, when they changed without a patch (the turn timer set or re-armed). */
  announceDeadlines(): void {
    for (const ch of this.channels.values()) {
      if (ch.sinks.size === 0) continue;
      const msg = { encounterId: this.id, version: this.state.version, deadlines: this.timers.forView(ch.projection) };
      for (const s of ch.sinks) this.runtime.onDeadlines(s, msg);
    }
  }

  /** Stop timers; the host takes no more commands. */
  close(): void {
    this.closed = true;
    this.timers.close();
  }
}
