import { z } from 'zod';
import type { Viewer } from '@fray/engine';
import {
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
import { principalKey, viewerOf } from './auth.js';
import { whyMissing } from './deleted.js';
import { ApiError, NotOwnerError, toWireError } from './errors.js';
import type { ServerContext } from './context.js';
import { ownerUrlOf } from './owner.js';
import { isAck, type FraySocket, type Joined, type SocketData } from './socket-types.js';

/** Each event's handler, given its parsed request. */
type Handlers = { [E in ClientEventName]: (c: Connection, req: ClientRequests[E]) => unknown };

/** One socket's protocol: validation, limits, rate limits and the events' handlers. */
export class Connection {
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

  private async actions({ encounterId, combatantId }: ActionsRequest) {
    const j = await this.joinedOrThrow(encounterId);
    return j.host.legal(j.viewer, combatantId);
  }

  private async reach({ encounterId, ...rest }: ReachRequestMessage) {
    const j = await this.joinedOrThrow(encounterId);
    return j.host.reach(j.viewer, rest);
  }

  private async timer({ encounterId, turnSeconds }: TimerRequest) {
    const j = await this.joinedOrThrow(encounterId);
    if (j.viewer.role !== 'gm') throw new ApiError('FORBIDDEN', 'Only the GM sets the turn timer.');
    await j.host.setTurnTimer(turnSeconds);
    return { ok: true };
  }

  /**
   * The encounter this socket joined; a join of it still under way is waited for (a client sends
   * its waiting commands once it has rejoined after a reconnect, but gives up waiting after its ack
   * timeout: a command that overtakes a slow rejoin is served after it, not refused NOT_JOINED).
   */
  private async joinedOrThrow(encounterId: string): Promise<Joined> {
    const pending = this.data.joining.get(encounterId);
    if (pending) return (await pending).j;
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
    if (!rec) throw await whyMissing(this.ctx, encounterId, new ApiError('NOT_FOUND', `No encounter "${encounterId}".`), p.accountId);
    if (rec.accountId !== p.accountId) throw new ApiError('FORBIDDEN', 'This encounter belongs to another GM.');
    return { role: 'gm' };
  }

  /**
   * Subscribe this socket to an encounter, once: a join or sync that arrives while another is
   * under way for the same encounter (a client's rejoin after a restart, retried when its ack timed
   * out while the process was loading, or a sync after a patch gap) waits for that one instead of
   * subscribing a second sink (which would have received every patch twice until the socket left).
   */
  private async subscribe(encounterId: string): Promise<{ j: Joined; fresh: ReturnType<EncounterHost['subscribe']> | null }> {
    const { data } = this;
    const pending = data.joining.get(encounterId);
    if (pending) return { j: await pending.then((s) => s.j), fresh: null };
    const existing = data.joined.get(encounterId);
    if (existing && !existing.host.closed) return { j: existing, fresh: null };
    const p = this.subscribeNew(encounterId, existing).finally(() => data.joining.delete(encounterId));
    data.joining.set(encounterId, p);
    return p;
  }

  private async subscribeNew(
    encounterId: string,
    stale: Joined | undefined,
  ): Promise<{ j: Joined; fresh: ReturnType<EncounterHost['subscribe']> }> {
    const { data, socket } = this;
    if (stale) {
      data.joined.delete(encounterId);
      this.ctx.sinks.delete(stale.sink);
    }
    const viewer = await this.authorize(encounterId);
    const host = await this.openOrRedirect(encounterId);
    // the socket went while the encounter loaded: nothing to subscribe (its sink would outlive it)
    if (socket.disconnected) throw new ApiError('NOT_JOINED', 'The connection closed while joining.');
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
      // an invite's encounter that the GM deleted: ENCOUNTER_DELETED, not NOT_FOUND
      if (e instanceof Error && 'code' in e && e.code === 'NOT_FOUND') throw await whyMissing(this.ctx, encounterId, e);
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
    const j = await this.joinedOrThrow(req.encounterId);
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
    const j = await this.joinedOrThrow(encounterId);
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
