/**
 * The engine's state and action shapes and the protocol's messages as the browser sees them
 * (packages/engine/src/types.ts, packages/protocol). Types only: the browser bundle runs neither.
 */
import type { WireLogEntry } from '@fray/protocol';

export type { ActionOption, Combatant, Effect, EncounterState, EngineEvent, ParamSpec } from '@fray/engine';

export type {
  CommandAck,
  CreateInviteReply,
  Deadlines,
  EncounterDetail,
  EncounterSummary,
  InviteInfo,
  PatchMessage,
  RulesetInfo,
  ViewerRole,
  WireError,
} from '@fray/protocol';

/** A log entry as a page keeps it: the server's (the `log` request) or one made from a live patch (its events only). */
export type LogEntry = Pick<WireLogEntry, 'seq' | 'events'> & Partial<Pick<WireLogEntry, 'commandId' | 'command' | 'at'>>;
