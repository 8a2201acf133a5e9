import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pino, type Logger as PinoLogger } from 'pino';
import { Server } from 'socket.io';
import type { Ruleset } from '@fray/engine';
import { Runtime, type RuntimeOptions } from '@fray/runtime';
import { registerAccounts } from './account-http.js';
import { Authenticator } from './auth.js';
import { defaultLimits, type Limits } from './config.js';
import { fastifyTrustProxy, type TrustProxy } from './client-address.js';
import { DEFAULT_READY_TIMEOUT_MS, registerHealth } from './health.js';
import { listenForDeletions, registerEncounterDelete } from './encounter-delete.js';
import { gmAccess } from './gm-access.js';
import { registerHttp } from './http.js';
import { registerTransfer } from './transfer-http.js';
import { registerReplayHttp } from './replay-http.js';
import { registerMetrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { registerPasskeys } from './passkey-http.js';
import { PasswordGate } from './passwords.js';
import { RefusalCounter } from './refusals.js';
import { registerRequestLog } from './request-log.js';
import { RateLimiter } from './rate-limit.js';
import type { RulesetInfo } from '@fray/protocol';
import { rulesetInfo } from './rulesets-info.js';
import { attachRedis, noRedis, type RedisLink } from './redis.js';
import { deliverPatch, registerSockets } from './sockets.js';
import { ConnectError, isAck, type FrayIo } from './socket-types.js';
import { engineFlush, jsonParser, wsFragments } from './transport.js';
import type { ServerStore } from './store.js';
import type { ServerContext } from './context.js';
import { inviteRoom, ownerIdFor } from './owner.js';
import { cookiePolicy } from './web-session.js';

export interface ServerOptions {
  store: ServerStore;
  rulesets: Record<string, Ruleset>;
  logger?: PinoLogger;
  logLevel?: string;
  pretty?: boolean;
  limits?: Partial<Limits>;
  runtime?: Partial<RuntimeOptions>;
  /** socket.io's Redis adapter for cross-process broadcast (REDIS_URL); none: a single process */
  redisUrl?: string | undefined;
  /** the Redis key prefix (channels) of this deployment; default `socket.io` */
  redisPrefix?: string | undefined;
  /**
   * The URL clients reach this process at (FRAY_PUBLIC_URL). It is recorded with every lease this
   * process takes, so another process can send a client here (NOT_OWNER).
   */
  publicUrl?: string | undefined;
  /** FRAY_METRICS_TOKEN: the bearer token of GET /metrics and /metrics/json; unset, they are off */
  metricsToken?: string | undefined;
  /**
   * This process's stable identity (FRAY_INSTANCE_ID, resolved in instance.ts): its lease owner
   * id, so that the same instance restarted takes over its own leases at once. Unset: a new id
   * per run (a crashed process's encounters wait for their leases to expire).
   */
  instanceId?: string | undefined;
  /** how long /health/ready waits for the database (default 1,000 ms) */
  readyTimeoutMs?: number;
  /** the database round trip of /health/ready (default: the store's ping; main.ts: the instance claim's connection) */
  ping?: () => Promise<void>;
  /**
   * Mark the session cookie Secure (and name it `__Host-fray_session`): Fray is served over https.
   * Default: when `publicUrl` is https (FRAY_SECURE_COOKIES=1 forces it).
   */
  secureCookies?: boolean | undefined;
  /**
   * Read clients' addresses from a reverse proxy's X-Forwarded-For (FRAY_TRUST_PROXY), for rate
   * limits and logs. Default false: the header is ignored (client-address.ts).
   */
  trustProxy?: TrustProxy | undefined;
  /**
   * The session cookie's Domain (FRAY_COOKIE_DOMAIN), when the processes' own URLs are other host
   * names under one domain (`fray-1.example.org`): the cookie then reaches every process.
   */
  cookieDomain?: string | undefined;
}

export type { ServerContext } from './context.js';

export interface FrayServer {
  app: FastifyInstance;
  io: FrayIo;
  runtime: Runtime;
  context: ServerContext;
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  /** Graceful stop: no new connections, every queue drained, the log flushed, leases released. */
  close(): Promise<void>;
}

/** JSON lines, or (`pretty`: a terminal) pino-pretty's coloured lines, written on this thread. */
export function makeLogger(level = 'info', pretty = false): PinoLogger {
  const options = { level, base: { service: 'fray' } };
  if (!pretty) return pino(options);
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => NodeJS.WritableStream;
  return pino(options, pinoPretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }));
}

/** Build the HTTP API and the socket.io server on one port (not listening yet). */
export async function buildServer(opts: ServerOptions): Promise<FrayServer> {
  const logger = opts.logger ?? makeLogger(opts.logLevel, opts.pretty);
  const limits: Limits = { ...defaultLimits, ...opts.limits };
  const ctxRef: { ctx?: ServerContext } = {};
  const runtime = makeRuntime(opts, logger, ctxRef);
  const app = await makeApp(opts, logger, limits);
  const io = makeIo(app, logger, limits);
  const redis = opts.redisUrl ? await attachRedis(io, { url: opts.redisUrl, prefix: opts.redisPrefix ?? 'socket.io', logger }) : noRedis;
  const ctx = makeContext(opts, { runtime, io, logger, limits, redis });
  ctxRef.ctx = ctx;
  // during a graceful stop, new connections are refused (the client goes elsewhere); registered
  // before the sockets' own middleware so it runs first
  io.use((_socket, next) => {
    if (!ctx.stopping) return next();
    next(new ConnectError('This server process is shutting down; connect through the load balancer again.', { code: 'UNAVAILABLE' }));
  });
  registerRequestLog(app);
  registerHealth(app, ctx, {
    readyTimeoutMs: opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    ping: opts.ping ?? (() => opts.store.ping()),
    instanceId: runtime.options.ownerId.split('@')[0]!,
  });
  registerHttp(app, ctx);
  registerEncounterDelete(app, ctx, gmAccess(ctx), io);
  listenForDeletions(io, ctx);
  registerAccounts(app, ctx);
  registerPasskeys(app, ctx);
  registerTransfer(app, ctx);
  registerReplayHttp(app, ctx);
  registerMetrics(app, ctx, opts.metricsToken);
  registerSockets(io, ctx);

  return {
    app,
    io,
    runtime,
    context: ctx,
    async listen(port, host = '127.0.0.1') {
      await app.listen({ port, host, backlog: LISTEN_BACKLOG });
      const addr = app.server.address();
      if (!addr || typeof addr === 'string') throw new Error(`The server listens on ${String(addr)}, not a TCP port.`);
      return { port: addr.port, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}` };
    },
    close: closer({ app, io, runtime, ctx, logger, redis }),
  };
}

/** The runtime: it delivers patches and deadlines to the sockets of the context built after it. */
function makeRuntime(opts: ServerOptions, logger: PinoLogger, ctxRef: { ctx?: ServerContext }): Runtime {
  return new Runtime({
    store: opts.store,
    rulesets: opts.rulesets,
    logger,
    options: { ...opts.runtime, ...(opts.runtime?.ownerId === undefined ? { ownerId: ownerIdFor(opts.publicUrl, opts.instanceId) } : {}) },
    deliver: (msg, sinks) => deliverPatch(ctxRef.ctx, msg, sinks),
    onDeadlines: (sink, msg) => ctxRef.ctx?.sinks.get(sink)?.socket.emit('deadlines', msg),
    onClosed: (encounterId, sink, reason) => {
      const entry = ctxRef.ctx?.sinks.get(sink);
      if (!entry) return;
      ctxRef.ctx?.sinks.delete(sink);
      entry.socket.data.joined?.delete(encounterId);
      entry.socket.emit('closed', { encounterId, reason });
    },
  });
}

const zodOnly = (): never => {
  throw new Error("Fray validates and serializes with zod's compilers (fastify-type-provider-zod), set on the app.");
};

/** Fastify with zod's validation and serialization, the OpenAPI document and cookies. */
async function makeApp(opts: ServerOptions, logger: PinoLogger, limits: Limits): Promise<FastifyInstance> {
  const baseLogger: FastifyBaseLogger = logger;
  const app: FastifyInstance = Fastify({
    loggerInstance: baseLogger,
    bodyLimit: limits.maxHttpBodyBytes,
    trustProxy: fastifyTrustProxy(opts.trustProxy ?? false),
    // one line per request instead, when it is answered (request-log.ts)
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) =>
      typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].length <= 64
        ? req.headers['x-request-id']
        : randomUUID(),
    // zod validates and serializes every route (set below): Fastify's default compilers (Ajv,
    // fast-json-stringify) are never built, so their modules are not loaded at start (a tenth of
    // a start's CPU); a factory called anyway says so
    schemaController: { compilersFactory: { buildValidator: zodOnly, buildSerializer: zodOnly } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await registerOpenApi(app);
  await app.register(cookie);
  return app;
}

/** socket.io on fastify's HTTP server, with transport.ts's write and read buffers kept per connection. */
function makeIo(app: FastifyInstance, logger: PinoLogger, limits: Limits): FrayIo {
  // one write buffer per connection for its life (transport.ts: fewer objects promoted per message)
  if (!engineFlush.install())
    logger.warn({}, "engine.io's flush is not the one transport.ts was written against: its own is kept (more promotion under load)");
  // one array of incoming frames per connection for its life (transport.ts: the same, reading)
  if (!wsFragments.install())
    logger.warn({}, "ws's dataMessage is not the one transport.ts was written against: its own is kept (more promotion under load)");
  return new Server(app.server, {
    maxHttpBufferSize: Math.max(limits.maxSocketMessageBytes * 4, 64 * 1024),
    cors: { origin: true },
    serveClient: false,
    parser: jsonParser,
  });
}

function makeContext(
  opts: ServerOptions,
  parts: { runtime: Runtime; io: FrayIo; logger: PinoLogger; limits: Limits; redis: RedisLink },
): ServerContext {
  const { runtime, io, logger, limits, redis } = parts;
  let infos: RulesetInfo[] | undefined;
  return {
    store: opts.store,
    runtime,
    trustProxy: opts.trustProxy ?? false,
    auth: new Authenticator(opts.store),
    logger,
    limits,
    socketLimiter: new RateLimiter(limits.socketRate, limits.socketBurst),
    principalLimiter: new RateLimiter(limits.principalRate, limits.principalBurst),
    httpLimiter: new RateLimiter(limits.httpRate, limits.httpBurst),
    refusals: new RefusalCounter(),
    // GET /rulesets, built at its first request: every ruleset's schemas as JSON Schema took about
    // a fifth of a start's CPU
    get rulesetInfos() {
      return (infos ??= Object.values(opts.rulesets).map(rulesetInfo));
    },
    sinks: new Map(),
    redis,
    stopping: false,
    disconnectInvite(inviteId) {
      // every socket of the invite joined its room: with the Redis adapter, on every process
      io.in(inviteRoom(inviteId)).disconnectSockets(true);
    },
    cookies: cookiePolicy(opts.secureCookies ?? opts.publicUrl?.startsWith('https:') === true, opts.cookieDomain),
    passwords: opts.store.accounts ? new PasswordGate(opts.store.accounts) : null,
    disconnectRoom(room) {
      io.in(room).disconnectSockets(true);
    },
  };
}

/**
 * Connections the kernel queues for the server before it accepts them (Node's default is 511; the
 * kernel caps it at net.core.somaxconn, 4,096 by default). A restarted process is met by every
 * client at once: with 511, most of 1,500 reconnecting sockets found the queue full while the
 * process was busy, and their SYNs were dropped and sent again by TCP after 1, 3, 7 s...
 */
const LISTEN_BACKLOG = 4096;

/** how long a graceful stop waits for its connections to close by themselves once everything is handed over (ms) */
const CLOSE_GRACE_MS = 500;

/** The graceful stop (FrayServer.close), once. */
function closer(parts: {
  app: FastifyInstance;
  io: FrayIo;
  runtime: Runtime;
  ctx: ServerContext;
  logger: PinoLogger;
  redis: RedisLink;
}): () => Promise<void> {
  const { app, io, runtime, ctx, logger, redis } = parts;
  // every TCP connection, so that a stop can cut those still open after a short grace (below)
  const open = new Set<Socket>();
  app.server.on('connection', (tcp: Socket) => {
    open.add(tcp);
    tcp.once('close', () => open.delete(tcp));
  });
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    ctx.stopping = true;
    logger.info({ liveEncounters: runtime.liveCount }, 'shutting down: draining encounter queues, then handing the encounters over');
    // Stop taking socket messages (a message that arrives now is refused UNAVAILABLE, never
    // acknowledged: the client sends it again where the encounter goes), then finish every
    // queued command, flush the log, snapshot, release the leases, and only then tell each
    // subscriber `closed` { reason: "shutdown" } (runtime.shutdown): another process can serve
    // the encounter as soon as the client asks, without waiting for the lease to expire.
    for (const s of io.of('/').sockets.values()) {
      s.removeAllListeners();
      s.offAny();
      s.onAny((...args: unknown[]) => {
        const ack = args.at(-1);
        if (isAck(ack))
          ack({ ok: false, error: { code: 'UNAVAILABLE', message: 'This server process is shutting down; the command was not applied.' } });
      });
    }
    const t0 = Date.now();
    const handedOver = runtime.liveCount;
    await runtime.shutdown();
    logger.info({ encounters: handedOver, ms: Date.now() - t0 }, 'encounters handed over (leases released)');
    // this process's sockets only: with the Redis adapter io.disconnectSockets() reaches every
    // process's, and a rolling restart of one would drop the clients of all
    io.local.disconnectSockets(true);
    // fastify stops listening and closes idle keep-alive connections; then socket.io's engine. A
    // websocket's closing handshake waits for its client's answer, which took seconds with
    // thousands of clients on a loaded machine: every lease is released and every subscriber told
    // by now, so what is still open after a short grace is cut
    const cut = setTimeout(() => {
      for (const tcp of open) tcp.destroy();
    }, CLOSE_GRACE_MS);
    await app.close();
    clearTimeout(cut);
    await new Promise<void>((resolve) => {
      io.close(() => resolve());
    });
    await redis.close();
    logger.info({}, 'shut down');
  };
}
