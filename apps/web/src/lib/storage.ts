/**
 * The account token older versions of the web app kept in localStorage. Only read, once, to trade
 * it for a session cookie and delete it (lib/session.ts, the upgrade path): nothing secret is
 * written to web storage any more.
 */
import { isRecord } from './guards.js';
const KEY = 'fray.account';

export interface Account {
  accountId: string | null;
  token: string;
  name?: string;
}

export function loadAccount(): Account | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const a: unknown = JSON.parse(raw);
    if (!isRecord(a) || typeof a.token !== 'string') return null;
    return {
      accountId: typeof a.accountId === 'string' ? a.accountId : null,
      token: a.token,
      name: typeof a.name === 'string' ? a.name : undefined,
    };
  } catch {
    return null;
  }
}

export function saveAccount(a: Account | null): void {
  if (a) localStorage.setItem(KEY, JSON.stringify(a));
  else localStorage.removeItem(KEY);
}
