import { useSyncExternalStore } from 'react';
import { api, ApiError, onSessionRefused, setCsrfToken } from './api.js';
import { loadAccount, saveAccount } from './storage.js';

/**
 * The GM's sign-in in this browser (docs/web.md, "Accounts"): an httpOnly session cookie the page
 * never sees, and its CSRF token in memory. Nothing secret is kept in web storage. A browser that
 * still holds an account token from before (localStorage) trades it for a session once and
 * forgets it: the upgrade path.
 */

export interface GmSession {
  status: 'loading' | 'in' | 'out';
  accountId: string | null;
  sessionId: string | null;
}

/** The credential the screens pass where a token went: the session cookie, so no token. */
export const SESSION_COOKIE = '';

interface SessionReply {
  accountId: string;
  sessionId: string;
  csrfToken: string;
  expiresAt: string;
}

let current: GmSession = { status: 'loading', accountId: null, sessionId: null };
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: GmSession): void {
  current = next;
  for (const fn of listeners) fn();
}

/** A sign-in answered by the server (sign-up, password, passkey, device code). */
export function signedIn(r: { accountId: string; sessionId?: string; csrfToken?: string }): void {
  if (r.csrfToken) setCsrfToken(r.csrfToken);
  set({ status: 'in', accountId: r.accountId, sessionId: r.sessionId ?? null });
}

export function markSignedOut(): void {
  setCsrfToken(null);
  set({ status: 'out', accountId: null, sessionId: null });
}

onSessionRefused((e) => {
  if (e.status === 401 && current.status === 'in') markSignedOut();
});

async function load(): Promise<void> {
  const legacy = loadAccount();
  if (legacy) {
    // the upgrade path: the old account token becomes a session cookie, and leaves web storage
    try {
      const r = await api<SessionReply>('POST', '/sessions', { token: legacy.token });
      saveAccount(null);
      signedIn(r);
      return;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) saveAccount(null);
    }
  }
  try {
    signedIn(await api<SessionReply>('GET', '/session'));
  } catch {
    markSignedOut();
  }
}

/** Ask the server again (after a sign-in elsewhere on the page, or to start). */
export function refreshSession(): Promise<void> {
  loading = load().finally(() => {
    loading = null;
  });
  return loading;
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  if (current.status === 'loading' && !loading) void refreshSession();
  return () => listeners.delete(fn);
}

export function useGmSession(): GmSession {
  return useSyncExternalStore(subscribe, () => current);
}

export async function signOut(): Promise<void> {
  try {
    await api('DELETE', '/session');
  } finally {
    markSignedOut();
  }
}
