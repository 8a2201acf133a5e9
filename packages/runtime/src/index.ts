export { Runtime } from './runtime.js';
export { unknownRulesetMessage, type RuntimeOptions } from './options.js';
export { EncounterHost } from './host.js';
export { MAX_SYNC_HISTORY, RuntimeError, type Sink } from './host-types.js';
export { MemoryStore } from './memory-store.js';
export type { EncounterRecordLike } from './store.js';
export { forkEncounter } from './fork.js';
export { stateAt } from './timeline.js';
export { readLogFor, rewindsFor } from './branch-log.js';
