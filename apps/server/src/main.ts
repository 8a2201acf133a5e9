/**
 * The server's entry. Node's on-disk compile cache first (`module.enableCompileCache`; the
 * directory is NODE_COMPILE_CACHE, else node-compile-cache in the system's temporary directory):
 * a start with nothing changed reads the compiled code of the server's modules instead of
 * compiling them again (docs/performance-restarts.md, "Start and idle memory"). Then the server itself
 * (serve.ts), which is loaded after the cache is on.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./serve.js');
