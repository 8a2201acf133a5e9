import type { RulesetInfo } from '@fray/protocol';
import type { Runtime, Sink } from '@fray/runtime';
import type { Logger as PinoLogger } from 'pino';
import type { Authenticator } from './auth.js';
import type { TrustProxy } from './client-address.js';
import type { Limits } from './config.js';
import type { PasswordGate } from './passwords.js';
import type { RateLimiter } from './rate-limit.js';
import type { RedisLink } from './redis.js';
import type { RefusalCounter } from './refusals.js';
import type { FraySocket } from './socket-types.js';
import type { ServerStore } from './store.js';
import type { CookiePolicy } from './web-session.js';

/** What the HTTP routes, the socket handlers and the metrics share of one server (built by `buildServer`). */
export interface ServerContext {
  store: ServerStore;
  runtime: Runtime;
  auth: Authenticator;
  logger: PinoLogger;
  limits: Limits;
  socketLimiter: RateLimiter;
  principalLimiter: RateLimiter;
  httpLimiter: RateLimiter;
  /** refused socket messages and commands, by code (GET /metrics) */
  refusals: RefusalCounter;
  rulesetInfos: RulesetInfo[];
  sinks: Map<Sink, { socket: FraySocket; encounterId: string }>;
  redis: RedisLink;
  /** set when a graceful stop begins: /health/ready answers 503, new sockets and messages get UNAVAILABLE */
  stopping: boolean;
  disconnectInvite(inviteId: string): void;
  /** the session cookie's name and attributes */
  cookies: CookiePolicy;
  /** password checks and the sign-in backoff; null on a store that keeps no accounts */
  passwords: PasswordGate | null;
  /** disconnect every socket in a room, on every process (an ended session or revoked API token) */
  disconnectRoom(room: string): void;
  /** FRAY_TRUST_PROXY (client-address.ts) */
  trustProxy: TrustProxy;
}
