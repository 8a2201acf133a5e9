import { io, type Socket } from 'socket.io-client';
import type {
  ActionsAck,
  ReachAck,
  ReachRequestMessage,
  ClientCommand,
  ClientToServerEvents,
  CommandAck,
  LogAck,
  SimpleAck,
  SyncAck,
} from '@fray/protocol';
import { FrayError } from './errors.js';
import { contributeDice } from './contribute.js';
import { EncounterMirror } from './mirror.js';
import { newCommandId, type ClientOptions, type FraySocket } from './options.js';
import { whenConnected } from './connection.js';

export type { ClientOptions, FraySocket } from './options.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Codes after which a command may be sent again (same commandId) once the encounter is joined again. */
const MOVED = new Set(['NOT_JOINED', 'UNAVAILABLE', 'ENCOUNTER_BUSY', 'NOT_OWNER']);

/**
 * A typed socket.io client for Fray. Connect with a GM account token or an invite token.
 * Commands carry a `commandId`; a retry after a dropped connection reuses it, so the server
 * applies the command once.
 *
 * With several server processes (docs/scaling.md) the client follows its encounter: on
 * `closed` { reason: "shutdown" }, or when the process it is on cannot be reached, it connects
 * again through `entryUrl` (the load balancer), follows `NOT_OWNER` to the owner, and re-`sync`s
 * every mirror there (`moveTo`). Use one FrayClient per encounter when there are several
 * processes: the encounters of one client may live on different processes.
 */
export class FrayClient {
  /** the current socket (replaced when the client moves to another server process) */
  socket: FraySocket;
  readonly mirrors = new Map<string, EncounterMirror>();
  /** the server process this client is connected to */
  url: string;
  /** where the client goes back to when its process goes away (the load balancer) */
  readonly entryUrl: string;
  /** how many times this client moved to another process (for tests and diagnostics) */
  moves = 0;
  private readonly ackTimeoutMs: number;
  private readonly retries: number;
  private readonly token: string;
  private readonly opts: ClientOptions;
  private closedByUser = false;
  private moving: Promise<void> | null = null;
  private readonly rejoining = new Map<string, Promise<void>>();
  /** the socket each encounter's sync is on its way on (sent, not answered yet) */
  private readonly syncsInFlight = new Map<string, FraySocket>();
  private readonly waiters = new Set<{ resolve: () => void; reject: (e: Error) => void }>();
  private readonly socketWatchers: Array<(socket: FraySocket) => void> = [];

  private constructor(url: string, token: string, opts: ClientOptions) {
    this.ackTimeoutMs = opts.ackTimeoutMs ?? 10_000;
    this.retries = opts.retries ?? 5;
    this.token = token;
    this.opts = opts;
    this.url = url;
    this.entryUrl = opts.entryUrl ?? url;
    this.socket = this.open(url);
  }

  private open(url: string): FraySocket {
    const socket: FraySocket = io(url, {
      auth: { token: this.token },
      transports: ['websocket'],
      // a restarted process is tried at least about every second (socket.io adds up to 50 % jitter)
      reconnectionDelay: 200,
      reconnectionDelayMax: 1000,
      ...this.opts.socket,
    });
    for (const fn of this.socketWatchers) fn(socket);
    const current = () => socket === this.socket;
    socket.on('patch', (msg) => {
      if (current()) this.mirrors.get(msg.encounterId)?.receive(msg);
    });
    socket.on('deadlines', (msg) => {
      if (current()) this.mirrors.get(msg.encounterId)?.receiveDeadlines(msg);
    });
    let connectedBefore = false;
    socket.on('connect', () => {
      if (!current()) return;
      // connected again (socket.io's reconnection, or ours after a refusal by the middleware, which
      // socket.io's 'reconnect' missed): every encounter is joined again before the waiting commands go
      if (connectedBefore) for (const id of this.mirrors.keys()) void this.rejoin(id).catch(() => {});
      connectedBefore = true;
      // a move wakes the waiting commands once its syncs are sent (`move`): sent first, a command
      // would overtake them and be refused NOT_JOINED
      if (!this.moving) this.wakeWaiters();
    });
    // the encounter left the server process
    socket.on('closed', ({ encounterId, reason }) => {
      if (!current() || !this.mirrors.has(encounterId)) return;
      // a planned stop released the lease: go through the entry URL to whoever takes it now
      if (reason === 'shutdown') void this.moveTo(this.entryUrl).catch(() => {});
      // the GM deleted it: nothing to join again
      else if (reason === 'deleted') this.mirrors.delete(encounterId);
      // lease lost, database error: join again (NOT_OWNER sends us on; a down database is retried)
      else void this.rejoin(encounterId).catch(() => {});
    });
    // a refusal by the server's middleware ends socket.io's own reconnection: UNAVAILABLE (the
    // database did not answer the token lookup, the process is stopping) is tried again shortly;
    // UNAUTHORIZED (a revoked token), ENCOUNTER_DELETED are handed to whoever waits for the connection
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      if (!current() || socket.active || this.closedByUser) return;
      const code = err.data?.code;
      if (code === 'UNAUTHORIZED' || code === 'ENCOUNTER_DELETED') {
        for (const w of this.waiters) w.reject(new FrayError({ code, message: err.message }));
        this.waiters.clear();
        return;
      }
      setTimeout(
        () => {
          if (current() && !this.closedByUser && !socket.connected && !socket.active) socket.connect();
        },
        500 + Math.floor(Math.random() * 500),
      );
    });
    // the process is unreachable (killed, gone): after a few attempts, back to the entry URL
    socket.io.on('reconnect_attempt', (attempt) => {
      if (current() && attempt >= 3 && url !== this.entryUrl) void this.moveTo(this.entryUrl).catch(() => {});
    });
    return socket;
  }

  /**
   * Calls `fn` with the current socket now and with every socket the client opens later (a move
   * to another process replaces the socket): a page watches the real transport through it.
   */
  onSocket(fn: (socket: FraySocket) => void): void {
    this.socketWatchers.push(fn);
    fn(this.socket);
  }

  /** Connect; rejects with the server's reason (e.g. UNAUTHORIZED) when it refuses. */
  static connect(url: string, token: string, opts: ClientOptions = {}): Promise<FrayClient> {
    const client = new FrayClient(url, token, opts);
    return whenConnected(client.socket, url, Infinity).then(
      () => client,
      (e: unknown) => {
        client.close();
        throw e;
      },
    );
  }

  /**
   * Connect to `url` (e.g. the load balancer) and join an encounter, following NOT_OWNER: when
   * another server process runs the encounter, reconnect to the URL it advertises and join there
   * (at most `maxHops` times). `url` stays the client's `entryUrl`.
   */
  static async connectAndJoin(
    url: string,
    token: string,
    encounterId: string,
    opts: ClientOptions & { maxHops?: number } = {},
  ): Promise<{ client: FrayClient; mirror: EncounterMirror; url: string }> {
    let at = url;
    for (let hop = 0; ; hop++) {
      const client = await FrayClient.connect(at, token, { entryUrl: url, ...opts });
      try {
        return { client, mirror: await client.join(encounterId), url: at };
      } catch (e) {
        client.close();
        if (!(e instanceof FrayError) || e.code !== 'NOT_OWNER' || !e.ownerUrl || hop >= (opts.maxHops ?? 3)) throw e;
        at = e.ownerUrl;
      }
    }
  }

  /**
   * Move to another server process: a new socket at `url`, then every mirror re-`sync`ed there
   * (it catches up from its version). `NOT_OWNER` is followed; a process that refuses or cannot
   * be reached sends the client back to `entryUrl`, with a growing pause (up to 1 s), until it
   * succeeds or the client is closed. Concurrent calls share one move.
   */
  moveTo(url: string): Promise<void> {
    this.moving ??= this.move(url).finally(() => (this.moving = null));
    return this.moving;
  }

  private async move(first: string): Promise<void> {
    let target = first;
    for (let attempt = 0; !this.closedByUser; attempt++) {
      // at most a second apart: a process restarting at the same address is found within a second of listening
      if (attempt > 0) await sleep(Math.min(1000, 100 * 2 ** Math.min(attempt, 5)));
      if (this.closedByUser) break;
      const old = this.socket;
      this.url = target;
      this.socket = this.open(target);
      old.removeAllListeners();
      old.io.removeAllListeners();
      old.disconnect();
      try {
        await whenConnected(this.socket, target, this.ackTimeoutMs, true);
        await this.syncAllHere();
        this.moves += 1;
        return;
      } catch (e) {
        // NOT_OWNER: the owner's URL; anything else (refused, unreachable, shutting down, the
        // lease not yet free after a crash): back to the entry URL and try again
        target = e instanceof FrayError && e.code === 'NOT_OWNER' && e.ownerUrl ? e.ownerUrl : this.entryUrl;
      }
    }
    throw new FrayError({ code: 'UNAVAILABLE', message: 'The client was closed.' });
  }

  /**
   * Every mirror re-`sync`ed on the socket a move just connected, the syncs sent before the waiting
   * commands are woken (sent first, a command would overtake them and be refused NOT_JOINED). A
   * process still loading the encounters (UNAVAILABLE, or no answer within the ack timeout) is asked
   * again on the same socket, with a growing pause, while it stays connected: a new connection
   * would only queue behind the same loads.
   */
  private async syncAllHere(): Promise<void> {
    const socket = this.socket;
    for (let attempt = 0; ; attempt++) {
      const syncs = [...this.mirrors.values()].map((m) => m.sync());
      if (attempt === 0) this.wakeWaiters();
      try {
        await Promise.all(syncs);
        return;
      } catch (e) {
        const busy = !(e instanceof FrayError) || e.code === 'UNAVAILABLE' || e.code === 'ENCOUNTER_BUSY';
        if (!busy || this.closedByUser || socket !== this.socket || !socket.connected || attempt >= this.retries) throw e;
        await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt + 1, 5)));
      }
    }
  }

  /**
   * Join an encounter again on the current socket (after `closed`, a reconnect, or NOT_JOINED),
   * retried with a growing pause while the server answers UNAVAILABLE (e.g. its database is
   * down); NOT_OWNER moves the client to the owner.
   */
  private rejoin(encounterId: string): Promise<void> {
    let p = this.rejoining.get(encounterId);
    if (!p) {
      p = (async () => {
        for (let attempt = 0; !this.closedByUser; attempt++) {
          if (attempt > 0) await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
          if (this.moving) return this.moving;
          const m = this.mirrors.get(encounterId);
          if (!m) return;
          try {
            await m.sync();
            return;
          } catch (e) {
            if (e instanceof FrayError && e.code === 'NOT_OWNER' && e.ownerUrl) return this.moveTo(e.ownerUrl);
            if (e instanceof FrayError && !MOVED.has(e.code)) throw e;
          }
        }
      })().finally(() => this.rejoining.delete(encounterId));
      this.rejoining.set(encounterId, p);
    }
    return p;
  }

  /** Emit an event and wait for its ack (waits for a reconnect first when disconnected). */
  async request<E extends keyof ClientToServerEvents>(
    event: E,
    payload: Parameters<ClientToServerEvents[E]>[0],
  ): Promise<Parameters<Parameters<ClientToServerEvents[E]>[1]>[0]> {
    while (!this.socket.connected) await this.waitConnected();
    // socket.io's typed emitWithAck cannot see through the generic event E: through its untyped
    // view (the same socket), whose ack is what ClientToServerEvents[E] answers
    const socket = this.socket;
    const untyped: Socket = socket;
    const syncOf =
      event === 'sync' && typeof payload === 'object' && payload !== null && 'encounterId' in payload ? String(payload.encounterId) : null;
    if (syncOf === null) return untyped.timeout(this.ackTimeoutMs).emitWithAck(event, payload);
    this.syncsInFlight.set(syncOf, socket);
    try {
      return await untyped.timeout(this.ackTimeoutMs).emitWithAck(event, payload);
    } finally {
      if (this.syncsInFlight.get(syncOf) === socket) this.syncsInFlight.delete(syncOf);
    }
  }

  private wakeWaiters(): void {
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
  }

  private waitConnected(): Promise<void> {
    if (this.closedByUser) return Promise.reject(new FrayError({ code: 'UNAVAILABLE', message: 'The client was closed.' }));
    return new Promise((resolve, reject) => this.waiters.add({ resolve, reject }));
  }

  async join(encounterId: string): Promise<EncounterMirror> {
    const ack = await this.request('join', { encounterId });
    if (!ack.ok) throw new FrayError(ack.error);
    const mirror = new EncounterMirror(this, encounterId, ack);
    this.mirrors.set(encounterId, mirror);
    // a refused contribution (the dice were sealed meanwhile) changes nothing
    if (this.opts.contributeDice !== false) void contributeDice(mirror).catch(() => {});
    return mirror;
  }

  async leave(encounterId: string): Promise<void> {
    this.mirrors.delete(encounterId);
    const ack = await this.request('leave', { encounterId });
    if (!ack.ok) throw new FrayError(ack.error);
  }

  /**
   * Send a command. Resolves with the server's ack (`ok: false` for a refused command); retries
   * with the same commandId when the connection drops before the ack.
   */
  async command(
    encounterId: string,
    command: ClientCommand,
    opts: { expectedVersion?: number; commandId?: string; branch?: number } = {},
  ): Promise<CommandAck> {
    const commandId = opts.commandId ?? newCommandId();
    const branch = opts.branch ?? this.mirrors.get(encounterId)?.branch;
    const req = {
      encounterId,
      commandId,
      command,
      ...(opts.expectedVersion !== undefined ? { expectedVersion: opts.expectedVersion } : {}),
      ...(branch !== undefined ? { branch } : {}),
    };
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      try {
        await this.joinedAgain(encounterId);
        const ack = await this.request('command', req);
        // the encounter moved (another process, a shutdown): once the client has followed it,
        // the same commandId again (never applied twice: the log refuses a reused id)
        if (!ack.ok && MOVED.has(ack.error.code) && this.mirrors.has(encounterId) && attempt < this.retries) {
          const following =
            this.moving ??
            this.rejoining.get(encounterId) ??
            (ack.error.code === 'NOT_JOINED' || ack.error.code === 'UNAVAILABLE' ? this.rejoin(encounterId) : null);
          if (following) {
            // bounded: while the database is down the refusal comes back to the caller
            await Promise.race([following.catch(() => {}), sleep(this.ackTimeoutMs)]);
            continue;
          }
        }
        return ack;
      } catch (e) {
        lastError = e; // timeout or drop: the same commandId again, applied once by the server
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  /**
   * Once connected, wait for the encounter to be joined again if a rejoin or a move is under way
   * (after a reconnect or a restart) and its sync has not been sent on this socket yet: a command
   * sent before it would only be refused NOT_JOINED, and
   * thousands of clients doing so at a restart load the server that is catching up. Bounded by
   * the ack timeout, like the wait after a refusal.
   */
  private async joinedAgain(encounterId: string): Promise<void> {
    while (!this.socket.connected) await this.waitConnected();
    // the rejoin's sync is on its way on this socket: a command behind it is served after it (the
    // server waits for a join under way), a round trip sooner than after its answer
    if (this.syncsInFlight.get(encounterId) === this.socket) return;
    const following = this.moving ?? this.rejoining.get(encounterId);
    if (following) await Promise.race([following.catch(() => {}), sleep(this.ackTimeoutMs)]);
  }

  async sync(encounterId: string, since: number): Promise<SyncAck> {
    return this.request('sync', { encounterId, since });
  }

  /** Where a combatant can go with a movement option (`reach`): read-only, nothing changes. */
  async reach(req: ReachRequestMessage): Promise<ReachAck> {
    return this.request('reach', req);
  }

  async actions(encounterId: string, combatantId: string): Promise<ActionsAck> {
    return this.request('actions', { encounterId, combatantId });
  }

  async log(encounterId: string, afterSeq = 0, limit?: number): Promise<LogAck> {
    return this.request('log', { encounterId, afterSeq, ...(limit ? { limit } : {}) });
  }

  /** GM: set (or clear with null) the turn timer in seconds. */
  async setTurnTimer(encounterId: string, turnSeconds: number | null): Promise<SimpleAck> {
    return this.request('timer', { encounterId, turnSeconds });
  }

  close(): void {
    this.closedByUser = true;
    for (const w of this.waiters) w.reject(new FrayError({ code: 'UNAVAILABLE', message: 'The client was closed.' }));
    this.waiters.clear();
    this.socket.disconnect();
  }
}
