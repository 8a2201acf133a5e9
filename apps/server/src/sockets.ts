import { clientAddress } from './client-address.js';
import type { Socket as NetSocket } from 'node:net';
import type { Socket } from 'socket.io';
import { clientEventNames, type ClientEventName } from '@fray/protocol';
import { credentialRoom } from './auth.js';
import { authenticateSocket } from './socket-auth.js';
import type { ServerContext } from './context.js';
import { inviteRoom } from './owner.js';
import { Connection } from './connection.js';
import { ConnectError, type FrayIo, type FraySocket } from './socket-types.js';
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
        data.joining = new Map();
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

function onDisconnect(this: FraySocket, reason: string): void {
  this.data.conn.disconnected(reason);
}
