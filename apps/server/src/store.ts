import type { RuntimeStore } from '@fray/runtime';

/** The part of `@fray/store`'s `Store` the server uses (the runtime's part plus accounts and invites). */
export interface ServerStore extends RuntimeStore {
  readonly kind: string;
  readonly description: string;
  createAccount(input: { id: string; tokenHash: string; name?: string | null }): Promise<{ id: string; name: string | null; createdAt: Date }>;
  findAccountByTokenHash(tokenHash: string): Promise<{ id: string; name: string | null; createdAt: Date } | null>;
  listEncounters(accountId: string, opts?: { includeArchived?: boolean }): Promise<Awaited<ReturnType<RuntimeStore['getEncounter']>> extends infer R ? NonNullable<R>[] : never>;
  createInvite(input: {
    id: string;
    encounterId: string;
    role: 'player' | 'spectator';
    playerId: string | null;
    combatantIds: string[];
    expiresAt: Date | null;
    tokenHash: string;
  }): Promise<InviteLike>;
  findInviteByTokenHash(tokenHash: string): Promise<InviteLike | null>;
  listInvites(encounterId: string): Promise<InviteLike[]>;
  revokeInvite(id: string): Promise<void>;
  close(): Promise<void>;
  /** who holds an encounter's lease (the real store has it; used to send clients to the owner) */
  getLease?(encounterId: string): Promise<{ encounterId: string; ownerId: string; token: number; expiresAt: Date } | null>;
}

export interface InviteLike {
  id: string;
  encounterId: string;
  role: 'player' | 'spectator';
  playerId: string | null;
  combatantIds: string[];
  revoked: boolean;
  expiresAt: Date | null;
  createdAt: Date;
}
