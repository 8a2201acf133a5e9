import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { webPlugin } from '../../plugin/index.js';

/**
 * A real Fray server (apps/server's `buildServer`) on an ephemeral loopback port, with every
 * ruleset of the registry, the web app registered at `/`, and the test store: `@fray/store`'s
 * test store (PGlite, or Postgres when DATABASE_URL is set) when it exists, the runtime's
 * in-memory store otherwise.
 *
 * The server is imported by path, not as a dependency: apps/server depends on @fray/web (the
 * plugin), so a dependency back would be a cycle in the workspace graph.
 */
interface ServerLike {
  app: FastifyInstance;
  io: {
    of(ns: string): { sockets: Map<string, { handshake: { auth: unknown }; conn: { close(): void }; disconnect(close?: boolean): void }> };
  };
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

export interface TestServer {
  url: string;
  server: ServerLike;
  warnings: string[];
  /** cut the transport of every socket authenticated with this token (as a network drop would) */
  cut(token: string): number;
  /**
   * A planned restart, as SIGTERM runs it (apps/server main.ts: `server.close()`, the graceful
   * stop), then `start()` again on the same port with the same database.
   */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function testStore(): Promise<{ store: unknown; close(): Promise<void> }> {
  try {
    const mod = (await import('@fray/store/testing' as string)) as { openTestStore(): Promise<{ close(): Promise<void> }> };
    const store = await mod.openTestStore();
    return { store, close: () => store.close() };
  } catch (e) {
    if (!/Cannot find|Failed to (load|resolve)|ERR_MODULE_NOT_FOUND|does not provide|is not exported/i.test(String(e))) throw e;
    const { MemoryStore } = (await import('@fray/runtime' as string)) as { MemoryStore: new () => unknown };
    return { store: new MemoryStore(), close: async () => undefined };
  }
}

export async function startServer(runtime: Record<string, unknown> = {}): Promise<TestServer> {
  const serverSrc = resolve(import.meta.dirname, '../../../server/src/index.ts');
  const { buildServer } = (await import(serverSrc)) as { buildServer(o: unknown): Promise<ServerLike> };
  const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, unknown> };
  const { pino } = await import('pino');
  const warnings: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l.includes('"level":50') || l.includes('"level":60')) warnings.push(l);
      cb();
    },
  });
  const { store, close: closeStore } = await testStore();
  const build = async () => {
    const s = await buildServer({ store, rulesets: registry, logger: pino({ level: 'warn' }, stream), runtime });
    await s.app.after();
    if (!s.app.hasPlugin('@fray/web')) await s.app.register(webPlugin);
    return s;
  };
  let server = await build();
  const { url, port } = await server.listen(0, '127.0.0.1');
  let running = true;
  return {
    url,
    get server() {
      return server;
    },
    warnings,
    async stop() {
      running = false;
      await server.close();
    },
    async start() {
      server = await build();
      await server.listen(port, '127.0.0.1');
      running = true;
    },
    cut(token) {
      let n = 0;
      for (const s of server.io.of('/').sockets.values()) {
        if ((s.handshake.auth as { token?: string }).token === token) {
          s.conn.close();
          n++;
        }
      }
      return n;
    },
    async close() {
      if (running) await server.close();
      await closeStore();
    },
  };
}

/** The HTTP API as a GM script would use it (setting up fixtures quickly). */
export async function http<T = Record<string, unknown>>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as T) : (null as T);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return data;
}
