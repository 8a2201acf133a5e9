export { Runtime, defaultRuntimeOptions, unknownRulesetMessage, type RuntimeOptions, type RuntimeInit } from './runtime.js';
export { EncounterHost, MAX_SYNC_HISTORY, RuntimeError, type Sink, type SubmitInput } from './host.js';
export { LogWriter } from './log-writer.js';
export { MemoryStore } from './memory-store.js';
export { projectEventsFor, unseenMarkers, viewerKey } from './viewers.js';
export { diff } from './diff.js';
export { isStaleOwner, silentLogger, type Logger, type RuntimeStore, type EncounterRecordLike, type LogEntryLike, type LeaseLike } from './store.js';
export { reachOf, type ReachAnswer, type ReachRequest, type ReachTarget } from './reach.js';
