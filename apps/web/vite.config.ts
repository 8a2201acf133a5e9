import { fileURLToPath } from 'node:url';
import { defineConfig, defaultClientConditions } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The browser app: built into dist/public, served by the server at `/` (see plugin/index.ts).
// Paths are absolute so that the build works from any working directory (the plugin may run it).
export default defineConfig({
  root: here('./src'),
  publicDir: false,
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
