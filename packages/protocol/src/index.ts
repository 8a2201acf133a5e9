import { z } from 'zod';

export * from './accounts.js';

/**
 * Every message that crosses the wire, as zod schemas: the HTTP bodies and replies, and the
 * socket.io events. The server validates everything it receives with these; the typed client
 * (`@fray/client`) and the web client share them. See docs/protocol.md.
 */

// ---------------------------------------------------------------------------------------------
// Limits

export const LIMITS = {
  /** the largest socket message the server accepts (bytes of JSON) */
  maxSocketMessageBytes: 16 * 1024,
  /** the largest HTTP body the server accepts */
  maxHttpBodyBytes: 64 * 1024,
  /** how many patches the server keeps per viewer for `sync` */
  syncHistory: 256,
} as const;

// ---------------------------------------------------------------------------------------------
// Errors

/** Error codes of the server itself (engine codes such as `NOT_YOUR_TURN` pass through as they are). */
export const serverErrorCodes = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INVALID_JSON',
  'INVALID_MESSAGE',
  'INVALID_REQUEST',
  'UNKNOWN_EVENT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'NOT_JOINED',
  'STALE_VERSION',
  'COMMAND_ID_TAKEN',
  'CONFLICT',
  'ENCOUNTER_BUSY',
  'ENCOUNTER_ARCHIVED',
  'NOT_OWNER',
  'UNAVAILABLE',
  'INTERNAL',
  'WRONG_CREDENTIALS',
  'SESSION_EXPIRED',
  'CSRF_FAILED',
  'NAME_TAKEN',
  'INVALID_NAME',
  'NAME_REQUIRED',
  'WEAK_PASSWORD',
  'LAST_SIGN_IN_METHOD',
  'WEBAUTHN_INVALID',
  'WEBAUTHN_CHALLENGE_INVALID',
  'PASSKEY_UNKNOWN',
  'DEVICE_CODE_INVALID',
  'DEVICE_CODE_USED',
  'DEVICE_CODE_EXPIRED',
] as const;
export type ServerErrorCode = (typeof serverErrorCodes)[number];

export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  rule: z.string().optional(),
  /** NOT_OWNER: the URL of the server process that runs the encounter (several processes) */
  ownerUrl: z.string().optional(),
  /** RATE_LIMITED by the sign-in backoff: seconds before trying again (also the Retry-After header) */
  retryAfter: z.number().optional(),
});
export type WireError = z.infer<typeof errorSchema>;

/** Every HTTP error body. */
export const errorBodySchema = z.object({ error: errorSchema }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

// ---------------------------------------------------------------------------------------------
// Shared pieces

export const idSchema = z.string().min(1).max(64);
/** A client's idempotency key for a command. */
export const commandIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits, . _ : -');
export const viewerRoleSchema = z.enum(['gm', 'player', 'spectator']);
export type ViewerRole = z.infer<typeof viewerRoleSchema>;

/** RFC 6902 JSON Patch operation. */
export const patchOpSchema = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string(),
  from: z.string().optional(),
  value: z.unknown().optional(),
});
export type PatchOp = z.infer<typeof patchOpSchema>;

/** A command as a client sends it: the engine's fields without `by` (the server sets `by`). */
export const clientCommandSchema = z
  .object({ type: z.string().min(1).max(64) })
  .catchall(z.unknown())
  .refine((c) => !('by' in c), { message: '`by` is set by the server from your token; leave it out.' });
export type ClientCommand = z.infer<typeof clientCommandSchema>;

/** Runtime deadlines a client may show as countdowns (epoch milliseconds, server clock). */
export const deadlinesSchema = z.object({
  reaction: z.object({ windowId: z.string(), at: z.number() }).nullable(),
  turn: z.object({ combatantId: z.string(), at: z.number() }).nullable(),
});
export type Deadlines = z.infer<typeof deadlinesSchema>;

// ---------------------------------------------------------------------------------------------
// HTTP


export const createEncounterBody = z
  .object({
    name: z.string().min(1).max(120),
    ruleset: z.string().min(1).max(64),
    options: z.record(z.string(), z.unknown()).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  })
  .strict();

export const encounterStatusSchema = z.enum(['setup', 'active', 'ended', 'archived']);
export const encounterSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  ruleset: z.string(),
  status: encounterStatusSchema,
  round: z.number(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EncounterSummary = z.infer<typeof encounterSummarySchema>;

/** An invite as the GM sees it (never its token: the server keeps only a hash). */
export const inviteInfoSchema = z.object({ id: z.string(), role: z.enum(['player', 'spectator']), playerId: z.string().nullable(), combatantIds: z.array(z.string()), revoked: z.boolean() });
export type InviteInfo = z.infer<typeof inviteInfoSchema>;

export const encounterDetailSchema = encounterSummarySchema.extend({
  options: z.unknown(),
  seed: z.number(),
  state: z.unknown(),
  turnTimerSeconds: z.number().nullable(),
  invites: z.array(inviteInfoSchema),
});
export type EncounterDetail = z.infer<typeof encounterDetailSchema>;

export const updateEncounterBody = z
  .object({
    name: z.string().min(1).max(120).optional(),
    /** the GM's turn timer: a turn ends by itself after this many seconds; null = off */
    turnTimerSeconds: z.number().int().min(5).max(3600).nullable().optional(),
  })
  .strict();

const itemBody = z.object({
  id: idSchema,
  name: z.string().min(1).max(120),
  location: z.enum(['left-hand', 'right-hand', 'both-hands', 'carried', 'ground']),
  tags: z.array(z.string().max(64)).max(32).optional(),
  props: z.record(z.string(), z.unknown()).optional(),
});

export const addCombatantBody = z
  .object({
    id: idSchema.optional(),
    name: z.string().min(1).max(120),
    side: z.string().min(1).max(64),
    hidden: z.boolean().optional(),
    secretStats: z.array(z.string().max(64)).max(64).optional(),
    stats: z.record(z.string(), z.unknown()),
    position: z.unknown().optional(),
    items: z.array(itemBody).max(100).optional(),
  })
  .strict();

export const patchCombatantBody = z
  .object({
    name: z.string().min(1).max(120).optional(),
    side: z.string().min(1).max(64).optional(),
    hidden: z.boolean().optional(),
    secretStats: z.array(z.string().max(64)).max(64).optional(),
    stats: z.record(z.string(), z.unknown()).optional(),
    items: z.array(itemBody).max(100).optional(),
    position: z.unknown().optional(),
  })
  .strict();

export const createInviteBody = z.discriminatedUnion('role', [
  z.object({ role: z.literal('player'), combatantIds: z.array(idSchema).min(1).max(50) }).strict(),
  z.object({ role: z.literal('spectator') }).strict(),
]);
/** A new invite and its token (shown once). */
export const createInviteReply = z.object({
  id: z.string(),
  token: z.string(),
  role: z.enum(['player', 'spectator']),
  playerId: z.string().nullable(),
});

export const idReply = z.object({ id: z.string(), version: z.number().optional() });
export type CreateInviteReply = z.infer<typeof createInviteReply>;

export const logEntrySchema = z.object({
  seq: z.number(),
  commandId: z.string(),
  command: z.unknown().optional(),
  events: z.array(z.unknown()),
  at: z.string().nullable(),
});
export type WireLogEntry = z.infer<typeof logEntrySchema>;

export const rulesetInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.string(),
  options: z.object({ schema: z.unknown(), defaults: z.unknown(), docs: z.record(z.string(), z.string()) }),
  stats: z.object({ schema: z.unknown(), docs: z.record(z.string(), z.string()) }),
  position: z.object({ schema: z.unknown() }),
  commands: z.array(z.string()),
  /** per command type: who may send it and its fields as JSON Schema (without `type` and `by`), for forms */
  commandInfo: z.record(z.string(), z.object({ actor: z.enum(['gm', 'combatant', 'any']), reaction: z.boolean(), schema: z.unknown() })),
  /** the battle map's space: squares, hexes or zones (and where the zones are in the state) */
  space: z.object({ kind: z.enum(['squares', 'hexes', 'zones']), zones: z.string().optional(), terrain: z.string().optional() }).nullable(),
  catalogue: z.array(z.unknown()),
  /** how the ruleset is shown: vitals, stat labels and groups, internal fields, event sentences (engine's RulesetDisplay) */
  display: z.unknown(),
});
export type RulesetInfo = z.infer<typeof rulesetInfoSchema>;

// ---------------------------------------------------------------------------------------------
// Socket.io

export const joinRequest = z.object({ encounterId: idSchema }).strict();
export type JoinRequest = z.infer<typeof joinRequest>;

export const commandRequest = z
  .object({
    encounterId: idSchema,
    commandId: commandIdSchema,
    expectedVersion: z.number().int().min(0).optional(),
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

export const logRequest = z.object({ encounterId: idSchema, afterSeq: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() }).strict();
export type LogRequest = z.infer<typeof logRequest>;

export const timerRequest = z.object({ encounterId: idSchema, turnSeconds: z.number().int().min(5).max(3600).nullable() }).strict();
export type TimerRequest = z.infer<typeof timerRequest>;

export const leaveRequest = joinRequest;

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
  ops: PatchOp[];
  events: unknown[];
  deadlines: Deadlines;
}

export type SyncAck =
  | { ok: true; kind: 'patches'; version: number; patches: PatchMessage[] }
  | { ok: true; kind: 'snapshot'; version: number; state: unknown; deadlines: Deadlines }
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
      reachable: Array<{ to: unknown; path?: unknown[]; steps: number; label?: string; provokes?: { at: number; from: string[]; description: string } }>;
      refused: Array<{ to: unknown; error: WireError }>;
      explain?: { to: unknown; ok: boolean; error?: WireError; path?: unknown[] };
    }
  | Failure;
export type LogAck = { ok: true; entries: WireLogEntry[] } | Failure;
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
export type ClosedReason = 'shutdown' | 'lease lost' | 'database error';

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
   * error` (join again here once the database answers)
   */
  closed(msg: { encounterId: string; reason: ClosedReason | (string & {}) }): void;
}

export const clientEventNames = ['join', 'leave', 'command', 'sync', 'actions', 'reach', 'log', 'timer'] as const;
export type ClientEventName = (typeof clientEventNames)[number];

export const clientEventSchemas: Record<ClientEventName, z.ZodType> = {
  join: joinRequest,
  leave: leaveRequest,
  command: commandRequest,
  sync: syncRequest,
  actions: actionsRequest,
  reach: reachRequest,
  log: logRequest,
  timer: timerRequest,
};

/** HTTP status for an error code (server or engine). */
export function httpStatusFor(code: string): number {
  switch (code) {
    case 'UNAUTHORIZED':
    case 'WRONG_CREDENTIALS':
    case 'SESSION_EXPIRED':
    case 'PASSKEY_UNKNOWN':
    case 'DEVICE_CODE_INVALID':
    case 'DEVICE_CODE_USED':
    case 'DEVICE_CODE_EXPIRED':
      return 401;
    case 'FORBIDDEN':
    case 'NOT_AUTHORIZED':
    case 'CSRF_FAILED':
      return 403;
    case 'NOT_FOUND':
    case 'UNKNOWN_COMBATANT':
      return 404;
    case 'CONFLICT':
    case 'STALE_VERSION':
    case 'COMMAND_ID_TAKEN':
    case 'ENCOUNTER_BUSY':
    case 'ENCOUNTER_ARCHIVED':
    case 'NOT_OWNER':
    case 'NAME_TAKEN':
    case 'LAST_SIGN_IN_METHOD':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'RATE_LIMITED':
      return 429;
    case 'INVALID_JSON':
      return 400;
    case 'UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
    default:
      return 422;
  }
}
