export { buildServer, type FrayServer, type ServerOptions } from './server.js';
export { configFromEnv } from './config.js';
export { defaultMemoryTuning } from './memory.js';
export type { ServerStore } from './store.js';
