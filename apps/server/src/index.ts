export { buildServer, makeLogger, type FrayServer, type ServerOptions, type ServerContext } from './server.js';
export { configFromEnv, defaultLimits, type Config, type Limits } from './config.js';
export { openStore } from './open-store.js';
export { defaultMemoryTuning, tuneMemory, type MemoryTuning } from './memory.js';
export type { ServerStore } from './store.js';
export { resolveInstanceId, INSTANCE_ID_PATTERN, type ResolvedInstance } from './instance.js';
export { readiness, type Readiness } from './health.js';
