import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../src/client-address.js';
import { configFromEnv } from '../src/config.js';
import { startServer, until, type TestServer } from './helpers.js';

/**
 * Issue 34: "the server trusts the proxy's forwarded headers only when told to
 * (`FRAY_TRUST_PROXY`), and uses them for client addresses in rate limits and logs."
 */
async function get(s: TestServer, forwardedFor: string): Promise<number> {
  const res = await fetch(`${s.url}/rulesets`, { headers: { 'x-forwarded-for': forwardedFor } });
  await res.arrayBuffer();
  return res.status;
}

const addressesLogged = (s: TestServer): unknown[] =>
  s.lines.filter((l) => (l.msg === 'request' || l.msg === 'request refused') && l.url === '/rulesets').map((l) => l.ip);

async function refusedSocketAddress(s: TestServer, forwardedFor: string): Promise<unknown> {
  const socket = io(s.url, {
    auth: { token: 'fray_gm_not-a-token' },
    extraHeaders: { 'x-forwarded-for': forwardedFor },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve) => socket.once('connect_error', () => resolve()));
  socket.close();
  await until(() => s.lines.some((l) => l.msg === 'socket refused'), 5_000, 'the refusal logged');
  return s.lines.find((l) => l.msg === 'socket refused')!.address;
}

const limits = { httpRate: 0.001, httpBurst: 2 };

describe('client addresses behind a reverse proxy', () => {
  it('without FRAY_TRUST_PROXY, X-Forwarded-For is ignored: one address, one rate limit, the socket peer in the logs', async () => {
    const s = await startServer({ limits });
    try {
      expect(await get(s, '203.0.113.1')).toBe(200);
      expect(await get(s, '203.0.113.2')).toBe(200);
      // a forged header does not buy a new bucket
      expect(await get(s, '203.0.113.3')).toBe(429);
      expect(new Set(addressesLogged(s))).toEqual(new Set(['127.0.0.1']));
      expect(await refusedSocketAddress(s, '203.0.113.4')).toMatch(/127\.0\.0\.1/);
    } finally {
      await s.close();
      await s.store.close();
    }
  });

  it('with FRAY_TRUST_PROXY, each forwarded client has its own rate limit and is the address logged', async () => {
    const s = await startServer({ limits, trustProxy: parseTrustProxy('loopback') });
    try {
      expect(await get(s, '203.0.113.1')).toBe(200);
      expect(await get(s, '203.0.113.1')).toBe(200);
      expect(await get(s, '203.0.113.1')).toBe(429);
      expect(await get(s, '203.0.113.2')).toBe(200);
      expect(addressesLogged(s)).toEqual(['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2']);
      expect(await refusedSocketAddress(s, '198.51.100.7')).toBe('198.51.100.7');
    } finally {
      await s.close();
      await s.store.close();
    }
  });

  it('reads FRAY_TRUST_PROXY as off, all hops, a hop count, or addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, loopback')).toEqual(['10.0.0.0/8', 'loopback']);
    // docker compose passes an unset variable as an empty string
    expect(configFromEnv({ FRAY_PUBLIC_URL: '', FRAY_TRUST_PROXY: '' })).toMatchObject({ publicUrl: undefined, trustProxy: false });
    expect(configFromEnv({ FRAY_PUBLIC_URL: 'https://table.example.org', FRAY_TRUST_PROXY: 'uniquelocal' })).toMatchObject({
      secureCookies: true,
      trustProxy: ['uniquelocal'],
    });
  });

  it('npm start reads FRAY_TRUST_PROXY from the environment', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fray-trust-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      FRAY_DATA_DIR: dataDir,
      FRAY_TRUST_PROXY: 'loopback',
      NODE_ENV: 'test',
      FRAY_WEB_BUILD: '0',
    };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', 'src/main.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await until(() => /"url":"http:\/\/[^"]+"/.test(out) || child.exitCode !== null, 120_000, 'the server to listen');
      expect(child.exitCode, out).toBeNull();
      const url = /"url":"(http:\/\/[^"]+)"/.exec(out)![1]!;
      await (await fetch(`${url}/rulesets`, { headers: { 'x-forwarded-for': '192.0.2.44' } })).arrayBuffer();
      await until(() => out.includes('"ip":"192.0.2.44"'), 10_000, 'the forwarded address in the request log');
    } finally {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
