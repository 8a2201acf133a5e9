import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

/** The routes the browser app handles itself (history API): each serves index.html. */
export const clientRoutes = ['/gm', '/gm/*', '/play/*', '/watch/*'] as const;

/** Where the built app is: `dist/public` next to this file's package (source or built). */
export function webRoot(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [resolve(here, '../dist/public'), resolve(here, '../public')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

export interface WebPluginOptions {
  /** serve this directory instead of the built app (tests) */
  root?: string;
}

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
    app.get('/', send);
    for (const r of clientRoutes) app.get(r, send);
    return;
  }
  const index = readFileSync(join(root, 'index.html'), 'utf8');
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(res, path) {
      res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (_req: unknown, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
  app.get('/', sendIndex);
  for (const r of clientRoutes) app.get(r, sendIndex);
};

export const webPlugin = fp(plugin, { name: '@fray/web', fastify: '5.x' });
export default webPlugin;
