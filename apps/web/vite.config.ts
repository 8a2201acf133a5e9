import { defineConfig, defaultClientConditions } from 'vite';

// The browser app: built into dist/public, served by the server at `/` (see plugin/index.ts).
export default defineConfig({
  root: 'src',
  publicDir: false,
  resolve: { conditions: ['@fray/source', ...defaultClientConditions] },
  build: { outDir: '../dist/public', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1000 },
  server: {
    proxy: {
      '/socket.io': { target: 'http://127.0.0.1:3000', ws: true },
      '^/(accounts|encounters|rulesets|health)': 'http://127.0.0.1:3000',
    },
  },
});
