import { createHash, randomBytes } from 'node:crypto';
import type { Viewer } from '@fray/engine';
import type { InviteRecord } from '@fray/store';
import type { ServerStore } from './store.js';

/**
 * Who a request or socket is. A GM comes in through an account token (`fray_gm_`, accounts made
 * before passwords and `POST /accounts` without one), an API token (`fray_pat_`, made at
 * /account/tokens) or a browser session (the cookie): `via` says which, `credentialId` names the
 * API token or session, so ending it can disconnect its sockets (room `credentialRoom`).
 */
export type Principal =
  | { kind: 'gm'; accountId: string; via: 'account-token' | 'api-token' | 'session'; credentialId?: string }
  | { kind: 'invite'; inviteId: string; encounterId: string; role: 'player' | 'spectator'; playerId: string | null };

export function newToken(prefix: 'gm' | 'inv' | 'pat' | 'ses' | 'rpl'): string {
  return `fray_${prefix}_${randomBytes(24).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function principalKey(p: Principal): string {
  return p.kind === 'gm' ? `account:${p.accountId}` : `invite:${p.inviteId}`;
}

/** The socket.io room of every socket signed in with one session or API token (for ending it on every process). */
export function credentialRoom(kind: 'session' | 'api-token', id: string): string {
  return `${kind}:${id}`;
}

export function viewerOf(p: Principal): Viewer {
  if (p.kind === 'gm') return { role: 'gm' };
  return p.role === 'player' && p.playerId ? { role: 'player', playerId: p.playerId } : { role: 'spectator' };
}

/** A session cookie's verdict: the principal, or why not (expired sessions are ended on sight). */
export type SessionVerdict =
  { p: Extract<Principal, { kind: 'gm' }>; sessionId: string; expiresAt: Date } | { refused: 'unknown' | 'expired' };

const TOUCH_EVERY_MS = 60_000;

/**
 * Resolves tokens and session cookies (only their hashes are stored) to principals. Account and
 * invite tokens are cached a few seconds; API tokens and sessions never are, so ending one is
 * refused at once on every process.
 */
export class Authenticator {
  private readonly cache = new Map<string, { p: Principal | null; at: number }>();
  constructor(
    private readonly store: ServerStore,
    private readonly ttlMs = 5000,
  ) {}

  async resolve(token: unknown): Promise<Principal | null> {
    if (typeof token !== 'string' || token.length < 10 || token.length > 200) return null;
    const hash = hashToken(token);
    if (token.startsWith('fray_pat_')) return this.apiToken(hash);
    const hit = this.cache.get(hash);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.p;
    // one lookup for every socket of a token that connects meanwhile (a GM's tabs, a restart's herd)
    let p = this.inFlight.get(hash);
    if (!p) {
      p = this.lookup(token, hash).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, p);
    }
    return p;
  }

  private readonly inFlight = new Map<string, Promise<Principal | null>>();
  /** invite hashes asked for in this turn of the event loop: one query for all (findInvitesByTokenHashes) */
  private inviteBatch: { hashes: Set<string>; result: Promise<Map<string, InviteRecord>> } | null = null;

  private invite(hash: string): Promise<InviteRecord | null> {
    const many = this.store.findInvitesByTokenHashes?.bind(this.store);
    if (!many) return this.store.findInviteByTokenHash(hash);
    if (!this.inviteBatch || this.inviteBatch.hashes.size >= 500) {
      const hashes = new Set<string>();
      // the query leaves after the current turn, with every hash asked for until then; a hash
      // asked for after it left goes into the next batch
      const batch = {
        hashes,
        result: new Promise<void>((r) => setImmediate(r)).then(() => {
          if (this.inviteBatch === batch) this.inviteBatch = null;
          return many([...hashes]);
        }),
      };
      this.inviteBatch = batch;
    }
    this.inviteBatch.hashes.add(hash);
    return this.inviteBatch.result.then((m) => m.get(hash) ?? null);
  }

  private async lookup(token: string, hash: string): Promise<Principal | null> {
    let p: Principal | null = null;
    if (token.startsWith('fray_gm_')) {
      const a = await this.store.findAccountByTokenHash(hash);
      if (a) p = { kind: 'gm', accountId: a.id, via: 'account-token' };
    } else if (token.startsWith('fray_inv_')) {
      const i = await this.invite(hash);
      if (i && !i.revoked && (!i.expiresAt || i.expiresAt.getTime() > Date.now())) {
        p = { kind: 'invite', inviteId: i.id, encounterId: i.encounterId, role: i.role, playerId: i.playerId };
      }
    }
    this.cache.set(hash, { p, at: Date.now() });
    if (this.cache.size > 50_000) this.cache.clear();
    return p;
  }

  private async apiToken(hash: string): Promise<Principal | null> {
    const t = await this.store.accounts?.findApiTokenByHash(hash);
    if (!t) return null;
    if (!t.lastUsedAt || Date.now() - t.lastUsedAt.getTime() > TOUCH_EVERY_MS) await this.store.accounts!.touchApiToken(t.id);
    return { kind: 'gm', accountId: t.accountId, via: 'api-token', credentialId: t.id };
  }

  /** The browser session of a cookie value; an expired one is deleted and refused as `expired`. */
  async session(cookie: string): Promise<SessionVerdict> {
    const accounts = this.store.accounts;
    if (!accounts || !cookie.startsWith('fray_ses_') || cookie.length > 200) return { refused: 'unknown' };
    const s = await accounts.findSessionByTokenHash(hashToken(cookie));
    if (!s) return { refused: 'unknown' };
    if (s.expiresAt.getTime() <= Date.now()) {
      await accounts.deleteSession(s.accountId, s.id);
      return { refused: 'expired' };
    }
    if (Date.now() - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) await accounts.touchSession(s.id);
    return { p: { kind: 'gm', accountId: s.accountId, via: 'session', credentialId: s.id }, sessionId: s.id, expiresAt: s.expiresAt };
  }

  /** Forget the cached invites of an encounter (it was deleted: its tokens are refused from now on). */
  forgetEncounter(encounterId: string): void {
    for (const [hash, hit] of this.cache) if (hit.p?.kind === 'invite' && hit.p.encounterId === encounterId) this.cache.delete(hash);
  }

  forgetAll(): void {
    this.cache.clear();
  }
}
