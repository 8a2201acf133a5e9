import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '@fray/rulesets';
import { webPlugin } from '@fray/web';
import { buildServer, configFromEnv, type FrayServer } from '../src/index.js';
import { startServer, testMetricsToken, testStore, type LogLine, type TestServer } from './helpers.js';

/**
 * Issue 29, "Operations as users expect them" and "Errors a newcomer can act on": metrics behind a
 * token, one log line per request and none per static file, pretty logs at a terminal, and
 * refusals that name what to do.
 */
describe('GET /metrics: "in the Prometheus text format (prom-client), not readable by anyone on the internet by default"', () => {
  let s: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    s = await startServer();
    open = await startServer({ metricsToken: undefined });
  });
  afterAll(async () => {
    await s.close();
    await open.close();
  });

  it('answers the Prometheus text format with the token: Node, process and Fray figures', async () => {
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${testMetricsToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
      'fray_live_encounters',
      'fray_commands_total',
      'fray_log_commits_total',
      'fray_viewers',
    ]) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    expect(text).toMatch(/^fray_live_encounters 0$/m);
    expect(text).toMatch(/^fray_info\{database="[a-z]+",redis="not configured"\} 1$/m);
    // every sample line is `name{labels} value`, as a scraper parses it
    for (const line of text.split('\n').filter((l) => l && !l.startsWith('#')))
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eENaInf]+$/);
  });

  it('refuses without the token (401) or with a wrong one, and the JSON figures likewise', async () => {
    for (const path of ['/metrics', '/metrics/json']) {
      const none = await s.http('GET', path);
      expect(none.status, path).toBe(401);
      expect(none.body.error!.message).toContain('FRAY_METRICS_TOKEN');
      expect((await s.http('GET', path, undefined, 'not-the-token')).status).toBe(401);
      expect((await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${testMetricsToken}` } })).status).toBe(200);
    }
  });

  it('is off when no token is configured (403 naming FRAY_METRICS_TOKEN), whatever is sent', async () => {
    for (const path of ['/metrics', '/metrics/json']) {
      const r = await open.http('GET', path, undefined, testMetricsToken);
      expect(r.status).toBe(403);
      expect(r.body.error!.message).toContain('set FRAY_METRICS_TOKEN');
    }
  });
});

describe('logs: "one line per request, no line per static file"', () => {
  let server: FrayServer;
  const lines: LogLine[] = [];
  const root = mkdtempSync(join(tmpdir(), 'fray-web-log-'));
  beforeAll(async () => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Fray</title>');
    writeFileSync(join(root, 'assets', 'app-abc.js'), 'console.log(1)');
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as LogLine);
        cb();
      },
    });
    server = await buildServer({ store: await testStore(), rulesets: registry, logger: pino({ level: 'info' }, stream) });
    await server.app.register(webPlugin, { root });
    await server.app.ready();
  });
  afterAll(async () => {
    await server.close();
    await server.context.store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('one info line per API request (method, URL, status, ms), none for the pages and files of the web app', async () => {
    const before = lines.length;
    expect((await server.app.inject({ url: '/rulesets' })).statusCode).toBe(200);
    for (const url of ['/', '/gm', '/play/abc', '/assets/app-abc.js', '/docs/static/swagger-ui.css'])
      expect((await server.app.inject({ url })).statusCode, url).toBe(200);
    const fresh = lines.slice(before);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ level: 30, msg: 'request', method: 'GET', url: '/rulesets', status: 200 });
    expect(typeof fresh[0]!.ms).toBe('number');
  });

  it('a refused request is one warn line with its code and reason (not an info line too)', async () => {
    const before = lines.length;
    const r = await server.app.inject({ method: 'POST', url: '/encounters', payload: { name: 'x', ruleset: 'legends' } });
    expect(r.statusCode).toBe(401);
    const fresh = lines.slice(before);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ level: 40, msg: 'request refused', status: 401, code: 'UNAUTHORIZED' });
    expect(String(fresh[0]!.reason)).toContain('token');
  });

  it('"pretty when stdout is a terminal": JSON otherwise; LOG_FORMAT decides when set', () => {
    expect(configFromEnv({}, true).pretty).toBe(true);
    expect(configFromEnv({}, false).pretty).toBe(false);
    expect(configFromEnv({ LOG_FORMAT: 'json' }, true).pretty).toBe(false);
    expect(configFromEnv({ LOG_FORMAT: 'pretty' }, false).pretty).toBe(true);
  });
});

describe('errors a newcomer can act on', () => {
  let s: TestServer;
  let gm: string;
  let encounterId: string;
  beforeAll(async () => {
    s = await startServer({ rulesets: registry });
    gm = (await s.http('POST', '/accounts')).body.token as string;
    encounterId = (await s.http('POST', '/encounters', { name: 'Ford', ruleset: 'legends' }, gm)).body.id as string;
  });
  afterAll(() => s.close());

  it('"an unknown ruleset names the known ones"', async () => {
    const r = await s.http('POST', '/encounters', { name: 'x', ruleset: 'legend' }, gm);
    expect(r.status).toBe(404);
    expect(r.body.error!.message).toBe(
      `Unknown ruleset "legend". Known rulesets: ${Object.keys(registry).join(', ')} (GET /rulesets describes each).`,
    );
  });

  it('"a stats error names the field and the expected keys in plain words (not a raw zod dump)"', async () => {
    const r = await s.http(
      'POST',
      `/encounters/${encounterId}/combatants`,
      { name: 'Ayla', side: 'heroes', stats: { dex: 12, SPD: 'fast', STR: 90 } },
      gm,
    );
    expect(r.status).toBe(422);
    expect(r.body.error!.code).toBe('INVALID_STATS');
    const m = r.body.error!.message;
    expect(m).toContain('DEX is missing (a number)');
    expect(m).toContain('SPD must be a number, not the text "fast"');
    expect(m).toContain('STR must be at most 40, not 90');
    expect(m).toContain('"dex" should be written "DEX"');
    expect(m).toContain('Expected keys: DEX, SPD, STR (required)');
    // no zod dump: no ✖ bullets, no arrows, no JSON of issues
    expect(m).not.toMatch(/✖|→|"code":|invalid_type/);
    // the same words over a socket's setStat path: one field, by name
    const ok = await s.http(
      'POST',
      `/encounters/${encounterId}/combatants`,
      { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { DEX: 12, SPD: 10, STR: 9 } },
      gm,
    );
    expect(ok.status).toBe(201);
    const patch = await s.http('PATCH', `/encounters/${encounterId}/combatants/ayla`, { stats: { DEX: -1 } }, gm);
    expect(patch.status).toBe(422);
    expect(patch.body.error!.message).toContain('DEX must be at least 0, not -1');
  });

  it('"a port already in use says so and names PORT"', async () => {
    const taken: NetServer = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      const cwd = fileURLToPath(new URL('..', import.meta.url));
      const child = spawn(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', 'src/main.ts'], {
        cwd,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', FRAY_STORE: 'memory', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout!.resume();
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      expect(code).toBe(1);
      expect(err).toContain(`Fray did not start: Port ${port} is already in use on 127.0.0.1`);
      expect(err).toContain(`PORT=${port + 1} npm start`);
      expect(err).not.toContain('    at '); // a sentence, not a stack trace
    } finally {
      taken.close();
    }
  }, 60_000);
});
