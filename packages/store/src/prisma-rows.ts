import { Prisma } from './generated/prisma/client.js';
import type { EncounterRecord, EncounterStatus, InviteRecord, Lease } from './types.js';

/** Rows of the Prisma client as the store's records, and values as the database takes them. */
export type EncounterRow = Prisma.EncounterGetPayload<object>;
export type InviteRow = Prisma.InviteGetPayload<object>;
export interface LeaseRow {
  encounter_id: string;
  owner_id: string;
  token: bigint | number;
  expires_at: Date;
}

/** Prisma's Json input refuses a bare null: store JSON null explicitly. */
export function json(value: unknown): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === null || value === undefined ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
}

/**
 * A text column that holds one of `values` (the migrations' CHECK constraint), read as that union;
 * any other value is a damaged row.
 */
export function oneOf<T extends string>(values: readonly T[], column: string): (value: string) => T {
  const known = new Set<string>(values);
  const isKnown = (value: string): value is T => known.has(value);
  return (value) => {
    if (isKnown(value)) return value;
    throw new TypeError(`The database holds an unknown ${column} "${value}".`);
  };
}
export const encounterStatus = oneOf<EncounterStatus>(['setup', 'active', 'ended', 'archived'], 'encounter status');
const inviteRole = oneOf<InviteRecord['role']>(['player', 'spectator'], 'invite role');

export function seedToDb(seed: number): bigint {
  if (!Number.isSafeInteger(seed)) throw new TypeError(`The encounter seed must be an integer, got ${seed}.`);
  return BigInt(seed);
}

export const toEncounter = (r: EncounterRow): EncounterRecord => ({
  id: r.id,
  accountId: r.accountId,
  name: r.name,
  ruleset: r.ruleset,
  options: r.options,
  seed: Number(r.seed),
  status: encounterStatus(r.status),
  round: r.round,
  version: r.version,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toInvite = (r: InviteRow): InviteRecord => ({
  id: r.id,
  encounterId: r.encounterId,
  role: inviteRole(r.role),
  playerId: r.playerId,
  combatantIds: r.combatantIds,
  revoked: r.revoked,
  expiresAt: r.expiresAt,
  createdAt: r.createdAt,
});

export const toLease = (r: LeaseRow): Lease => ({
  encounterId: r.encounter_id,
  ownerId: r.owner_id,
  token: Number(r.token),
  expiresAt: r.expires_at,
});

export function ttl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`A lease TTL must be a positive number of ms, got ${ttlMs}.`);
  return Math.ceil(ttlMs);
}

/**
 * A json or jsonb parameter as JSON text, flattened at once. `JSON.stringify` gives a long result
 * as a tree of pieces (a cons string) that the driver flattens into a new string only when it
 * writes the Bind message, after the query waited its turn; measuring its UTF-8 length here makes
 * V8 flatten it now, so the driver copies nothing later (docs/journal/performance-2026-11.md, Session 13).
 *
 * Text, not a Buffer in Postgres's binary format (Sessions 13 to 15 sent that): at 1,000 commands
 * a second most of these parameters outlived a scavenge, and a Buffer's memory lies outside V8's
 * heap, where it is given back only by a full GC; V8 starts one whenever that external memory has
 * grown 64 MB since the last, which these Buffers did in about 80 s (0.7 MB a second). As text
 * they stay in the heap, whose limit is five times what the last full GC left (Session 16).
 */
export function jsonParam(value: unknown): string {
  const text = JSON.stringify(value);
  Buffer.byteLength(text);
  return text;
}
