import { fileURLToPath } from 'node:url';
import { defineConfig, defaultClientConditions, type Plugin } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * index.html loads only boot.ts (it opens a player's connection at once) and boot.ts imports the
 * app (main.tsx) dynamically; Vite preloads a dynamic import only when it runs. This adds
 * `<link rel="modulepreload">` for main.tsx's chunk and the chunks it imports statically, so
 * they download alongside boot.ts.
 */
function preloadApp(): Plugin {
  return {
    name: 'fray-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle ?? {};
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const app = chunks.find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/main.tsx'));
        if (!app || app.type !== 'chunk') return [];
        const files = new Set<string>([app.fileName]);
        const walk = (name: string) => {
          const c = bundle[name];
          if (!c || c.type !== 'chunk') return;
          for (const i of c.imports) {
            if (files.has(i)) continue;
            files.add(i);
            walk(i);
          }
        };
        walk(app.fileName);
        // the entry and what it imports statically are loaded (and preloaded by Vite) already
        for (const c of chunks) if (c.type === 'chunk' && c.isEntry) for (const f of [c.fileName, ...c.imports]) files.delete(f);
        return [...files].map((f) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

// The browser app: built into dist/public, served by the server at `/` (see plugin/index.ts).
// Paths are absolute so that the build works from any working directory (the plugin may run it).
export default defineConfig({
  root: here('./src'),
  publicDir: false,
  plugins: [preloadApp()],
  logLevel: 'warn',
  resolve: { conditions: ['@fray/source', ...defaultClientConditions] },
  build: { outDir: here('./dist/public'), emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1000 },
  server: {
    proxy: {
      '/socket.io': { target: 'http://127.0.0.1:3000', ws: true },
      '^/(accounts|encounters|rulesets|health)': 'http://127.0.0.1:3000',
    },
  },
});
