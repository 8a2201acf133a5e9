import { clientAddress } from './client-address.js';
import type { Socket as NetSocket } from 'node:net';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import type { Viewer } from '@fray/engine';
import {
  clientEventNames,
  clientEventSchemas,
  type ClientEventName,
  type ClientRequests,
  type CommandRequest,
  type JoinRequest,
  type LogRequest,
  type PatchMessage,
  type SyncRequest,
  type TimerRequest,
  type ActionsRequest,
  type ReachRequestMessage,
  type WireError,
} from '@fray/protocol';
import { readLogFor, rewindsFor, type EncounterHost, type Sink } from '@fray/runtime';
import { credentialRoom, principalKey, viewerOf } from './auth.js';
import { authenticateSocket } from './socket-auth.js';
import { ApiError, NotOwnerError, toWireError } from './errors.js';
import type { ServerContext } from './context.js';
import { inviteRoom, ownerUrlOf } from './owner.js';
import { ConnectError, isAck, type FrayIo, type FraySocket, type Joined, type SocketData } from './socket-types.js';
import { engineConnOf, releaseUpgradeResponse } from './transport.js';

const known = new Set<string>(clientEventNames);

export { deliverPatch } from './deliver.js';

/** socket.io: authentication, the protocol's events, validation, limits and rate limits. */
export function registerSockets(io: FrayIo, ctx: ServerContext): void {
  // during a graceful stop a new connection is refused at its first HTTP request, before any
  // handshake: at a restart thousands of clients try again every second, and a refusal by the
  // namespace's middleware (a whole websocket handshake each) took the stopping process's CPU
  io.engine.opts.allowRequest = (_req, callback) => callback(null, !ctx.stopping);
  io.use((socket, next) => {
    const auth: Partial<Record<string, unknown>> = socket.handshake.auth;
    authenticateSocket(ctx, auth.token, socket.handshake.headers)
      .then((p) => {
        if ('refused' in p) {
          ctx.logger.warn({ code: p.code, reason: p.reason, address: clientAddress(socket.request, ctx.trustProxy) }, 'socket refused');
          return next(new ConnectError(p.message, { code: p.code }));
        }
        const data = socket.data;
        data.principal = p;
        data.awaitingAcks = 0;
        data.joined = new Map();
        data.engine = engineConnOf(socket.conn);
        next();
      })
      .catch((e: unknown) => {
        ctx.logger.error({ err: String(e) }, 'socket authentication failed');
        next(new ConnectError('Authentication is unavailable.', { code: 'UNAVAILABLE' }));
      });
  });

  io.on('connection', (socket) => {
    // engine.io keeps the upgrade's HTTP request (headers, parser state, its stream) for the whole
    // session; socket.io has built `handshake` from it by now and Fray reads nothing else of it, so
    // it is let go, as socket.io's "Memory usage" guide advises: the request, its headers and its
    // stream state no longer live as long as the socket (docs/journal/performance-2026-11.md, Session 6); and so
    // does engine.io's response object for the upgrade, which held it too (Session 11)
    // (engine.io types `request` as always there: written through this wider type, no cast)
    const conn: { request: { socket?: NetSocket } | null } = socket.conn;
    releaseUpgradeResponse(conn.request?.socket);
    conn.request = null;
    trimHandshake(socket);
    const c = new Connection(socket, ctx);
    socket.data.conn = c;
    const p = socket.data.principal;
    if (p.kind === 'invite') void socket.join(inviteRoom(p.inviteId));
    // an ended session or revoked API token disconnects its sockets (on every process)
    else if (p.credentialId && p.via !== 'account-token')
      void socket.join(credentialRoom(p.via === 'session' ? 'session' : 'api-token', p.credentialId));
    c.debug({}, 'socket connected');
    // the same listener functions for every socket (socket.io and Node's emitter call them with
    // the socket as `this`): no closures per connection (docs/journal/performance-2026-11.md, Session 13)
    socket.onAny(onAnyEvent);
    for (const name of clientEventNames) socket.on(name, eventListeners[name]);
    socket.on('disconnect', onDisconnect);
  });
}

/**
 * What socket.io keeps of the upgrade request in `socket.handshake` for the socket's life: the
 * headers (about ten strings and objects), the query, the auth payload (the bearer token), the
 * time as a string. Fray reads it only while authenticating (the token, the address for the log
 * of a refusal); once connected it keeps the address and the issued time and drops the rest:
 * about 15 objects a connection, 75,000 at 5,000 connections (docs/journal/performance-2026-11.md, Session 13).
 */
export function trimHandshake(socket: Pick<Socket, 'handshake'>): void {
  const h = socket.handshake;
  h.headers = EMPTY;
  h.query = EMPTY;
  h.auth = EMPTY;
  h.url = '';
  h.time = '';
}
const EMPTY: Record<string, never> = Object.freeze({});

function onAnyEvent(this: FraySocket, event: string, ...args: unknown[]): void {
  if (known.has(event)) return;
  const ack = args.at(-1);
  this.data.conn.refuse(
    String(event).slice(0, 64),
    { code: 'UNKNOWN_EVENT', message: `Unknown event "${String(event).slice(0, 64)}". Known: ${clientEventNames.join(', ')}.` },
    ack,
  );
}

type EventListener = (this: FraySocket, ...args: unknown[]) => void;
function listenerFor(name: ClientEventName): EventListener {
  return function (this: FraySocket, ...args: unknown[]): void {
    void this.data.conn.handle(name, args);
  };
}
const eventListeners: Record<ClientEventName, EventListener> = {
  join: listenerFor('join'),
  leave: listenerFor('leave'),
  command: listenerFor('command'),
  sync: listenerFor('sync'),
  actions: listenerFor('actions'),
  reach: listenerFor('reach'),
  log: listenerFor('log'),
  timer: listenerFor('timer'),
};

/** Each event's handler, given its parsed request. */
type Handlers = { [E in ClientEventName]: (c: Connection, req: ClientRequests[E]) => unknown };

function onDisconnect(this: FraySocket, reason: string): void {
  this.data.conn.disconnected(reason);
}

/** One socket's protocol: validation, limits, rate limits and the events' handlers. */
class Connection {
  constructor(
    private readonly socket: FraySocket,
    private readonly ctx: ServerContext,
  ) {}

  private get data(): SocketData {
    return this.socket.data;
  }

  /**
   * A log line with the socket's id and principal. Not a child logger per socket: a pino child is
   * about a dozen objects kept for the socket's life, and a socket logs rarely (its joins, its
   * refusals); the fields are merged into the line instead, the same fields a child would add.
   */
  private line(level: 'debug' | 'info' | 'warn' | 'error', obj: object, msg: string): void {
    const logger = this.ctx.logger;
    if (!logger.isLevelEnabled(level)) return;
    logger[level]({ socketId: this.socket.id, principal: principalKey(this.data.principal), ...obj }, msg);
  }

  debug(obj: object, msg: string): void {
    this.line('debug', obj, msg);
  }

  refuse(event: string, error: WireError, ack: unknown, extra: Record<string, unknown> = {}): void {
    this.ctx.refusals.count(error.code);
    this.line('warn', { event, code: error.code, reason: error.message, ...extra }, 'socket message refused');
    if (isAck(ack)) ack({ ok: false, error });
    else this.socket.emit('error', { error });
  }

  async handle<E extends ClientEventName>(event: E, args: unknown[]): Promise<void> {
    const { ctx, data } = this;
    const ack = args.length > 1 ? args[args.length - 1] : undefined;
    let payload = args[0];
    if (!ctx.socketLimiter.take(this.socket.id) || !ctx.principalLimiter.take(principalKey(data.principal))) {
      return this.refuse(event, { code: 'RATE_LIMITED', message: 'Too many messages; slow down.' }, ack);
    }
    if (!isAck(ack)) {
      return this.refuse(event, { code: 'INVALID_MESSAGE', message: `"${event}" needs an acknowledgement callback.` }, undefined);
    }
    let size: number;
    try {
      size = typeof payload === 'string' ? payload.length : JSON.stringify(payload ?? null).length;
    } catch {
      size = Infinity;
    }
    if (size > ctx.limits.maxSocketMessageBytes) {
      return this.refuse(
        event,
        { code: 'PAYLOAD_TOO_LARGE', message: `Messages are limited to ${ctx.limits.maxSocketMessageBytes} bytes.` },
        ack,
        { size },
      );
    }
    if (typeof payload === 'string') {
      try {
        payload = parseJson(payload);
      } catch {
        return this.refuse(event, { code: 'INVALID_JSON', message: 'The message is not valid JSON.' }, ack);
      }
    }
    const parsed = clientEventSchemas[event].safeParse(payload);
    if (!parsed.success) return this.refuse(event, { code: 'INVALID_MESSAGE', message: z.prettifyError(parsed.error) }, ack);
    try {
      const result = await this.dispatch(event, parsed.data);
      ack(result);
    } catch (e) {
      const { wire, internal } = toWireError(e);
      if (internal) this.line('error', { event, err: e instanceof Error ? e.stack : String(e) }, 'socket handler failed');
      this.refuse(event, wire, ack);
    }
  }

  private static readonly handlers: Handlers = {
    join: (c, req) => c.join(req),
    leave: (c, req) => c.leave(req),
    command: (c, req) => c.command(req),
    sync: (c, req) => c.sync(req),
    actions: (c, req) => c.actions(req),
    reach: (c, req) => c.reach(req),
    log: (c, req) => c.readLog(req),
    timer: (c, req) => c.timer(req),
  };

  private async dispatch<E extends ClientEventName>(event: E, req: ClientRequests[E]): Promise<unknown> {
    return Connection.handlers[event](this, req);
  }

  private leave({ encounterId }: JoinRequest) {
    const j = this.data.joined.get(encounterId);
    if (j) {
      j.unsubscribe();
      this.data.joined.delete(encounterId);
    }
    return { ok: true };
  }

  private actions({ encounterId, combatantId }: ActionsRequest) {
    const j = this.joinedOrThrow(encounterId);
    return j.host.legal(j.viewer, combatantId);
  }

  private reach({ encounterId, ...rest }: ReachRequestMessage) {
    return this.joinedOrThrow(encounterId).host.reach(this.data.joined.get(encounterId)!.viewer, rest);
  }

  private async timer({ encounterId, turnSeconds }: TimerRequest) {
    const j = this.joinedOrThrow(encounterId);
    if (j.viewer.role !== 'gm') throw new ApiError('FORBIDDEN', 'Only the GM sets the turn timer.');
    await j.host.setTurnTimer(turnSeconds);
    return { ok: true };
  }

  private joinedOrThrow(encounterId: string): Joined {
    const j = this.data.joined.get(encounterId);
    if (!j) throw new ApiError('NOT_JOINED', `Join encounter "${encounterId}" first.`);
    return j;
  }

  private async authorize(encounterId: string): Promise<Viewer> {
    const p = this.data.principal;
    if (p.kind === 'invite') {
      if (p.encounterId !== encounterId) throw new ApiError('FORBIDDEN', 'This invite is for another encounter.');
      return viewerOf(p);
    }
    const rec = await this.ctx.store.getEncounter(encounterId);
    if (!rec) throw new ApiError('NOT_FOUND', `No encounter "${encounterId}".`);
    if (rec.accountId !== p.accountId) throw new ApiError('FORBIDDEN', 'This encounter belongs to another GM.');
    return { role: 'gm' };
  }

  private async subscribe(encounterId: string): Promise<{ j: Joined; fresh: ReturnType<EncounterHost['subscribe']> | null }> {
    const { data, socket } = this;
    const existing = data.joined.get(encounterId);
    if (existing && !existing.host.closed) return { j: existing, fresh: null };
    if (existing) data.joined.delete(encounterId);
    const viewer = await this.authorize(encounterId);
    const host = await this.openOrRedirect(encounterId);
    const sink: Sink = (msg: PatchMessage) => socket.emit('patch', msg);
    this.ctx.sinks.set(sink, { socket, encounterId });
    const sub = host.subscribe(viewer, sink);
    const j = { host, viewer, sink, unsubscribe: sub.unsubscribe };
    data.joined.set(encounterId, j);
    return { j, fresh: sub };
  }

  /**
   * The live host, or NOT_OWNER with the owner's advertised URL when another live process holds
   * the lease (the client reconnects there). Without an advertised URL: ENCOUNTER_BUSY as before.
   */
  private async openOrRedirect(encounterId: string): Promise<EncounterHost> {
    const { runtime, store } = this.ctx;
    try {
      return await runtime.open(encounterId);
    } catch (e) {
      if (!(e instanceof Error && e.name === 'RuntimeError' && 'code' in e && e.code === 'ENCOUNTER_BUSY') || !store.getLease) throw e;
      const lease = await store.getLease(encounterId);
      const url = lease && lease.ownerId !== runtime.options.ownerId ? ownerUrlOf(lease.ownerId) : null;
      if (!lease || !url || lease.expiresAt.getTime() <= Date.now()) throw e;
      this.line('info', { encounterId, ownerUrl: url }, 'sent to the owner');
      throw new NotOwnerError(encounterId, url);
    }
  }

  private async join({ encounterId }: JoinRequest) {
    const { j, fresh } = await this.subscribe(encounterId);
    const sub = fresh ?? { version: j.host.version, state: j.host.projectionFor(j.viewer), deadlines: j.host.deadlinesOf(j.viewer) };
    const deadlines = sub.deadlines;
    this.line('info', { encounterId, role: j.viewer.role }, 'joined');
    return {
      ok: true,
      encounterId,
      version: sub.version,
      state: sub.state,
      role: j.viewer.role,
      playerId: j.viewer.role === 'player' ? j.viewer.playerId : null,
      deadlines,
      branch: j.host.branch,
    };
  }

  private async command(req: CommandRequest) {
    const data = this.data;
    const j = this.joinedOrThrow(req.encounterId);
    if (j.viewer.role === 'spectator') throw new ApiError('FORBIDDEN', 'Spectators only watch.');
    const by = j.viewer.role === 'gm' ? ({ role: 'gm' } as const) : j.viewer;
    data.awaitingAcks += 1;
    let ack;
    try {
      ack = await j.host.submit(
        {
          commandId: req.commandId,
          command: req.command,
          by,
          ...(req.expectedVersion !== undefined ? { expectedVersion: req.expectedVersion } : {}),
          ...(req.branch !== undefined ? { branch: req.branch } : {}),
        },
        j.viewer,
      );
    } finally {
      data.awaitingAcks -= 1;
    }
    if (!ack.ok) {
      this.ctx.refusals.count(ack.error.code);
      this.line(
        'info',
        { encounterId: req.encounterId, commandId: req.commandId, type: req.command.type, code: ack.error.code, rule: ack.error.rule },
        'command refused',
      );
    } else
      this.debug(
        { encounterId: req.encounterId, commandId: req.commandId, type: req.command.type, version: ack.version },
        'command applied',
      );
    return ack;
  }

  private async sync({ encounterId, since }: SyncRequest) {
    const { j } = await this.subscribe(encounterId);
    return j.host.sync(j.viewer, since);
  }

  private async readLog({ encounterId, afterSeq, limit, branch }: LogRequest) {
    const j = this.joinedOrThrow(encounterId);
    // a branch a rewind left is projected against its own last state (docs/timeline.md)
    const entries = await readLogFor(j.host, j.viewer, {
      afterSeq: afterSeq ?? 0,
      limit: limit ?? 500,
      ...(branch !== undefined ? { branch } : {}),
    });
    // the first page says where the GM rewound, and what it undid as this viewer saw it
    return { ok: true, entries, ...(afterSeq ? {} : { rewinds: await rewindsFor(j.host, j.viewer, branch) }) };
  }

  disconnected(reason: string): void {
    const data = this.data;
    for (const j of data.joined.values()) {
      j.unsubscribe();
      this.ctx.sinks.delete(j.sink);
    }
    data.joined.clear();
    this.ctx.socketLimiter.forget(this.socket.id);
    this.debug({ reason }, 'socket disconnected');
  }
}

/** JSON.parse, its result unknown until a schema has read it. */
function parseJson(text: string): unknown {
  return JSON.parse(text);
}
