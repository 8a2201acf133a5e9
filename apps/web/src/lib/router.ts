import { useSyncExternalStore } from 'react';

/** A tiny history-API router: the server answers /gm, /gm/*, /play/*, /watch/*, /replay with index.html. */

const listeners = new Set<() => void>();
function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  window.addEventListener('popstate', fn);
  window.addEventListener('hashchange', fn);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('popstate', fn);
    window.removeEventListener('hashchange', fn);
  };
}
const snapshot = () => window.location.pathname + window.location.search + window.location.hash;

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const fn of listeners) fn();
  window.scrollTo(0, 0);
}

export type Route =
  | { name: 'home' }
  | { name: 'gm' }
  | { name: 'account' }
  | { name: 'device'; code: string }
  | { name: 'console'; encounterId: string }
  | { name: 'replay'; encounterId: string }
  | { name: 'shared-replay'; token: string }
  | { name: 'play'; encounterId: string; token: string }
  | { name: 'watch'; encounterId: string; token: string }
  | { name: 'missing'; path: string };

export function parseRoute(pathname: string, hash: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const token = hash.replace(/^#/, '');
  if (parts.length === 0) return { name: 'home' };
  if (parts[0] === 'gm' && parts.length === 1) return { name: 'gm' };
  if (parts[0] === 'gm' && parts[1] === 'account' && parts.length === 2) return { name: 'account' };
  if (parts[0] === 'gm' && parts[1] === 'device' && parts.length === 2) return { name: 'device', code: token };
  if (parts[0] === 'gm' && parts[1] === 'e' && parts[2] && parts[3] === 'replay' && parts.length === 4)
    return { name: 'replay', encounterId: parts[2] };
  if (parts[0] === 'gm' && parts[1] === 'e' && parts[2]) return { name: 'console', encounterId: parts[2] };
  if (parts[0] === 'replay' && parts.length === 1) return { name: 'shared-replay', token };
  if (parts[0] === 'play' && parts[1]) return { name: 'play', encounterId: parts[1], token };
  if (parts[0] === 'watch' && parts[1]) return { name: 'watch', encounterId: parts[1], token };
  return { name: 'missing', path: pathname };
}

export function useRoute(): Route {
  const s = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(s, window.location.origin);
  return parseRoute(url.pathname, url.hash);
}

export function inviteLink(role: 'player' | 'spectator', encounterId: string, token: string): string {
  return `${window.location.origin}/${role === 'player' ? 'play' : 'watch'}/${encodeURIComponent(encounterId)}#${token}`;
}
