import { createHash, randomBytes } from 'node:crypto';
import type { Viewer } from '@fray/engine';
import type { ServerStore } from './store.js';

export type Principal =
  | { kind: 'gm'; accountId: string }
  | { kind: 'invite'; inviteId: string; encounterId: string; role: 'player' | 'spectator'; playerId: string | null };

export function newToken(prefix: 'gm' | 'inv'): string {
  return `fray_${prefix}_${randomBytes(24).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function principalKey(p: Principal): string {
  return p.kind === 'gm' ? `account:${p.accountId}` : `invite:${p.inviteId}`;
}

export function viewerOf(p: Principal): Viewer {
  if (p.kind === 'gm') return { role: 'gm' };
  return p.role === 'player' && p.playerId ? { role: 'player', playerId: p.playerId } : { role: 'spectator' };
}

/** Resolves tokens (only their hashes are stored) to principals, with a short cache. */
export class Authenticator {
  private readonly cache = new Map<string, { p: Principal | null; at: number }>();
  constructor(
    private readonly store: ServerStore,
    private readonly ttlMs = 5000,
  ) {}

  async resolve(token: unknown): Promise<Principal | null> {
    if (typeof token !== 'string' || token.length < 10 || token.length > 200) return null;
    const hash = hashToken(token);
    const hit = this.cache.get(hash);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.p;
    let p: Principal | null = null;
    if (token.startsWith('fray_gm_')) {
      const a = await this.store.findAccountByTokenHash(hash);
      if (a) p = { kind: 'gm', accountId: a.id };
    } else if (token.startsWith('fray_inv_')) {
      const i = await this.store.findInviteByTokenHash(hash);
      if (i && !i.revoked && (!i.expiresAt || i.expiresAt.getTime() > Date.now())) {
        p = { kind: 'invite', inviteId: i.id, encounterId: i.encounterId, role: i.role, playerId: i.playerId };
      }
    }
    this.cache.set(hash, { p, at: Date.now() });
    if (this.cache.size > 50_000) this.cache.clear();
    return p;
  }

  forgetAll(): void {
    this.cache.clear();
  }
}
