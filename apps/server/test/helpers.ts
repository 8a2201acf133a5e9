import { Writable } from 'node:stream';
import { pino } from 'pino';
import { expect } from 'vitest';
import type { Ruleset } from '@fray/engine';
import { FrayClient, type EncounterMirror } from '@fray/client';
import { openTestStore } from '@fray/store/testing';
import { buildServer, type FrayServer, type ServerOptions, type ServerStore } from '../src/index.js';
import { rulesets as fixtureRulesets } from '@fray/runtime/testing';

/** The real store: a fresh Postgres schema when DATABASE_URL is set, a fresh PGlite otherwise. */
export async function testStore(): Promise<ServerStore> {
  return openTestStore();
}

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

/** The metrics token of the test servers (GET /metrics and /metrics/json are behind it). */
export const testMetricsToken = 'test-metrics-token-0123456789';

/** A real server on an ephemeral loopback port, its logs captured. */
export async function startServer(
  optsIn: Partial<ServerOptions> & { store?: ServerStore; rulesets?: Record<string, Ruleset>; listenPort?: number } = {},
) {
  const { listenPort, ...opts } = optsIn;
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as LogLine);
      cb();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  const store = opts.store ?? (await testStore());
  const server: FrayServer = await buildServer({ rulesets: fixtureRulesets, metricsToken: testMetricsToken, ...opts, store, logger });
  const { url } = await server.listen(listenPort ?? 0, '127.0.0.1');
  return {
    server,
    store,
    url,
    lines,
    warns: () => lines.filter((l) => l.level === 40),
    async http(method: string, path: string, body?: unknown, token?: string, rawBody?: string) {
      const res = await fetch(url + path, {
        method,
        headers: {
          ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(rawBody !== undefined ? { body: rawBody } : body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { error?: { code: string; message: string } },
      };
    },
    async close() {
      await server.close();
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;

export async function connect(url: string, token: string): Promise<FrayClient> {
  return FrayClient.connect(url, token, { ackTimeoutMs: 5000 });
}

export async function until(cond: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every mirror reaches the server's version and equals the server's projection for its viewer. */
export async function expectConverged(s: TestServer, encounterId: string, mirrors: EncounterMirror[]): Promise<void> {
  const host = s.server.runtime.peek(encounterId)!;
  await until(() => mirrors.every((m) => m.version === host.version), 15_000, 'mirrors to catch up');
  for (const m of mirrors) {
    const viewer =
      m.role === 'gm'
        ? ({ role: 'gm' } as const)
        : m.role === 'player'
          ? ({ role: 'player', playerId: m.playerId! } as const)
          : ({ role: 'spectator' } as const);
    expect(m.state).toEqual(JSON.parse(JSON.stringify(host.projectionFor(viewer))));
  }
}
