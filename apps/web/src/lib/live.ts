import { FrayClient, FrayError, type EncounterMirror } from '@fray/client';
import type { ClientCommand, ReachAck as ReachAnswer, ReachRequestMessage, RewindNote } from '@fray/protocol';
import type { LiveSnapshot, PendingCommand } from './live-snapshot.js';
import { isRecord, isString } from './guards.js';
import type { ActionOption, CommandAck, Deadlines, EncounterState, LogEntry, PatchMessage, WireError } from './types.js';

/**
 * One live encounter for a page, on top of `@fray/client` (docs/protocol.md): the client joins,
 * applies the server's patches and `sync`s after a gap or a reconnect; this adds what a page
 * shows: the connection status, a fatal reason (bad invite), the event log, and commands that
 * keep their `commandId` across retries so the server applies each once.
 */

export type { ConnStatus, LiveSnapshot, OwnCommand, PendingCommand, SettledCommand } from './live-snapshot.js';

/** A command in words for the pending line: its action or its type. */
export function commandLabel(c: Record<string, unknown>): string {
  if (typeof c.label === 'string') return c.label;
  const what = typeof c.action === 'string' ? c.action : String(c.type);
  return what.replace(/[.-]/g, ' ');
}

export type CommandResult = CommandAck;

/** The state the server sends (projected for this viewer): the engine's encounter state. */
const isState = (s: unknown): s is EncounterState => isRecord(s) && isRecord(s.combatants) && isRecord(s.clock) && Array.isArray(s.effects);
/** A legal-action entry of the `actions` answer. */
const isAction = (a: unknown): a is ActionOption =>
  isRecord(a) && isString(a.command) && isString(a.label) && typeof a.allowed === 'boolean';
const isCommand = (c: Record<string, unknown>): c is ClientCommand => isString(c.type);

const FATAL = ['UNAUTHORIZED', 'SESSION_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'ENCOUNTER_ARCHIVED', 'ENCOUNTER_DELETED'];
const noDeadlines: Deadlines = { reaction: null, turn: null };

let counter = 0;
/** A command id unique to this page (the server's pattern: letters, digits, `. _ : -`). */
export function newCommandId(): string {
  counter += 1;
  const rand = Math.floor(Math.random() * 2 ** 32).toString(36);
  return `w-${Date.now().toString(36)}-${rand}-${counter}`;
}

export interface LiveOptions {
  token: string;
  encounterId: string;
  /** server origin; defaults to the page's */
  url?: string;
  /** ms to wait for an ack before sending again with the same commandId */
  ackTimeoutMs?: number;
}

export class Live {
  private client: FrayClient | null = null;
  private mirror: EncounterMirror | null = null;
  private snap: LiveSnapshot = {
    status: 'connecting',
    fatal: null,
    role: null,
    playerId: null,
    version: -1,
    branch: 0,
    state: null,
    deadlines: noDeadlines,
    log: [],
    rewinds: [],
    reconnects: 0,
    inFlight: 0,
    pending: [],
    settled: null,
    lastOwn: null,
  };
  private pending: PendingCommand[] = [];
  private listeners = new Set<() => void>();
  private inFlight = 0;
  private closed = false;

  /** the process that runs the encounter, when it is not the one this page came from */
  private ownerUrl: string | null = null;
  private hops = 0;

  constructor(readonly opts: LiveOptions) {
    void this.start();
  }

  getSnapshot = (): LiveSnapshot => this.snap;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private set(patch: Partial<LiveSnapshot>): void {
    this.snap = { ...this.snap, ...patch, inFlight: this.inFlight, pending: this.pending };
    for (const fn of this.listeners) fn();
  }

  private fail(error: WireError): void {
    this.closed = true;
    this.client?.close();
    this.set({ status: 'failed', fatal: error });
  }

  private async start(): Promise<void> {
    const url = this.ownerUrl ?? this.opts.url ?? window.location.origin;
    let client: FrayClient;
    try {
      client = await FrayClient.connect(url, this.opts.token, { ackTimeoutMs: this.opts.ackTimeoutMs ?? 6000, retries: 3 });
    } catch (e) {
      if (this.closed) return;
      const err = e instanceof FrayError ? { code: e.code, message: e.message } : { code: 'UNAVAILABLE', message: String(e) };
      if (FATAL.includes(err.code)) return this.fail(err);
      this.set({ status: 'offline' });
      setTimeout(() => !this.closed && void this.start(), 1500);
      return;
    }
    if (this.closed) return client.close();
    this.client = client;
    // every socket the client opens (it opens a new one when the encounter moves, e.g. after a
    // planned restart): the badge follows the real transport
    client.onSocket((socket) => this.watch(socket));
    try {
      this.mirror = await client.join(this.opts.encounterId);
    } catch (e) {
      // several server processes: another one runs this encounter; go there (a few hops at most)
      if (e instanceof FrayError && e.code === 'NOT_OWNER' && e.ownerUrl && this.hops < 3) {
        this.hops += 1;
        this.ownerUrl = e.ownerUrl;
        client.close();
        return this.start();
      }
      const err = e instanceof FrayError ? { code: e.code, message: e.message } : { code: 'UNAVAILABLE', message: String(e) };
      return this.fail(err);
    }
    const m = this.mirror;
    m.onChange((_m, msg) => this.onChange(msg));
    m.onDeadlines(() => this.set({ deadlines: m.deadlines ?? noDeadlines }));
    this.set({
      status: 'online',
      role: m.role,
      playerId: m.playerId,
      version: m.version,
      branch: m.branch,
      state: isState(m.state) ? m.state : null,
      deadlines: m.deadlines ?? noDeadlines,
    });
    void this.loadLog();
  }

  private watch(socket: FrayClient['socket']): void {
    const current = () => !this.closed && this.client?.socket === socket;
    const down = () => (this.snap.status === 'restarting' ? 'restarting' : 'offline');
    socket.on('disconnect', (reason) => {
      if (!current()) return;
      this.set({ status: down() });
      // socket.io does not retry a disconnect the server made (e.g. a revoked invite): we do,
      // and a refused token then ends in `connect_error`.
      if (reason === 'io server disconnect') setTimeout(() => current() && socket.connect(), 500);
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      if (!current()) return;
      const code = err.data?.code ?? '';
      if (FATAL.includes(code)) this.fail({ code, message: err.message });
      // UNAVAILABLE: a process that is shutting down refused us
      else this.set({ status: code === 'UNAVAILABLE' ? 'restarting' : down() });
    });
    socket.on('connect', () => {
      if (current() && this.snap.status !== 'online' && this.snap.status !== 'connecting') void this.resync(true);
    });
    socket.io.on('reconnect', () => current() && void this.resync(true));
    socket.on('closed', ({ reason }) => {
      // a planned stop: the client has already moved to a new socket (through the entry URL, to
      // whoever serves the encounter next), so this socket is no longer the current one
      if (reason === 'shutdown' && !this.closed) this.set({ status: 'restarting' });
      // the GM deleted the encounter: it is gone for good
      else if (reason === 'deleted' && current()) this.fail({ code: 'ENCOUNTER_DELETED', message: 'The GM deleted this encounter.' });
      else if (current()) void this.resync(false);
    });
  }

  private onChange(msg: PatchMessage | null): void {
    const m = this.mirror!;
    // a rewind (docs/timeline.md) or a snapshot on another branch: the log is the live branch's, read again
    const rewound = m.branch !== this.snap.branch;
    let log = this.snap.log.filter((e) => e.seq <= m.version);
    if (msg && !rewound) log = [...log.filter((e) => e.seq !== msg.to), { seq: msg.to, events: msg.events }];
    this.set({
      state: isState(m.state) ? m.state : null,
      version: m.version,
      branch: m.branch,
      deadlines: m.deadlines ?? noDeadlines,
      log,
    });
    if (!msg || rewound) void this.loadLog(); // the events in between come from the log
  }

  /** After a reconnect (or the server moving the encounter): catch up, then show it live. */
  private async resync(reconnected: boolean): Promise<void> {
    if (!this.mirror || this.closed) return;
    try {
      await this.mirror.sync();
      this.set({ status: 'online', reconnects: this.snap.reconnects + (reconnected ? 1 : 0) });
    } catch (e) {
      if (e instanceof FrayError && FATAL.includes(e.code)) this.fail({ code: e.code, message: e.message });
    }
  }

  /** The whole log as this viewer may see it, fetched from the server (pages of 1000); null when it cannot be read now. */
  async fetchLog(): Promise<LogEntry[] | null> {
    return (await this.readLog())?.entries ?? null;
  }

  /** The log and its rewinds (the first page's). */
  private async readLog(): Promise<{ entries: LogEntry[]; rewinds: RewindNote[] } | null> {
    const client = this.client;
    if (!client) return null;
    const entries: LogEntry[] = [];
    let rewinds: RewindNote[] = [];
    let afterSeq = 0;
    for (let page = 0; page < 50; page++) {
      let ack;
      try {
        ack = await client.log(this.opts.encounterId, afterSeq, 1000);
      } catch {
        return null;
      }
      if (!ack.ok) return null;
      if (page === 0) rewinds = ack.rewinds ?? [];
      entries.push(...ack.entries);
      if (ack.entries.length < 1000) break;
      afterSeq = ack.entries[ack.entries.length - 1]!.seq;
    }
    return { entries, rewinds };
  }

  private async loadLog(): Promise<void> {
    const branch = this.snap.branch;
    const read = await this.readLog();
    if (!read) return;
    const { entries, rewinds } = read;
    if (this.snap.branch !== branch) return; // rewound meanwhile: the read that follows the rewind counts
    // keep the live entries that arrived while the log loaded
    const seen = new Set(entries.map((e) => e.seq));
    const merged = [...entries, ...this.snap.log.filter((e) => !seen.has(e.seq) && e.seq <= this.snap.version)].sort(
      (a, b) => a.seq - b.seq,
    );
    this.set({ log: merged, rewinds });
  }

  /**
   * Send a command (without `by`: the server sets it from the token). One commandId for all
   * its attempts: a retry after a timeout or a dropped connection is applied once.
   */
  async send(command: Record<string, unknown>, commandId = newCommandId(), expectedVersion?: number): Promise<CommandResult> {
    const m = this.mirror;
    if (!m) return { ok: false, error: { code: 'NOT_JOINED', message: 'Not connected to the encounter yet.' } };
    const { label, ...cmd } = command;
    const entry: PendingCommand = { commandId, label: commandLabel({ ...cmd, ...(typeof label === 'string' ? { label } : {}) }) };
    const wasLive = this.snap.status === 'online';
    this.inFlight += 1;
    this.pending = [...this.pending, entry];
    this.set({});
    let result: CommandResult;
    try {
      result = await this.attempt(m, cmd, commandId, expectedVersion);
    } finally {
      this.inFlight -= 1;
      this.pending = this.pending.filter((p) => p !== entry);
    }
    // a command that waited for the connection says how it ended
    const waited = !wasLive || this.snap.status !== 'online';
    const own: Partial<LiveSnapshot> =
      result.ok && result.events.length > 0
        ? { lastOwn: { label: entry.label, branch: this.snap.branch, entry: { seq: result.version, events: result.events } } }
        : {};
    this.set(
      waited || this.snap.settled
        ? { ...own, settled: { ...entry, ok: result.ok, ...(result.ok ? {} : { message: result.error.message }) } }
        : own,
    );
    return result;
  }

  /** Send until answered: the same commandId each time, so the server applies it once. */
  private async attempt(
    m: EncounterMirror,
    command: Record<string, unknown>,
    commandId: string,
    expectedVersion?: number,
  ): Promise<CommandResult> {
    if (!isCommand(command)) return { ok: false, error: { code: 'INVALID_COMMAND', message: 'A command needs its type.' } };
    for (let attempt = 0; ; attempt++) {
      try {
        const ack = await m.command(command, expectedVersion === undefined ? { commandId } : { commandId, expectedVersion });
        // sent right after a reconnect, before the re-join: join again, send again
        if (!ack.ok && ack.error.code === 'NOT_JOINED' && attempt < 3) {
          await m.sync().catch(() => undefined);
          continue;
        }
        return ack;
      } catch (e) {
        // no answer while the connection is down (a restart, a dropped network): wait for it
        // and send again, for up to 10 minutes
        if (
          !this.closed &&
          this.snap.status !== 'online' &&
          this.snap.status !== 'failed' &&
          attempt < 100 &&
          (await this.untilOnline(600_000))
        )
          continue;
        const msg = e instanceof Error ? e.message : String(e);
        return { ok: false, error: { code: 'TIMEOUT', message: `The server did not answer (${msg}). Check the log before trying again.` } };
      }
    }
  }

  private untilOnline(ms: number): Promise<boolean> {
    if (this.snap.status === 'online') return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => (off(), resolve(false)), ms);
      const off = this.subscribe(() => {
        const s = this.snap.status;
        if (s !== 'online' && s !== 'failed' && !this.closed) return;
        clearTimeout(t);
        off();
        resolve(s === 'online');
      });
    });
  }

  /** The legal actions of one combatant right now (from the engine's `legalActions`). */
  async actions(combatantId: string): Promise<ActionOption[]> {
    if (!this.client || !this.mirror) return [];
    const ack = await this.client.actions(this.opts.encounterId, combatantId);
    if (!ack.ok) throw new FrayError(ack.error);
    return ack.actions.filter(isAction);
  }

  /** Where a combatant can go with a movement option (`reach`, read-only): the server's answer. */
  async reach(req: Omit<ReachRequestMessage, 'encounterId'>): Promise<ReachAnswer> {
    if (!this.client) return { ok: false, error: { code: 'NOT_JOINED', message: 'Not connected yet.' } };
    try {
      return await this.client.reach({ ...req, encounterId: this.opts.encounterId });
    } catch (e) {
      return { ok: false, error: { code: 'TIMEOUT', message: e instanceof Error ? e.message : String(e) } };
    }
  }

  /** Bring the mirror up to the server's version now (a stale map). */
  async resyncNow(): Promise<void> {
    await this.mirror?.sync().catch(() => undefined);
  }

  /** GM: a turn ends by itself after this many seconds (null: no timer). */
  async setTurnTimer(seconds: number | null): Promise<CommandResult> {
    if (!this.client) return { ok: false, error: { code: 'NOT_JOINED', message: 'Not connected.' } };
    try {
      const ack = await this.client.setTurnTimer(this.opts.encounterId, seconds);
      return ack.ok ? { ok: true, version: this.snap.version, events: [] } : ack;
    } catch (e) {
      return { ok: false, error: { code: 'TIMEOUT', message: String(e) } };
    }
  }

  /** Cut the transport as a network failure would (tests). */
  drop(): void {
    this.client?.socket.io.engine?.close();
  }

  reconnectNow(): void {
    if (this.client && !this.client.socket.connected) this.client.socket.connect();
  }

  close(): void {
    this.closed = true;
    this.client?.close();
    this.listeners.clear();
  }
}

export type { ReachAnswer };
