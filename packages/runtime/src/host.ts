import { apply, projectState, viewKeyOf, viewerOfKey, type Actor, type EncounterState, type EngineEvent, type Ruleset, type Viewer } from '@fray/engine';
import type { CommandAck, Deadlines, PatchMessage, PatchOp, SyncAck, WireError, WireLogEntry } from '@fray/protocol';
import { IdFilter, fnv1a } from './id-filter.js';
import { isStaleOwner, type LeaseLike, type Logger } from './store.js';
import { diff } from './diff.js';
import { reachOf, type ReachAnswer, type ReachRequest } from './reach.js';
import { SYSTEM_ID_PREFIX, commandIdTaken, senderOf, senderOfLogged } from './senders.js';
import { legalFor, noteHiddenRemovals, refusalAsIfUnseenAbsent, refusalFor, withHiddenGone, type HiddenGone } from './unseen.js';
import { projectEventsFor, unseenMarkers, viewerKey } from './viewers.js';
import type { Runtime } from './runtime.js';
import { rewind, type RewindHost } from './rewind.js';
import { REWIND, staleBranch, type RewoundEvent } from './timeline.js';

export type Sink = (msg: PatchMessage) => void;

interface Channel {
  viewer: Viewer;
  key: string;
  projection: EncounterState;
  /** the last version whose patch took something out of this view (hid, removed, made secret) */
  narrowedAt: number;
  sinks: Set<Sink>;
}

type StoredResult = { ok: true; version: number; events: EngineEvent[] } | { ok: false; error: WireError };
/** An answer that waits for a read of the log, outside the encounter's queue (see `refuse`). */
type Later = { later: Promise<StoredResult> };
/**
 * What the idempotency cache keeps: an accepted command's version (a number: nothing on the heap
 * for the 256 ids each encounter remembers; its events are in the log), or the refusal.
 */
type Remembered = number | { ok: false; error: WireError; sender: string };

/**
 * The recent log that `sync` replays: kept states (`checkpoints`, oldest first, each a version of
 * the encounter's own state, sharing every unchanged part with the next) and the accepted commands
 * after the oldest one (`commands[i]` made version `checkpoints[0].version + 1 + i`).
 */
interface RecentLog {
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

/** The viewer whose view `viewer` shares in `state` (the engine's view keys), as the broadcast projects for it. */
function viewAs(state: EncounterState, viewer: Viewer): Viewer {
  return viewerOfKey(viewKeyOf(state, viewer), viewer);
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
 * Command ids remembered in memory (accepted: the version only; refused: the error). Older
 * duplicates are still answered exactly, from the log: the database refuses a second entry with
 * the same command id, and a refusal is checked against the log before it is given.
 */
const ACK_CACHE = 256;

/**
 * The most versions back `sync` answers with patches, whatever `syncHistory` asks: a sync replays
 * up to 1.5 times that many commands on the encounter's event loop (about 10–20 µs each), so this
 * bounds one sync to tens of milliseconds.
 */
export const MAX_SYNC_HISTORY = 1000;

/**
 * One live encounter in memory: its state, its serialized command queue, its viewers' channels
 * (projections), the recent log its viewers' syncs replay, and its deadlines.
 */
export class EncounterHost implements RewindHost {
  state: EncounterState;
  /** the version of the newest saved snapshot */
  snapshotVersion: number;
  /**
   * the version at which the next periodic snapshot is due: every `snapshotEvery` commands, the
   * first one after a load at an offset of the encounter's own (its id's hash), so that encounters
   * loaded or started together do not all snapshot at the same commands
   */
  private nextSnapshotAt: number;
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
  private readonly channels = new Map<string, Channel>();
  private readonly acks = new Map<string, Remembered>();
  /** command ids refused while the log is read for an earlier acceptance (see `refuse`) */
  private readonly lookups = new Map<string, Promise<StoredResult>>();
  /** every accepted command of this encounter is in `acks` (none forgotten yet) */
  private acksComplete: boolean;
  /**
   * every command id this encounter ever accepted, once `acks` is no longer complete: built from
   * the log at the first refusal that would otherwise read it (see `refuse`), kept while loaded
   */
  private accepted: { filter: IdFilter; ready: boolean } | null = null;
  /** after a failed read of the log's command ids, not before this time (runtime clock, ms) */
  private acceptedRetryAt = 0;
  private reactionTimer: { windowId: string; at: number; handle: NodeJS.Timeout } | null = null;
  private turnTimer: { key: string; combatantId: string; at: number; handle: NodeJS.Timeout | null } | null = null;
  private views: { state: EncounterState | null; byKey: Map<string, EncounterState> } = { state: null, byKey: new Map() };
  private recent: RecentLog;
  /** the live timeline branch (docs/timeline.md) and the rewind that started it, when this process made it */
  branch: number;
  private lastRewind: (RewoundEvent & { commandId: string }) | null = null;
  private snapshotting: Promise<void> = Promise.resolve();

  constructor(
    private readonly runtime: Runtime,
    readonly ruleset: Ruleset,
    readonly accountId: string,
    state: EncounterState,
    public lease: LeaseLike,
    readonly logger: Logger,
    opts: { snapshotVersion: number; turnTimerSeconds: number | null; hiddenGone?: HiddenGone; archived: boolean; recentCommands: Array<{ commandId: string; seq: number; events: unknown[] }>; branch?: number },
  ) {
    this.branch = opts.branch ?? 0;
    this.state = state;
    this.recent = { checkpoints: [state], commands: [] };
    this.snapshotVersion = opts.snapshotVersion;
    const every = Math.max(1, runtime.options.snapshotEvery);
    this.nextSnapshotAt = opts.snapshotVersion + every - (fnv1a(state.id) % every);
    this.turnTimerSeconds = opts.turnTimerSeconds;
    this.hiddenGone = opts.hiddenGone ?? {};
    this.archived = opts.archived;
    this.lastActivity = runtime.now();
    this.acksComplete = opts.recentCommands.length >= state.version;
    for (const r of opts.recentCommands) this.remember(r.commandId, r.seq);
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

  // -------------------------------------------------------------------------------------------
  // Viewers

  /**
   * The current state as a viewer sees it. Viewers with the same view (see the engine's
   * `viewKeyOf`: the GM; the public view that spectators and most players share; a player who
   * controls something hidden or secret) get the same object, projected once per state.
   */
  private view(viewer: Viewer): { key: string; projection: EncounterState } {
    if (this.views.state !== this.state) this.views = { state: this.state, byKey: new Map() };
    const key = viewKeyOf(this.state, viewer);
    let projection = this.views.byKey.get(key);
    if (!projection) {
      projection = this.project_(this.state, viewerOfKey(key, viewer));
      this.views.byKey.set(key, projection);
    }
    return { key, projection };
  }

  /** A state as a viewer sees it (the GM: whole; others: see `withHiddenGone`). */
  private project_(state: EncounterState, viewer: Viewer): EncounterState {
    return viewer.role === 'gm' ? state : projectState(this.ruleset, this.seenFrom(state), viewer);
  }

  /** The state players' views are projected from: with the combatants removed while hidden (`withHiddenGone`). */
  private seenFrom(state: EncounterState): EncounterState {
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
  subscribe(viewer: Viewer, sink: Sink): { version: number; branch: number; state: EncounterState; deadlines: Deadlines; unsubscribe: () => void } {
    const ch = this.channel(viewer);
    ch.sinks.add(sink);
    this.lastActivity = this.runtime.now();
    return {
      version: this.state.version,
      branch: this.branch,
      state: ch.projection,
      deadlines: this.deadlinesFor(ch),
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
      const patches = this.replayPatches(ch, since);
      if (patches) return { ok: true, kind: 'patches', version, patches };
    }
    return { ok: true, kind: 'snapshot', version, branch: this.branch, state: ch.projection, deadlines: this.deadlinesFor(ch) };
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
  private replayPatches(ch: Channel, since: number): PatchMessage[] | null {
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
      const r = apply(this.ruleset, state, command);
      return r.ok ? { state: r.state, events: r.events } : null;
    };
    while (state.version < since) {
      const r = step();
      if (!r) return this.replayFailed(since, state.version);
      state = r.state;
    }
    let projection = this.project_(state, viewAs(state, ch.viewer));
    const deadlines = this.deadlinesFor(ch);
    const out: PatchMessage[] = [];
    while (state.version < this.state.version) {
      const r = step();
      if (!r) return this.replayFailed(since, state.version);
      const viewer = viewAs(r.state, ch.viewer);
      const after = this.project_(r.state, viewer);
      out.push({
        encounterId: this.id,
        from: state.version,
        to: r.state.version,
        ops: diff(projection, after) as PatchOp[],
        events: projectEventsFor(r.events, viewer, this.seenFrom(r.state), after),
        deadlines,
      });
      state = r.state;
      projection = after;
    }
    if (diff(state, this.state).length > 0) return this.replayFailed(since, state.version);
    return out;
  }

  private replayFailed(since: number, at: number): null {
    this.logger.error({ since, at, version: this.state.version }, 'replaying the recent log for sync did not reach the live state; sending a snapshot');
    return null;
  }

  /**
   * Keep an accepted command for `sync`: every ceil(syncHistory / 2) versions the state is kept
   * as a checkpoint, and the checkpoints (with their commands) older than the newest one at or
   * before `version - syncHistory` are let go, so that the last syncHistory to 1.5 × syncHistory
   * versions can be replayed. Nothing is kept while nobody watches (a viewer who joins gets a
   * snapshot, and syncs only from then on).
   */
  private record(command: Record<string, unknown>, state: EncounterState): void {
    const keep = Math.min(MAX_SYNC_HISTORY, this.runtime.options.syncHistory);
    const r = this.recent;
    if (keep <= 0 || this.channels.size === 0) {
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

  deadlinesOf(viewer: Viewer): Deadlines {
    return this.deadlinesFor(this.channel(viewer));
  }

  projectionFor(viewer: Viewer): EncounterState {
    return this.channel(viewer).projection;
  }

  legal(viewer: Viewer, combatantId: string): { ok: true; version: number; actions: unknown[] } | { ok: false; error: WireError } {
    const c = this.state.combatants[combatantId];
    const visible = this.channel(viewer).projection.combatants[combatantId];
    if (!c || !visible) return { ok: false, error: { code: 'UNKNOWN_COMBATANT', message: `No combatant "${combatantId}".` } };
    if (viewer.role === 'spectator') return { ok: false, error: { code: 'FORBIDDEN', message: 'Spectators only watch.' } };
    if (viewer.role === 'player' && c.controller !== viewer.playerId) {
      return { ok: false, error: { code: 'NOT_AUTHORIZED', message: `${c.name} is not yours to command.` } };
    }
    return { ok: true, version: this.state.version, actions: legalFor(this.ruleset, this.state, this.channel(viewer).projection, viewer, combatantId) };
  }

  /** Where a combatant can go with a movement option (see reach.ts): GM, or the player who commands it. */
  reach(viewer: Viewer, req: ReachRequest): ReachAnswer {
    const gate = this.legalGate(viewer, req.combatantId);
    if (gate) return { ok: false, error: gate };
    return reachOf(this.ruleset, this.state, viewer, new Set(Object.keys(this.channel(viewer).projection.combatants)), req);
  }

  private legalGate(viewer: Viewer, combatantId: string): WireError | null {
    const c = this.state.combatants[combatantId];
    const visible = this.channel(viewer).projection.combatants[combatantId];
    if (!c || !visible) return { code: 'UNKNOWN_COMBATANT', message: `No combatant "${combatantId}".` };
    if (viewer.role === 'spectator') return { code: 'FORBIDDEN', message: 'Spectators only watch.' };
    if (viewer.role === 'player' && c.controller !== viewer.playerId) return { code: 'NOT_AUTHORIZED', message: `${c.name} is not yours to command.` };
    return null;
  }

  /**
   * Log entries as a viewer may see them: the GM gets them whole; a player gets the events
   * projected as in a patch and only its own commands; a spectator only the projected events.
   */
  projectLog(entries: ReadonlyArray<{ seq: number; commandId: string; command: unknown; events: unknown[]; createdAt?: Date }>, viewer: Viewer): WireLogEntry[] {
    const at = (e: { createdAt?: Date }) => (e.createdAt ? e.createdAt.toISOString() : null);
    if (viewer.role === 'gm') return entries.map((e) => ({ seq: e.seq, commandId: e.commandId, command: e.command, events: e.events, at: at(e) }));
    // the state with the combatants removed while hidden: old entries may name them
    const state = this.seenFrom(this.state);
    const projection = this.channel(viewer).projection;
    const unseen = unseenMarkers(state, projection);
    return entries.map((e) => {
      const by = (e.command as { by?: { role?: string; playerId?: string } } | null)?.by;
      const text = JSON.stringify(e.command);
      // my own commands, unless they name what I can no longer see
      const mine = viewer.role === 'player' && by?.role === 'player' && by.playerId === viewer.playerId && !unseen.some((u) => text.includes(u));
      return {
        seq: e.seq,
        commandId: mine ? e.commandId : '',
        ...(mine ? { command: e.command } : {}),
        events: projectEventsFor(e.events as EngineEvent[], viewer, state, projection),
        at: at(e),
      };
    });
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
    if (this.channels.size === 0) this.recent = { checkpoints: [this.state], commands: [] };
  }

  /** Tell every subscriber that this host is going away. */
  notifyClosed(reason: string): void {
    for (const ch of this.channels.values()) for (const s of ch.sinks) this.runtime.onClosed(this.id, s, reason);
  }

  // -------------------------------------------------------------------------------------------
  // Commands

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
    const r = await this.enqueue(() => this.process(input));
    return this.project('later' in r ? await r.later : r, viewer);
  }

  private project(r: StoredResult, viewer: Viewer): CommandAck {
    if (!r.ok) return r;
    return { ok: true, version: r.version, events: projectEventsFor(r.events, viewer, this.seenFrom(this.state), viewer.role === 'gm' ? this.state : this.channel(viewer).projection) };
  }

  private remember(commandId: string, r: Remembered): void {
    // an accepted id goes into the filter too, also while it is being read from the log
    if (typeof r === 'number' && this.accepted) this.accepted.filter.add(commandId);
    this.acks.set(commandId, r);
    if (this.acks.size > ACK_CACHE) {
      const first = this.acks.entries().next();
      if (!first.done) {
        this.acks.delete(first.value[0]);
        if (typeof first.value[1] === 'number') this.acksComplete = false;
      }
    }
  }

  /**
   * The first ack of a command id already in the log (remembered again), null when the log has
   * none, or UNAVAILABLE when the log cannot be read (never a guess: a retry must get the first ack).
   */
  private async firstAck(commandId: string, sender: string): Promise<StoredResult | null> {
    try {
      const e = await this.runtime.store.findLogByCommandId(this.id, commandId);
      if (!e) return null;
      this.remember(commandId, e.seq);
      // the id is the sender's who used it first: another sender's command with it is not applied
      if (senderOfLogged(e.command) !== sender) return commandIdTaken(commandId);
      return { ok: true, version: e.seq, events: e.events as EngineEvent[] };
    } catch (err) {
      this.logger.warn({ err: String(err), commandId }, 'could not read the log for an earlier command with this id');
      return { ok: false, error: { code: 'UNAVAILABLE', message: 'The database is unavailable; try again shortly.' } };
    }
  }

  /**
   * A refusal, unless the command id was accepted before and has left the memory: then the first
   * ack (a retry must never be answered differently from the first time).
   *
   * The log is read outside the encounter's queue: a refused command changes nothing, so the
   * commands behind it need not wait for a database round trip (a client sending bad commands
   * would otherwise hold up the whole table by one read each). Until the read is back, the same
   * command id gets the same answer (`lookups`), as if the queue had waited.
   */
  private refuse(input: SubmitInput, r: Extract<StoredResult, { ok: false }>): StoredResult | Later {
    const { commandId } = input;
    const sender = senderOf(input.by);
    if (this.acksComplete || this.neverAccepted(commandId)) {
      this.remember(commandId, { ...r, sender });
      return r;
    }
    const key = `${sender} ${commandId}`;
    const later = this.firstAck(commandId, sender).then((first) => {
      this.lookups.delete(key);
      if (first) return first;
      this.remember(commandId, { ...r, sender });
      return r;
    });
    this.lookups.set(key, later);
    return { later };
  }

  /**
   * True when the filter of accepted ids is built and has never held `commandId`: then no earlier
   * acceptance can exist and the refusal stands without reading the log. A Bloom filter never
   * says "no" for an id it holds, and says "maybe" for fewer than one id in 200 it does not (those
   * read the log, as every refusal did before). The first refusal that finds no filter starts building
   * it from the log's command ids, in the background; until it is ready refusals read the log.
   */
  private neverAccepted(commandId: string): boolean {
    const a = this.accepted;
    if (a) return a.ready && !a.filter.has(commandId);
    const store = this.runtime.store;
    if (!store.listCommandIds || this.runtime.now() < this.acceptedRetryAt) return false;
    const building = { filter: new IdFilter(Math.max(1024, Math.ceil(this.state.version * 1.25))), ready: false };
    this.accepted = building;
    // Ids accepted from now on are added as they commit (remember); the read adds every id already
    // committed when it runs. Together: every accepted id, whichever way the two interleave.
    store.listCommandIds(this.id).then(
      (ids) => {
        if (this.accepted !== building) return;
        for (const id of ids) building.filter.add(id);
        building.ready = true;
      },
      (err: unknown) => {
        if (this.accepted !== building) return;
        this.accepted = null;
        this.acceptedRetryAt = this.runtime.now() + 30_000;
        this.logger.warn({ err: String(err) }, "could not read the log's command ids; refusals read the log one by one meanwhile");
      },
    );
    return false;
  }

  private async process(input: SubmitInput): Promise<StoredResult | Later> {
    const sender = senderOf(input.by);
    if (sender !== 'system' && input.commandId.startsWith(SYSTEM_ID_PREFIX)) return commandIdTaken(input.commandId);
    const looking = this.lookups.get(`${sender} ${input.commandId}`);
    if (looking) return { later: looking };
    const seen = this.acks.get(input.commandId);
    // a refusal is remembered for its sender; another sender's command with that id is judged afresh
    if (seen !== undefined && typeof seen !== 'number' && seen.sender === sender) return { ok: false, error: seen.error };
    // a retry of an accepted command: its events come from the log (read outside the queue); another sender's: COMMAND_ID_TAKEN
    if (typeof seen === 'number') return { later: this.firstAck(input.commandId, sender).then((first) => first ?? { ok: true, version: seen, events: [] }) };
    if (this.closed) return { ok: false, error: { code: 'UNAVAILABLE', message: 'The encounter is being moved; join again.' } };
    if (this.archived) return { ok: false, error: { code: 'ENCOUNTER_ARCHIVED', message: 'The encounter is archived.' } };
    if (input.branch !== undefined && input.branch !== this.branch) return this.refuse(input, { ok: false, error: staleBranch(input.branch, this.branch, this.lastRewind) });
    if (input.command.type === REWIND) return this.timeline(input, sender);
    if (input.expectedVersion !== undefined && input.expectedVersion !== this.state.version) {
      return this.refuse(input, {
        ok: false,
        error: { code: 'STALE_VERSION', message: `Expected version ${input.expectedVersion}, but the encounter is at ${this.state.version}.` },
      });
    }
    const command: Record<string, unknown> = { ...input.command, by: input.by };
    const unseen = input.by.role === 'player' ? refusalAsIfUnseenAbsent(this.ruleset, this.state, command, input.by) : null;
    if (unseen) return this.refuse(input, { ok: false, error: refusalFor(unseen, this.state, input.by, command) });
    let result;
    try {
      result = apply(this.ruleset, this.state, command);
    } catch (e) {
      this.logger.error({ err: String(e), commandId: input.commandId, type: command.type }, 'engine threw');
      return { ok: false, error: { code: 'INTERNAL', message: 'The rules engine failed on this command.' } };
    }
    if (!result.ok) {
      const error = refusalFor({ code: result.error.code, message: result.error.message, rule: result.error.rule }, this.state, input.by, command);
      return this.refuse(input, { ok: false, error });
    }
    const next = result.state;
    const prev = this.state;
    try {
      await this.runtime.writer.append(
        {
          encounterId: this.id,
          seq: next.version,
          ...(this.branch > 0 ? { branch: this.branch } : {}),
          commandId: input.commandId,
          command,
          events: result.events,
          // the GM's list (status, round) changes with the entry that changes it, in its commit
          ...(next.status !== prev.status || next.clock.round !== prev.clock.round ? { summary: { status: next.status, round: next.clock.round } } : {}),
        },
        this.lease.token,
      );
    } catch (e) {
      return this.appendFailed(e, input.commandId, sender);
    }
    noteHiddenRemovals(this.hiddenGone, prev, result.events);
    this.state = next;
    this.record(command, next);
    const stored: StoredResult = { ok: true, version: next.version, events: result.events };
    this.remember(input.commandId, next.version);
    this.runtime.metrics.commands += 1;
    this.evaluateDeadlines();
    this.broadcast(result.events);
    this.afterCommit();
    return stored;
  }

  /** A log append that failed: the first ack of a command id already logged, else the encounter leaves this process. */
  private async appendFailed(e: unknown, commandId: string, sender: string): Promise<StoredResult> {
    // The command id is in the log already (a retry from beyond the memory): the first ack.
    if (e instanceof Error && e.name === 'DuplicateCommandIdError') {
      return (await this.firstAck(commandId, sender)) ?? { ok: false, error: { code: 'UNAVAILABLE', message: 'The database is unavailable; try again shortly.' } };
    }
    // Not acknowledged: the state stays as it was. A stale owner or an unknown outcome means this
    // process must reload the encounter from the database before serving it again.
    const stale = isStaleOwner(e) || (e instanceof Error && e.name === 'StaleBranchError');
    this.logger.warn({ err: String(e), commandId, stale }, 'log append refused; unloading the encounter');
    void this.runtime.unload(this.id, stale ? 'lease lost' : 'database error', { release: !stale, snapshot: false });
    return {
      ok: false,
      error: stale
        ? { code: 'ENCOUNTER_BUSY', message: 'Another server process owns this encounter now; join again.' }
        : { code: 'UNAVAILABLE', message: 'The database refused the write; the command was not applied.' },
    };
  }

  // The timeline (rewind.ts, host-branch.ts, docs/timeline.md)
  private async timeline(input: SubmitInput, sender: string): Promise<StoredResult | Later> {
    const r = await rewind(this, input).catch((e: unknown) => this.appendFailed(e, input.commandId, sender));
    return r.ok ? r : this.refuse(input, r);
  }
  get store() {
    return this.runtime.store;
  }
  append(entry: Parameters<RewindHost['append']>[0]): Promise<void> {
    return this.runtime.writer.append(entry, this.lease.token);
  }
  settleSnapshots(): Promise<void> {
    return this.snapshotting;
  }
  adoptBranch(state: EncounterState, branch: number, hiddenGone: HiddenGone, event: RewoundEvent, commandId: string): void {
    const from = this.state.version;
    this.state = state;
    this.branch = branch;
    this.lastRewind = { ...event, commandId };
    this.recent = { checkpoints: [state], commands: [] };
    this.snapshotVersion = -1; // the rewind saves one at once
    this.nextSnapshotAt = state.version + Math.max(1, this.runtime.options.snapshotEvery);
    for (const k of Object.keys(this.hiddenGone)) delete this.hiddenGone[k];
    Object.assign(this.hiddenGone, hiddenGone);
    this.remember(commandId, state.version);
    this.close(false);
    this.evaluateDeadlines();
    for (const ch of this.channels.values()) {
      const { key, projection } = this.view(ch.viewer);
      ch.projection = projection;
      ch.narrowedAt = state.version;
      const events = projectEventsFor([event], viewerOfKey(key, ch.viewer), this.seenFrom(state), projection);
      const msg: PatchMessage = { encounterId: this.id, from, to: state.version, branch, ops: [{ op: 'replace', path: '', value: projection }], events, deadlines: this.deadlinesFor(ch) };
      if (ch.sinks.size > 0) this.runtime.deliver(msg, [...ch.sinks]);
    }
  }

  /** System command ids (deadlines) name the branch after a rewind: the same version comes again on it. */
  private deadlineId(rest: string): string {
    return this.branch === 0 ? `deadline:${rest}` : `deadline:b${this.branch}:${rest}`;
  }

  /**
   * One patch per channel. Channels whose viewers share a view and were at the same projection
   * get the same message (projected, diffed and event-filtered once). The diff skips every
   * subtree the new projection shares with the old one, so it costs what changed.
   */
  private broadcast(events: EngineEvent[]): void {
    const from = this.state.version - 1;
    const to = this.state.version;
    // the messages made, one per view (and per earlier projection): a list, searched in place, as
    // an encounter has a few views (the GM's, the public one, a player's own)
    const made: Array<{ key: string; before: EncounterState; msg: PatchMessage; narrowed: boolean; projection: EncounterState; sinks: Sink[] }> = [];
    for (const ch of this.channels.values()) {
      const { key, projection } = this.view(ch.viewer);
      let m: (typeof made)[number] | undefined;
      for (let i = made.length - 1; i >= 0; i--) {
        if (made[i]!.key === key) {
          m = made[i];
          break;
        }
      }
      if (!m || m.before !== ch.projection) {
        const ops = diff(ch.projection, projection) as PatchOp[];
        const narrowed = ops.some((o) => o.op === 'remove');
        const before = ch.projection;
        ch.projection = projection; // deadlinesFor(ch) below reads the new projection
        m = {
          key,
          before,
          projection,
          narrowed,
          sinks: [],
          msg: {
            encounterId: this.id,
            from,
            to,
            ops,
            events: projectEventsFor(events, viewerOfKey(key, ch.viewer), this.seenFrom(this.state), projection),
            deadlines: this.deadlinesFor(ch),
          },
        };
        made.push(m);
      }
      ch.projection = m.projection;
      if (m.narrowed) ch.narrowedAt = to;
      for (const s of ch.sinks) m.sinks.push(s);
    }
    for (const m of made) if (m.sinks.length > 0) this.runtime.deliver(m.msg, m.sinks);
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
      const saving = this.runtime.store.saveSnapshot(
        this.id,
        version,
        { fraySnapshot: 1, state, runtime: { turnTimerSeconds: this.turnTimerSeconds, hiddenGone: this.hiddenGone } },
        { status: state.status, round: state.clock.round },
      );
      this.snapshotting = saving.catch(() => undefined);
      await saving;
      if (version > this.snapshotVersion) this.snapshotVersion = version;
      this.nextSnapshotAt = Math.max(this.nextSnapshotAt, version + Math.max(1, this.runtime.options.snapshotEvery));
    } catch (e) {
      this.logger.error({ err: String(e), version }, 'snapshot failed');
    }
  }

  /** Set the GM's turn timer (null = off); saved at once with a snapshot. */
  async setTurnTimer(seconds: number | null): Promise<void> {
    await this.enqueue(async () => {
      this.turnTimerSeconds = seconds;
      this.clearTurnTimer();
      this.evaluateDeadlines();
      this.announceDeadlines();
      await this.runtime.store.saveSnapshot(this.id, this.state.version, {
        fraySnapshot: 1,
        state: this.state,
        runtime: { turnTimerSeconds: this.turnTimerSeconds, hiddenGone: this.hiddenGone },
      });
      this.snapshotVersion = this.state.version;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Deadlines: the runtime's clock, never the engine's. A deadline that passes submits a logged
  // command as `system`, so replaying the log rebuilds the same state.

  private deadlinesFor(ch: Channel): Deadlines {
    const reaction = this.reactionTimer && ch.projection.reaction ? { windowId: this.reactionTimer.windowId, at: this.reactionTimer.at } : null;
    const turn =
      this.turnTimer && this.turnTimer.handle && ch.projection.combatants[this.turnTimer.combatantId] !== undefined
        ? { combatantId: this.turnTimer.combatantId, at: this.turnTimer.at }
        : null;
    return { reaction, turn };
  }

  evaluateDeadlines(): void {
    if (this.closed) return;
    const s = this.state;
    const w = s.reaction;
    if (!w) {
      if (this.reactionTimer) clearTimeout(this.reactionTimer.handle);
      this.reactionTimer = null;
    } else if (!this.reactionTimer || this.reactionTimer.windowId !== w.id) {
      if (this.reactionTimer) clearTimeout(this.reactionTimer.handle);
      this.reactionTimer = null;
      const seconds = w.deadlineSeconds ?? this.runtime.options.reactionSeconds;
      if (seconds && seconds > 0) {
        const windowId = w.id;
        const handle = setTimeout(() => {
          this.logger.info({ windowId }, 'reaction window deadline passed; resolving');
          void this.submit({ commandId: this.deadlineId(`reaction:${windowId}`), command: { type: 'reaction.resolve' }, by: { role: 'system' } }, { role: 'gm' });
        }, seconds * 1000);
        handle.unref();
        this.reactionTimer = { windowId, at: this.runtime.now() + seconds * 1000, handle };
      }
    }

    const current = s.clock.current;
    if (!this.turnTimerSeconds || s.status !== 'active' || !current) {
      this.clearTurnTimer();
      return;
    }
    const key = `${s.clock.round}:${s.clock.phase ?? ''}:${current}`;
    if (this.turnTimer && this.turnTimer.key === key && this.turnTimer.handle) return;
    const retry = this.turnTimer?.key === key; // fired but the turn did not end (e.g. a reaction was pending)
    this.clearTurnTimer();
    const ms = retry ? 2000 : this.turnTimerSeconds * 1000;
    const version = s.version;
    const handle = setTimeout(() => {
      if (this.turnTimer) this.turnTimer.handle = null;
      this.logger.info({ combatantId: current }, 'turn timer passed; ending the turn');
      void this.submit(
        { commandId: this.deadlineId(`turn:${version}:${current}`), command: { type: 'turn.end', combatantId: current }, by: { role: 'system' } },
        { role: 'gm' },
      ).then((ack) => {
        if (!ack.ok) {
          this.logger.info({ code: ack.error.code }, 'turn timer could not end the turn yet');
          if (this.turnTimer?.key === key && !this.turnTimer.handle && !this.busy) {
            this.evaluateDeadlines();
            this.announceDeadlines();
          }
        }
      });
    }, ms);
    handle.unref();
    this.turnTimer = { key, combatantId: current, at: this.runtime.now() + ms, handle };
  }

  /** Every viewer's deadlines, when they changed without a patch (the turn timer set or re-armed). */
  private announceDeadlines(): void {
    for (const ch of this.channels.values()) {
      if (ch.sinks.size === 0) continue;
      const msg = { encounterId: this.id, version: this.state.version, deadlines: this.deadlinesFor(ch) };
      for (const s of ch.sinks) this.runtime.onDeadlines(s, msg);
    }
  }

  private clearTurnTimer(): void {
    if (this.turnTimer?.handle) clearTimeout(this.turnTimer.handle);
    this.turnTimer = null;
  }

  /** Stop timers; the host takes no more commands (`closing` false: only the timers, as a rewind does). */
  close(closing = true): void {
    this.closed = closing;
    if (this.reactionTimer) clearTimeout(this.reactionTimer.handle);
    this.reactionTimer = null;
    this.clearTurnTimer();
  }
}

