import { applyPatch, deepClone } from 'fast-json-patch';
import { io, type Socket } from 'socket.io-client';
import type { ActionOption, Deadlines, EncounterState, LogEntry, PatchMessage, ViewerRole, WireError } from './types.js';

/**
 * One live encounter over socket.io (docs/protocol.md): join, apply patches, detect gaps and
 * `sync`, rejoin after a dropped connection, and send commands with a stable `commandId` so a
 * retried command is applied once.
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

interface Pending {
  commandId: string;
  command: Record<string, unknown>;
  attempts: number;
  resolve: (r: CommandResult) => void;
}

const ACK_TIMEOUT_MS = 6000;
const MAX_ATTEMPTS = 4;

let counter = 0;
/** A command id unique to this page (the server's pattern: letters, digits, `. _ : -`). */
export function newCommandId(): string {
  counter += 1;
  const rand = Math.floor(Math.random() * 2 ** 32).toString(36);
  return `w-${Date.now().toString(36)}-${rand}-${counter}`;
}

type AckFailure = { ok: false; error: WireError };
type JoinAck = { ok: true; version: number; state: unknown; role: ViewerRole; playerId: string | null; deadlines?: Deadlines } | AckFailure;
type SyncAck =
  | { ok: true; kind: 'patches'; version: number; patches: PatchMessage[] }
  | { ok: true; kind: 'snapshot'; version: number; state: unknown; deadlines?: Deadlines }
  | AckFailure;
type LogAck = { ok: true; entries: LogEntry[] } | AckFailure;
type ActionsAck = { ok: true; version: number; actions: unknown[] } | AckFailure;

const noDeadlines: Deadlines = { reaction: null, turn: null };

export interface LiveOptions {
  token: string;
  encounterId: string;
  /** server origin; defaults to the page's */
  url?: string;
}

export class Live {
  private socket: Socket;
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
  private pending = new Map<string, Pending>();
  private joined = false;
  private syncing = false;
  private everJoined = false;
  private closed = false;

  constructor(readonly opts: LiveOptions) {
    const socketOpts = { auth: { token: opts.token }, reconnectionDelay: 300, reconnectionDelayMax: 2000 };
    this.socket = opts.url ? io(opts.url, socketOpts) : io(socketOpts);
    this.socket.on('connect', () => void this.onConnect());
    this.socket.on('disconnect', (reason) => {
      this.joined = false;
      if (this.closed) return;
      // A server-side disconnect is not retried by socket.io: retry ourselves.
      if (reason === 'io server disconnect') setTimeout(() => this.socket.connect(), 500);
      this.set({ status: 'offline' });
    });
    this.socket.on('connect_error', (err: Error & { data?: { error?: WireError; code?: string } }) => {
      const e = err.data?.error ?? (err.data?.code ? { code: err.data.code, message: err.message } : null);
      if (!this.socket.active || (e && ['UNAUTHORIZED', 'FORBIDDEN'].includes(e.code))) {
        this.fail(e ?? { code: 'UNAUTHORIZED', message: err.message || 'The server refused the connection.' });
      } else {
        this.set({ status: 'offline' });
      }
    });
    this.socket.on('patch', (msg: PatchMessage) => this.onPatch(msg));
    this.socket.on('closed', () => {
      // The encounter moved or went idle: join again.
      this.joined = false;
      void this.onConnect();
    });
  }

  getSnapshot = (): LiveSnapshot => this.snap;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private set(patch: Partial<LiveSnapshot>): void {
    this.snap = { ...this.snap, ...patch, inFlight: this.pending.size };
    for (const fn of this.listeners) fn();
  }

  private fail(error: WireError): void {
    this.closed = true;
    this.socket.close();
    this.set({ status: 'failed', fatal: error });
  }

  private async onConnect(): Promise<void> {
    const ack = (await this.socket.emitWithAck('join', { encounterId: this.opts.encounterId })) as JoinAck;
    if (!ack.ok) {
      if (['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'ENCOUNTER_ARCHIVED'].includes(ack.error.code)) return this.fail(ack.error);
      this.set({ status: 'offline' });
      setTimeout(() => { if (this.socket.connected && !this.joined) void this.onConnect(); }, 1000);
      return;
    }
    this.joined = true;
    const reconnects = this.everJoined ? this.snap.reconnects + 1 : 0;
    this.everJoined = true;
    this.set({
      status: 'online',
      role: ack.role,
      playerId: ack.playerId,
      version: ack.version,
      state: ack.state as EncounterState,
      deadlines: ack.deadlines ?? noDeadlines,
      reconnects,
    });
    void this.loadLog();
    // Commands that never got an answer go again with the same id: the server applies each once.
    for (const p of this.pending.values()) this.trySend(p);
  }

  /** The whole log as this viewer may see it (pages of 1000). */
  private async loadLog(): Promise<void> {
    const entries: LogEntry[] = [];
    let afterSeq: number | undefined;
    for (let page = 0; page < 50; page++) {
      const req: { encounterId: string; afterSeq?: number; limit: number } = { encounterId: this.opts.encounterId, limit: 1000 };
      if (afterSeq !== undefined) req.afterSeq = afterSeq;
      let ack: LogAck;
      try {
        ack = (await this.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('log', req)) as LogAck;
      } catch {
        return;
      }
      if (!ack.ok) return;
      entries.push(...ack.entries);
      if (ack.entries.length < 1000) break;
      afterSeq = ack.entries[ack.entries.length - 1]!.seq;
    }
    // Keep the live entries that arrived while the log loaded.
    const seen = new Set(entries.map((e) => e.seq));
    const merged = [...entries, ...this.snap.log.filter((e) => !seen.has(e.seq))].sort((a, b) => a.seq - b.seq);
    this.set({ log: merged });
  }

  private onPatch(msg: PatchMessage): void {
    if (msg.encounterId !== this.opts.encounterId || !this.joined || !this.snap.state) return;
    if (msg.to <= this.snap.version) return; // already have it
    if (msg.from !== this.snap.version) {
      void this.sync();
      return;
    }
    this.applyOne(msg);
  }

  private applyOne(msg: PatchMessage): void {
    const state = applyPatch(deepClone(this.snap.state) as EncounterState, msg.ops as never, false, true).newDocument as EncounterState;
    const log = msg.events.length > 0 || msg.ops.length > 0 ? [...this.snap.log.filter((e) => e.seq !== msg.to), { seq: msg.to, events: msg.events }] : this.snap.log;
    this.set({ state, version: msg.to, deadlines: msg.deadlines ?? this.snap.deadlines, log });
  }

  /** Catch up after a gap: the missed patches, or a fresh snapshot. */
  async sync(): Promise<void> {
    if (this.syncing || !this.joined) return;
    this.syncing = true;
    try {
      const ack = (await this.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('sync', { encounterId: this.opts.encounterId, since: this.snap.version })) as SyncAck;
      if (!ack.ok) return;
      if (ack.kind === 'snapshot') {
        this.set({ state: ack.state as EncounterState, version: ack.version, deadlines: ack.deadlines ?? this.snap.deadlines });
        void this.loadLog();
      } else {
        for (const p of ack.patches) if (p.from === this.snap.version) this.applyOne(p);
      }
    } catch {
      // timed out: the next patch or reconnect tries again
    } finally {
      this.syncing = false;
    }
  }

  /** Send a command (without `by`: the server sets it from the token). */
  send(command: Record<string, unknown>): Promise<CommandResult> {
    return new Promise((resolve) => {
      const p: Pending = { commandId: newCommandId(), command, attempts: 0, resolve };
      this.pending.set(p.commandId, p);
      this.set({});
      this.trySend(p);
    });
  }

  private trySend(p: Pending): void {
    if (!this.socket.connected || !this.joined) return; // goes after the next join
    p.attempts += 1;
    const req = { encounterId: this.opts.encounterId, commandId: p.commandId, command: p.command };
    this.socket.timeout(ACK_TIMEOUT_MS).emit('command', req, (err: Error | null, ack: CommandResult) => {
      if (!this.pending.has(p.commandId)) return;
      if (err) {
        if (p.attempts >= MAX_ATTEMPTS) {
          this.settle(p, { ok: false, error: { code: 'TIMEOUT', message: 'The server did not answer. Check the log before trying again.' } });
        } else {
          this.trySend(p); // same commandId: applied once
        }
        return;
      }
      this.settle(p, ack);
    });
  }

  private settle(p: Pending, r: CommandResult): void {
    this.pending.delete(p.commandId);
    this.set({});
    p.resolve(r);
  }

  /** The legal actions of one combatant right now (from the engine's `legalActions`). */
  async actions(combatantId: string): Promise<ActionOption[]> {
    if (!this.joined) return [];
    const ack = (await this.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('actions', { encounterId: this.opts.encounterId, combatantId })) as ActionsAck;
    if (!ack.ok) throw Object.assign(new Error(ack.error.message), { code: ack.error.code });
    return ack.actions as ActionOption[];
  }

  /** Cut the transport as a network failure would (tests, and the "reconnect" button). */
  drop(): void {
    this.socket.io.engine?.close();
  }

  reconnectNow(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  close(): void {
    this.closed = true;
    this.socket.close();
    this.listeners.clear();
  }
}
