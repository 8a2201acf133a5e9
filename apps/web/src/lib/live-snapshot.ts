import type { RewindNote } from '@fray/protocol';
import type { Deadlines, EncounterState, LogEntry, ViewerRole, WireError } from './types.js';

/** What a page shows of one live encounter (live.ts). */

/** `restarting`: the server said it is shutting down (a planned restart) and the page waits for it. */
export type ConnStatus = 'connecting' | 'online' | 'offline' | 'restarting' | 'failed';

/** A command clicked and not yet answered; then the last answer, for the page to show. */
export interface PendingCommand {
  commandId: string;
  label: string;
}
export interface SettledCommand extends PendingCommand {
  ok: boolean;
  message?: string;
}

export interface LiveSnapshot {
  status: ConnStatus;
  /** why the connection cannot go on (bad or expired invite, unknown encounter) */
  fatal: WireError | null;
  role: ViewerRole | null;
  playerId: string | null;
  version: number;
  /** the timeline branch (docs/timeline.md): a GM's rewind starts the next one */
  branch: number;
  state: EncounterState | null;
  deadlines: Deadlines;
  /** the event log as this viewer may see it, oldest first, one entry per command */
  log: LogEntry[];
  /** the GM's rewinds on the live branch, with what each undid as this viewer saw it (docs/timeline.md) */
  rewinds: RewindNote[];
  /** how many times the connection came back */
  reconnects: number;
  /** commands sent and not yet acknowledged */
  inFlight: number;
  /** the commands waiting for an answer (sent again, with the same id, when the connection is back) */
  pending: PendingCommand[];
  /** the last command answered while the connection was not live, or the last one answered */
  settled: SettledCommand | null;
  /** the last command this page sent that was applied: its label and its log entry (the ack's events, as this viewer sees them) */
  lastOwn: OwnCommand | null;
}

/** A command this page sent and the server applied, on the branch it was applied to. */
export interface OwnCommand {
  label: string;
  branch: number;
  entry: LogEntry;
}
