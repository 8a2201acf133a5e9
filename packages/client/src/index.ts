/** The typed socket.io client for Fray: `FrayClient` (connect, join, commands) and `EncounterMirror` (one encounter kept current). */
export type * from '@fray/protocol';
export { FrayClient } from './client.js';
/** @public the types of the client's API (its options, its socket) */
export type { ClientOptions, FraySocket } from './client.js';
export { EncounterMirror } from './mirror.js';
export { FrayError } from './errors.js';
export { verifyDice, DiceVerifyError } from './verify-dice.js';
/** @public the verifier's report and input */
export type { DiceReport, DiceReveal, DiceLog, RollCheck, RollStatus, DiceVerifyErrorCode } from './verify-dice.js';
export { diceSummary, rollLine } from './dice-words.js';
