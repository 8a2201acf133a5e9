import { z } from 'zod';

import { clientCommandSchema, commandIdSchema, idSchema, type Deadlines, type PatchOp, type ViewerRole } from './common.js';
import type { WireError } from './errors.js';
import type { WireLogEntry } from './http.js';
/** The socket.io events: requests (validated by the server), acknowledgements and server messages. */
export const joinRequest = z.object({ encounterId: idSchema }).strict();
export type JoinRequest = z.infer<typeof joinRequest>;

export const commandRequest = z
  .object({
    encounterId: idSchema,
    commandId: commandIdSchema,
    expectedVersion: z.number().int().min(0).optional(),
    /** the timeline branch the client is on (docs/timeline.md): a command made on a branch a rewind left is refused (STALE_BRANCH) */
    branch: z.number().int().min(0).optional(),
    command: clientCommandSchema,
  })
  .strict();
export type CommandRequest = z.infer<typeof commandRequest>;

export const syncRequest = z.object({ encounterId: idSchema, since: z.number().int().min(0) }).strict();
export type SyncRequest = z.infer<typeof syncRequest>;

export const actionsRequest = z.object({ encounterId: idSchema, combatantId: idSchema }).strict();
export type ActionsRequest = z.infer<typeof actionsRequest>;

/** Where a combatant can go with one of its movement options (see docs/protocol.md, `reach`). */
export const reachRequest = z
  .object({
    encounterId: idSchema,
    combatantId: idSchema,
    command: z.string().min(1).max(64),
    action: z.string().min(1).max(64).optional(),
    template: z.record(z.string(), z.unknown()).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    to: z.unknown().optional(),
  })
  .strict();
export type ReachRequestMessage = z.infer<typeof reachRequest>;

export const logRequest = z
  .object({
    encounterId: idSchema,
    afterSeq: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    branch: z.number().int().min(0).optional(),
  })
  .strict();
export type LogRequest = z.infer<typeof logRequest>;

export const timerRequest = z.object({ encounterId: idSchema, turnSeconds: z.number().int().min(5).max(3600).nullable() }).strict();
export type TimerRequest = z.infer<typeof timerRequest>;

export const leaveRequest = z.object({ encounterId: idSchema }).strict();

export interface Failure {
  ok: false;
  error: WireError;
}

export interface JoinOk {
  ok: true;
  encounterId: string;
  version: number;
  /** the state projected for this viewer */
  state: unknown;
  role: ViewerRole;
  playerId: string | null;
  deadlines: Deadlines;
  /** the live timeline branch (docs/timeline.md) */
  branch?: number;
}
export type JoinAck = JoinOk | Failure;

export interface CommandOk {
  ok: true;
  version: number;
  /** the command's events as this viewer may see them */
  events: unknown[];
}
export type CommandAck = CommandOk | Failure;

export interface PatchMessage {
  encounterId: string;
  from: number;
  to: number;
  /**
   * set on the patch of a rewind (docs/timeline.md): the encounter goes on from version `to` (lower
   * than `from`) on this branch, and `ops` replace the whole state
   */
  branch?: number;
  ops: PatchOp[];
  events: unknown[];
  deadlines: Deadlines;
}

export type SyncAck =
  | { ok: true; kind: 'patches'; version: number; patches: PatchMessage[] }
  | { ok: true; kind: 'snapshot'; version: number; branch?: number; state: unknown; deadlines: Deadlines }
  | Failure;

export type ActionsAck = { ok: true; version: number; actions: unknown[] } | Failure;
/** `reach`: the legal destinations of a movement option (cells with path, steps and provocation; or zones), the refused ones with the rule. */
export type ReachAck =
  | {
      ok: true;
      version: number;
      space: 'squares' | 'hexes' | 'zones';
      param: string;
      paramKind: 'path' | 'position';
      from: unknown;
      maxSteps: number | null;
      reachable: Array<{
        to: unknown;
        path?: unknown[];
        steps: number;
        label?: string;
        provokes?: { at: number; from: string[]; description: string };
      }>;
      refused: Array<{ to: unknown; error: WireError }>;
      explain?: { to: unknown; ok: boolean; error?: WireError; path?: unknown[] };
    }
  | Failure;
/**
 * A rewind on the branch a `log` read follows (docs/timeline.md): the GM took the encounter from
 * `fromVersion` back to `toVersion`, where branch `branch` goes on. `undone`: the first entries it
 * left (at most a few, from branch `fromBranch`), as this viewer may see them; `undoneCount`: how many it left.
 */
export interface RewindNote {
  branch: number;
  fromBranch: number;
  fromVersion: number;
  toVersion: number;
  at: string | null;
  undone: WireLogEntry[];
  undoneCount: number;
}
/** `rewinds` (the first page only, `afterSeq` 0): the rewinds on the read branch's path, oldest first. */
export type LogAck = { ok: true; entries: WireLogEntry[]; rewinds?: RewindNote[] } | Failure;
export type SimpleAck = { ok: true } | Failure;

/** Events the client emits (each takes an ack callback). */
export interface ClientToServerEvents {
  join(req: JoinRequest, ack: (a: JoinAck) => void): void;
  leave(req: JoinRequest, ack: (a: SimpleAck) => void): void;
  command(req: CommandRequest, ack: (a: CommandAck) => void): void;
  sync(req: SyncRequest, ack: (a: SyncAck) => void): void;
  actions(req: ActionsRequest, ack: (a: ActionsAck) => void): void;
  log(req: LogRequest, ack: (a: LogAck) => void): void;
  reach(req: ReachRequestMessage, ack: (a: ReachAck) => void): void;
  timer(req: TimerRequest, ack: (a: SimpleAck) => void): void;
}

/** Why an encounter left a process (the `closed` message). */
export type ClosedReason = 'shutdown' | 'lease lost' | 'database error' | 'deleted';

/** Events the server emits. */
/**
 * The deadlines changed without a change to the state (the GM set or cleared the turn timer, or
 * the runtime re-armed it): what a patch's `deadlines` would say, for the state at `version`.
 */
export interface DeadlinesMessage {
  encounterId: string;
  version: number;
  deadlines: Deadlines;
}

export interface ServerToClientEvents {
  patch(msg: PatchMessage): void;
  deadlines(msg: DeadlinesMessage): void;
  /** an error not tied to an ack (e.g. an unknown event sent without a callback) */
  error(err: { error: WireError }): void;
  /**
   * the encounter left this process; `reason` (ClosedReason) says where to go: `shutdown` (the
   * process is stopping and has released the lease: reconnect through the load balancer and
   * join), `lease lost` (another process took it: join again, NOT_OWNER names it), `database
   * error` (join again here once the database answers), `deleted` (the GM deleted the
   * encounter: it is gone, do not join again; its invites are refused with ENCOUNTER_DELETED)
   */
  closed(msg: { encounterId: string; reason: ClosedReason | (string & {}) }): void;
}

export const clientEventNames = ['join', 'leave', 'command', 'sync', 'actions', 'reach', 'log', 'timer'] as const;
export type ClientEventName = (typeof clientEventNames)[number];

/** What each client event's request is, once its schema has parsed it. */
export interface ClientRequests {
  join: JoinRequest;
  leave: z.infer<typeof leaveRequest>;
  command: CommandRequest;
  sync: SyncRequest;
  actions: ActionsRequest;
  reach: ReachRequestMessage;
  log: LogRequest;
  timer: TimerRequest;
}

export const clientEventSchemas: { [E in ClientEventName]: z.ZodType<ClientRequests[E]> } = {
  join: joinRequest,
  leave: leaveRequest,
  command: commandRequest,
  sync: syncRequest,
  actions: actionsRequest,
  reach: reachRequest,
  log: logRequest,
  timer: timerRequest,
};
