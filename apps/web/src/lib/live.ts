import { FrayClient, FrayError, type EncounterMirror } from '@fray/client';
import type { ReachAck as ReachAnswer, ReachRequestMessage } from '@fray/protocol';
import type { ActionOption, Deadlines, EncounterState, LogEntry, PatchMessage, ViewerRole, WireError } from './types.js';

/**
 * One live encounter for a page, on top of `@fray/client` (docs/protocol.md): the client joins,
 * applies the server's patches and `sync`s after a gap or a reconnect; this adds what a page
 * shows: the connection status, a fatal reason (bad invite), the event log, and commands that
 * keep their `commandId` across retries so the server applies each once.
 */

export type ConnStatus = 'connecting' | 'online' | 'offline' | 'failed';

export interface LiveSnapshot {
  status: ConnStatus;
  /** why the connection cannot go on (bad or expired invite, unknown encounter) */
  fatal: WireError | null;
  role: ViewerRole | null;
  playerId: string | null;
  version: number;
  state: EncounterState | null;
  deadlines: Deadlines;
  /** the event log as this viewer may see it, oldest first, one entry per command */
  log: LogEntry[];
  /** how many times the connection came back */
  reconnects: number;
  /** commands sent and not yet acknowledged */
  inFlight: number;
}

export type CommandResult = { ok: true; version: number; events: unknown[] } | { ok: false; error: WireError };

const FATAL = ['UNAUTHORIZED', 'SESSION_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'ENCOUNTER_ARCHIVED'];
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
    state: null,
    deadlines: noDeadlines,
    log: [],
    reconnects: 0,
    inFlight: 0,
  };
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
    this.snap = { ...this.snap, ...patch, inFlight: this.inFlight };
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
    const socket = client.socket;
    socket.on('disconnect', (reason) => {
      if (this.closed) return;
      this.set({ status: 'offline' });
      // socket.io does not retry a disconnect the server made (e.g. a revoked invite): we do,
      // and a refused token then ends in `connect_error`.
      if (reason === 'io server disconnect') setTimeout(() => !this.closed && socket.connect(), 500);
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      if (this.closed) return;
      const code = err.data?.code ?? '';
      if (FATAL.includes(code)) this.fail({ code, message: err.message });
      else this.set({ status: 'offline' });
    });
    socket.io.on('reconnect', () => void this.resync(true));
    socket.on('closed', () => void this.resync(false));
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
    this.set({ status: 'online', role: m.role, playerId: m.playerId, version: m.version, state: m.state as EncounterState, deadlines: m.deadlines ?? noDeadlines });
    void this.loadLog();
  }

  private onChange(msg: PatchMessage | null): void {
    const m = this.mirror!;
    let log = this.snap.log;
    if (msg) log = [...log.filter((e) => e.seq !== msg.to), { seq: msg.to, events: msg.events }];
    this.set({ state: m.state as EncounterState, version: m.version, deadlines: m.deadlines ?? noDeadlines, log });
    if (!msg) void this.loadLog(); // a snapshot: the events in between come from the log
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

  /** The whole log as this viewer may see it (pages of 1000). */
  private async loadLog(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const entries: LogEntry[] = [];
    let afterSeq = 0;
    for (let page = 0; page < 50; page++) {
      let ack;
      try {
        ack = await client.log(this.opts.encounterId, afterSeq, 1000);
      } catch {
        return;
      }
      if (!ack.ok) return;
      entries.push(...ack.entries);
      if (ack.entries.length < 1000) break;
      afterSeq = ack.entries[ack.entries.length - 1]!.seq;
    }
    // keep the live entries that arrived while the log loaded
    const seen = new Set(entries.map((e) => e.seq));
    const merged = [...entries, ...this.snap.log.filter((e) => !seen.has(e.seq))].sort((a, b) => a.seq - b.seq);
    this.set({ log: merged });
  }

  /**
   * Send a command (without `by`: the server sets it from the token). One commandId for all
   * its attempts: a retry after a timeout or a dropped connection is applied once.
   */
  async send(command: Record<string, unknown>, commandId = newCommandId(), expectedVersion?: number): Promise<CommandResult> {
    const m = this.mirror;
    if (!m) return { ok: false, error: { code: 'NOT_JOINED', message: 'Not connected to the encounter yet.' } };
    this.inFlight += 1;
    this.set({});
    try {
      for (let attempt = 0; ; attempt++) {
        const ack = await m.command(command as never, expectedVersion === undefined ? { commandId } : { commandId, expectedVersion });
        // sent right after a reconnect, before the re-join: join again, send again
        if (!ack.ok && ack.error.code === 'NOT_JOINED' && attempt < 3) {
          await m.sync().catch(() => undefined);
          continue;
        }
        return ack as CommandResult;
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      return { ok: false, error: { code: 'TIMEOUT', message: `The server did not answer (${msg}). Check the log before trying again.` } };
    } finally {
      this.inFlight -= 1;
      this.set({});
    }
  }

  /** The legal actions of one combatant right now (from the engine's `legalActions`). */
  async actions(combatantId: string): Promise<ActionOption[]> {
    if (!this.client || !this.mirror) return [];
    const ack = await this.client.actions(this.opts.encounterId, combatantId);
    if (!ack.ok) throw new FrayError(ack.error);
    return ack.actions as ActionOption[];
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
