import path from 'node:path';
import { parseTrustProxy, type TrustProxy } from './client-address.js';
import { z } from 'zod';
import { INSTANCE_ID_PATTERN } from './instance.js';
import { defaultMemoryTuning, type MemoryTuning } from './memory.js';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().min(1).optional(),
  FRAY_DATA_DIR: z.string().min(1).default('.fray-data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  NODE_ENV: z.string().optional(),
  REDIS_URL: z.string().min(1).optional(),
  FRAY_REDIS_PREFIX: z.string().min(1).default('fray'),
  // blank (compose passes an unset variable as '') = unset
  FRAY_PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  FRAY_METRICS_TOKEN: z.string().min(16, 'FRAY_METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 16)').optional(),
  FRAY_INSTANCE_ID: z
    .string()
    .regex(INSTANCE_ID_PATTERN, 'FRAY_INSTANCE_ID: 1 to 100 letters, digits, ".", "_", ":" or "-", starting with a letter or digit')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FRAY_SECURE_COOKIES: z.enum(['0', '1']).optional(),
  FRAY_COOKIE_DOMAIN: z.string().min(1).optional(),
  FRAY_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1000).default(defaultMemoryTuning.heapGrowthPercent),
  FRAY_BUFFER_POOL: z.enum(['0', '1']).default(defaultMemoryTuning.bufferPool ? '1' : '0'),
  FRAY_TRUST_PROXY: z.string().optional(),
  FRAY_IDLE_TRIM_SECONDS: z.coerce.number().min(0).default(30),
  FRAY_BACKUP_DIR: z.string().min(1).optional(),
  FRAY_BACKUP_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  FRAY_BACKUP_KEEP: z.coerce.number().int().min(1).default(14),
});

export interface Limits {
  /** socket messages per second per socket, and the burst */
  socketRate: number;
  socketBurst: number;
  /** messages per second per account or invite (all its sockets), and the burst */
  principalRate: number;
  principalBurst: number;
  /** HTTP requests per second per account (or per address without a token), and the burst */
  httpRate: number;
  httpBurst: number;
  maxSocketMessageBytes: number;
  maxHttpBodyBytes: number;
}

export const defaultLimits: Limits = {
  socketRate: 30,
  socketBurst: 60,
  principalRate: 60,
  principalBurst: 120,
  httpRate: 50,
  httpBurst: 100,
  maxSocketMessageBytes: 16 * 1024,
  maxHttpBodyBytes: 64 * 1024,
};

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  pretty: boolean;
  /** socket.io's Redis adapter (cross-process broadcast); unset: a single process */
  redisUrl: string | undefined;
  redisPrefix: string;
  /** the URL clients reach this process at, advertised with its leases */
  publicUrl: string | undefined;
  /** FRAY_INSTANCE_ID: this process's stable identity (its leases' owner); unset: a default (instance.ts) */
  instanceId: string | undefined;
  /** Secure session cookies: FRAY_SECURE_COOKIES=1/0, else when FRAY_PUBLIC_URL is https */
  secureCookies: boolean;
  /** the session cookie's Domain (FRAY_COOKIE_DOMAIN), for processes on several host names */
  cookieDomain: string | undefined;
  /** V8's heap growth and Node's Buffer pool (memory.ts) */
  memory: MemoryTuning;
  /** FRAY_TRUST_PROXY: client addresses from X-Forwarded-For (client-address.ts) */
  trustProxy: TrustProxy;
  /** the bearer token of GET /metrics and /metrics/json; unset: they answer 403 */
  metricsToken: string | undefined;
  /** FRAY_IDLE_TRIM_SECONDS: a memory-reducing GC after this long without activity (idle-trim.ts); 0: never */
  idleTrimSeconds: number;
  /** FRAY_BACKUP_DIR: the server backs its database up on a schedule (docs/hosting.md) */
  backups: { dir: string; hours: number; keep: number } | undefined;
}

/** Configuration from the environment: PORT, HOST, DATABASE_URL, FRAY_DATA_DIR, LOG_LEVEL, LOG_FORMAT, REDIS_URL, FRAY_REDIS_PREFIX, FRAY_PUBLIC_URL, FRAY_INSTANCE_ID, FRAY_SECURE_COOKIES, FRAY_COOKIE_DOMAIN, FRAY_METRICS_TOKEN, FRAY_HEAP_GROWTH_PERCENT, FRAY_BUFFER_POOL. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = process.stdout.isTTY === true): Config {
  const e = envSchema.parse(env);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.FRAY_DATA_DIR,
    logLevel: e.LOG_LEVEL,
    // pretty lines for a person at a terminal, JSON for a log collector; LOG_FORMAT decides when set
    pretty: e.LOG_FORMAT ? e.LOG_FORMAT === 'pretty' : stdoutIsTerminal || e.NODE_ENV === 'development',
    redisUrl: e.REDIS_URL,
    redisPrefix: e.FRAY_REDIS_PREFIX,
    publicUrl: e.FRAY_PUBLIC_URL,
    instanceId: e.FRAY_INSTANCE_ID,
    cookieDomain: e.FRAY_COOKIE_DOMAIN,
    secureCookies: e.FRAY_SECURE_COOKIES ? e.FRAY_SECURE_COOKIES === '1' : (e.FRAY_PUBLIC_URL?.startsWith('https:') ?? false),
    memory: { heapGrowthPercent: e.FRAY_HEAP_GROWTH_PERCENT, bufferPool: e.FRAY_BUFFER_POOL === '1' },
    trustProxy: parseTrustProxy(e.FRAY_TRUST_PROXY),
    metricsToken: e.FRAY_METRICS_TOKEN,
    idleTrimSeconds: e.FRAY_IDLE_TRIM_SECONDS,
    backups: e.FRAY_BACKUP_DIR ? { dir: path.resolve(e.FRAY_BACKUP_DIR), hours: e.FRAY_BACKUP_HOURS, keep: e.FRAY_BACKUP_KEEP } : undefined,
  };
}
