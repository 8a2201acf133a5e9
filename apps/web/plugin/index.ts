import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifySchema, RouteShorthandOptions } from 'fastify';

/** The routes the browser app handles itself (history API): each serves index.html. */
export const clientRoutes = ['/gm', '/gm/*', '/play/*', '/watch/*', '/replay'] as const;

const here = dirname(fileURLToPath(import.meta.url));
/** apps/web, from plugin/ (sources) or dist/plugin/ (built) */
const packageRoot = existsSync(resolve(here, '../package.json')) ? resolve(here, '..') : resolve(here, '../..');
const publicDir = resolve(packageRoot, 'dist/public');

/** Where the built app is: apps/web/dist/public, if it has been built. */
export function webRoot(): string | null {
  return existsSync(join(publicDir, 'index.html')) ? publicDir : null;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Build the app with Vite when dist/public is missing or older than the sources (or always, with
 * `force`). For tests and tools: the server never builds at start (`npm start` builds what changed
 * before it starts, through turbo; the Dockerfile builds in its build stage). Does nothing where
 * the sources or Vite are absent.
 */
export async function ensureBuilt(opts: { force?: boolean; log?: (msg: string) => void } = {}): Promise<boolean> {
  const src = resolve(packageRoot, 'src');
  const config = resolve(packageRoot, 'vite.config.ts');
  if (!existsSync(src) || !existsSync(config)) return false;
  const index = join(publicDir, 'index.html');
  const stale = !existsSync(index) || newestMtime(src) > statSync(index).mtimeMs;
  if (!stale && !opts.force) return false;
  let vite: { build(config: Record<string, unknown>): Promise<unknown> };
  try {
    vite = (await import('vite')) as typeof vite;
  } catch {
    return false;
  }
  opts.log?.('building the web app (apps/web) with Vite…');
  await vite.build({ configFile: config, logLevel: 'warn', build: { sourcemap: false } });
  return true;
}

export interface WebPluginOptions {
  /** serve this directory instead of the built app (tests) */
  root?: string;
}

/**
 * The web app's routes are pages and files, not API: out of the OpenAPI document (`hide`), and
 * logged only when something goes wrong (`warn`), not one line per file.
 */
// (`hide` is @fastify/swagger's addition to a route's schema, which this package does not import)
const quiet: RouteShorthandOptions = { schema: { hide: true } as FastifySchema, logLevel: 'warn' };

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fray</title></head>
<body><main><h1>Fray</h1><p>The web app is not built yet. Run <code>npm run build</code> (or
<code>npm run build -w @fray/web</code>) and restart the server.</p></main></body></html>`;

/**
 * Serves the web client at `/`: the built files (hashed assets cached for a year) and
 * index.html for the client's own routes (`/gm`, `/play/...`, `/watch/...`). API routes,
 * `/socket.io` and `/docs` are untouched: only files that exist are registered.
 */
const plugin: FastifyPluginAsync<WebPluginOptions> = async (app, opts) => {
  const root = opts.root ?? webRoot();
  if (!root) {
    const send = (_req: unknown, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send(notBuilt);
    app.get('/', quiet, send);
    for (const r of clientRoutes) app.get(r, quiet, send);
    return;
  }
  const index = readFileSync(join(root, 'index.html'), 'utf8');
  // brotli or gzip as the browser accepts (the app's JavaScript is about a third of its size
  // gzipped); brotli at quality 5: close to 11's size at a fraction of the CPU per response
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: false,
    schemaHide: true,
    logLevel: 'warn',
    cacheControl: false,
    setHeaders(res, path) {
      res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (_req: unknown, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
  app.get('/', quiet, sendIndex);
  for (const r of clientRoutes) app.get(r, quiet, sendIndex);
};

export const webPlugin = fp(plugin, { name: '@fray/web', fastify: '5.x' });
