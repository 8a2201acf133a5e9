import jsonpatch, { type Operation } from 'fast-json-patch';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type {
  ActionsAck,
  ClientCommand,
  ClientToServerEvents,
  CommandAck,
  Deadlines,
  JoinAck,
  LogAck,
  PatchMessage,
  ServerToClientEvents,
  SimpleAck,
  SyncAck,
  ViewerRole,
  WireError,
} from '@fray/protocol';

export type * from '@fray/protocol';

export type FraySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export class FrayError extends Error {
  readonly code: string;
  readonly rule: string | undefined;
  /** NOT_OWNER: the URL of the server process that runs the encounter */
  readonly ownerUrl: string | undefined;
  constructor(error: WireError & { ownerUrl?: string }) {
    super(error.message);
    this.name = 'FrayError';
    this.code = error.code;
    this.rule = error.rule;
    this.ownerUrl = typeof error.ownerUrl === 'string' ? error.ownerUrl : undefined;
  }
}

function newCommandId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export interface ClientOptions {
  /** how long to wait for an ack before retrying (ms) */
  ackTimeoutMs?: number;
  /** how many times a command is retried (same commandId) across drops */
  retries?: number;
  socket?: Partial<ManagerOptions & SocketOptions>;
}

type Listener = (mirror: EncounterMirror, msg: PatchMessage | null) => void;

/**
 * The client's copy of one encounter: the state as the server projected it for this viewer,
 * kept current by the server's patches (RFC 6902), resynchronised after a gap or a reconnect.
 */
export class EncounterMirror {
  version: number;
  state: unknown;
  deadlines: Deadlines;
  readonly role: ViewerRole;
  readonly playerId: string | null;
  /** patches applied, bytes of patch JSON received (for benchmarks) */
  readonly stats = { patches: 0, snapshots: 1 };
  private readonly listeners = new Set<Listener>();
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly client: FrayClient,
    readonly encounterId: string,
    join: Extract<JoinAck, { ok: true }>,
  ) {
    this.version = join.version;
    this.state = join.state;
    this.deadlines = join.deadlines;
    this.role = join.role;
    this.playerId = join.playerId;
  }

  /** Called on every change (a patch, or a snapshot with `msg` null). Returns an unsubscribe. */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(msg: PatchMessage | null): void {
    for (const l of this.listeners) l(this, msg);
  }

  /** Apply a server patch; a gap triggers a sync. */
  receive(msg: PatchMessage): void {
    if (msg.to <= this.version) return; // already have it
    if (msg.from !== this.version) {
      void this.sync();
      return;
    }
    this.state = jsonpatch.applyPatch(this.state, msg.ops as Operation[], false, true).newDocument;
    this.version = msg.to;
    this.deadlines = msg.deadlines;
    this.stats.patches += 1;
    this.emit(msg);
  }

  /** Catch up from `version` (patches, or a snapshot when too far behind); re-subscribes. */
  sync(): Promise<void> {
    if (!this.syncing) {
      this.syncing = (async () => {
        try {
          const ack = await this.client.request('sync', { encounterId: this.encounterId, since: this.version });
          if (!ack.ok) throw new FrayError(ack.error);
          if (ack.kind === 'snapshot') {
            if (ack.version >= this.version) {
              this.state = ack.state;
              this.version = ack.version;
              this.deadlines = ack.deadlines;
              this.stats.snapshots += 1;
              this.emit(null);
            }
          } else {
            for (const p of ack.patches) this.receive(p);
          }
        } finally {
          this.syncing = null;
        }
      })();
    }
    return this.syncing;
  }

  /** Send a command for this encounter (see FrayClient.command). */
  command(command: ClientCommand, opts: { expectedVersion?: number; commandId?: string } = {}): Promise<CommandAck> {
    return this.client.command(this.encounterId, command, opts);
  }
}

/**
 * A typed socket.io client for Fray. Connect with a GM account token or an invite token.
 * Commands carry a `commandId`; a retry after a dropped connection reuses it, so the server
 * applies the command once.
 */
export class FrayClient {
  readonly socket: FraySocket;
  readonly mirrors = new Map<string, EncounterMirror>();
  private readonly ackTimeoutMs: number;
  private readonly retries: number;

  private constructor(url: string, token: string, opts: ClientOptions) {
    this.ackTimeoutMs = opts.ackTimeoutMs ?? 10_000;
    this.retries = opts.retries ?? 5;
    this.socket = io(url, { auth: { token }, transports: ['websocket'], reconnectionDelay: 200, reconnectionDelayMax: 2000, ...opts.socket });
    this.socket.on('patch', (msg) => this.mirrors.get(msg.encounterId)?.receive(msg));
    // the encounter left the server process (lease moved, shutdown): catch up again shortly
    this.socket.on('closed', ({ encounterId }) => {
      const m = this.mirrors.get(encounterId);
      if (m) setTimeout(() => void m.sync().catch(() => {}), 500);
    });
    this.socket.io.on('reconnect', () => {
      for (const m of this.mirrors.values()) void m.sync().catch(() => {});
    });
  }

  /** Connect; rejects with the server's reason (e.g. UNAUTHORIZED) when it refuses. */
  static connect(url: string, token: string, opts: ClientOptions = {}): Promise<FrayClient> {
    const client = new FrayClient(url, token, opts);
    return new Promise((resolve, reject) => {
      const ok = () => {
        client.socket.off('connect_error', bad);
        resolve(client);
      };
      const bad = (err: Error & { data?: { code?: string } }) => {
        client.socket.off('connect', ok);
        client.socket.disconnect();
        reject(new FrayError({ code: err.data?.code ?? 'UNAVAILABLE', message: err.message }));
      };
      client.socket.once('connect', ok);
      client.socket.once('connect_error', bad);
    });
  }

  /**
   * Connect to `url` (e.g. the load balancer) and join an encounter, following NOT_OWNER: when
   * another server process runs the encounter, reconnect to the URL it advertises and join there
   * (at most `maxHops` times).
   */
  static async connectAndJoin(url: string, token: string, encounterId: string, opts: ClientOptions & { maxHops?: number } = {}): Promise<{ client: FrayClient; mirror: EncounterMirror; url: string }> {
    let at = url;
    for (let hop = 0; ; hop++) {
      const client = await FrayClient.connect(at, token, opts);
      try {
        return { client, mirror: await client.join(encounterId), url: at };
      } catch (e) {
        client.close();
        if (!(e instanceof FrayError) || e.code !== 'NOT_OWNER' || !e.ownerUrl || hop >= (opts.maxHops ?? 3)) throw e;
        at = e.ownerUrl;
      }
    }
  }

  /** Emit an event and wait for its ack (waits for a reconnect first when disconnected). */
  async request<E extends keyof ClientToServerEvents>(
    event: E,
    payload: Parameters<ClientToServerEvents[E]>[0],
  ): Promise<Parameters<Parameters<ClientToServerEvents[E]>[1]>[0]> {
    if (!this.socket.connected) await this.waitConnected();
    // socket.io's typed emitWithAck cannot see through the generic event here
    const s = this.socket.timeout(this.ackTimeoutMs) as unknown as { emitWithAck(e: string, p: unknown): Promise<unknown> };
    return (await s.emitWithAck(event, payload)) as Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];
  }

  private waitConnected(): Promise<void> {
    return new Promise((resolve) => this.socket.once('connect', () => resolve()));
  }

  async join(encounterId: string): Promise<EncounterMirror> {
    const ack = (await this.request('join', { encounterId })) as JoinAck;
    if (!ack.ok) throw new FrayError(ack.error);
    const mirror = new EncounterMirror(this, encounterId, ack);
    this.mirrors.set(encounterId, mirror);
    return mirror;
  }

  async leave(encounterId: string): Promise<void> {
    this.mirrors.delete(encounterId);
    const ack = (await this.request('leave', { encounterId })) as SimpleAck;
    if (!ack.ok) throw new FrayError(ack.error);
  }

  /**
   * Send a command. Resolves with the server's ack (`ok: false` for a refused command); retries
   * with the same commandId when the connection drops before the ack.
   */
  async command(encounterId: string, command: ClientCommand, opts: { expectedVersion?: number; commandId?: string } = {}): Promise<CommandAck> {
    const commandId = opts.commandId ?? newCommandId();
    const req = { encounterId, commandId, command, ...(opts.expectedVersion !== undefined ? { expectedVersion: opts.expectedVersion } : {}) };
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      try {
        return (await this.request('command', req)) as CommandAck;
      } catch (e) {
        lastError = e; // timeout or drop: the same commandId again, applied once by the server
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  async sync(encounterId: string, since: number): Promise<SyncAck> {
    return (await this.request('sync', { encounterId, since })) as SyncAck;
  }

  async actions(encounterId: string, combatantId: string): Promise<ActionsAck> {
    return (await this.request('actions', { encounterId, combatantId })) as ActionsAck;
  }

  async log(encounterId: string, afterSeq = 0, limit?: number): Promise<LogAck> {
    return (await this.request('log', { encounterId, afterSeq, ...(limit ? { limit } : {}) })) as LogAck;
  }

  /** GM: set (or clear with null) the turn timer in seconds. */
  async setTurnTimer(encounterId: string, turnSeconds: number | null): Promise<SimpleAck> {
    return (await this.request('timer', { encounterId, turnSeconds })) as SimpleAck;
  }

  close(): void {
    this.socket.disconnect();
  }
}
