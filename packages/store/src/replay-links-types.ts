/**
 * Read-only replay links (docs/timeline.md, "Replay"): a token whose holder watches an
 * encounter's replay as one viewer. Only the token's SHA-256 is stored.
 */

export interface ReplayLinkRecord {
  id: string;
  encounterId: string;
  /** `spectator`, `gm`, or `player:<playerId>` */
  viewer: string;
  /** null: the live branch when watched */
  branch: number | null;
  revoked: boolean;
  expiresAt: Date | null;
  createdAt: Date;
}

export interface ReplayLinksStore {
  create(input: Omit<ReplayLinkRecord, 'createdAt' | 'revoked'> & { tokenHash: string }): Promise<ReplayLinkRecord>;
  findByTokenHash(tokenHash: string): Promise<ReplayLinkRecord | null>;
  /** oldest first */
  list(encounterId: string): Promise<ReplayLinkRecord[]>;
  /** false when the encounter has no such link */
  revoke(encounterId: string, id: string): Promise<boolean>;
}
