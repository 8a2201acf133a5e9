import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webPlugin } from '../plugin/index.js';

/** The plugin serves the built app at `/` and its client routes, and leaves the rest alone. */
describe('webPlugin', () => {
  const root = mkdtempSync(join(tmpdir(), 'fray-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Fray test</title>');
  writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
  const big = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 50}`))};`;
  writeFileSync(join(root, 'assets', 'big-abc123.js'), big);
  const app = Fastify();
  beforeAll(async () => {
    app.get('/health', async () => ({ status: 'ok' }));
    await app.register(webPlugin, { root });
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves index.html at / and at the client routes', async () => {
    for (const url of ['/', '/gm', '/gm/e/abc', '/gm/e/abc/replay', '/play/abc', '/watch/abc', '/replay']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toMatch(/text\/html/);
      expect(r.body).toContain('Fray test');
    }
  });

  it('serves hashed assets with a long cache', async () => {
    const r = await app.inject({ url: '/assets/app-abc123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('console.log(1)');
    expect(r.headers['cache-control']).toContain('immutable');
  });

  it('"Compressed responses (gzip/brotli) for the app": brotli or gzip as the browser accepts', async () => {
    const br = await app.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(big);
    expect(br.rawPayload.length).toBeLessThan(big.length / 5);
    const gz = await app.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(big);
    const plain = await app.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(big);
    expect(br.headers['cache-control']).toContain('immutable');
  });

  it('leaves API routes and unknown paths to the server', async () => {
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/encounters' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/nope.js' })).statusCode).toBe(404);
  });
});
