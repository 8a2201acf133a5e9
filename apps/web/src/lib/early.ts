import { Live } from './live.js';

/**
 * A player's or spectator's connection opened by the entry script (boot.ts) before React and the
 * screens have loaded, so that the socket's handshake and the join overlap the download of the
 * rest of the app. The page's first `useLive` for the same invite takes it over.
 */
let early: { key: string; live: Live } | null = null;

export function openEarly(token: string, encounterId: string): void {
  early = { key: `${encounterId}#${token}`, live: new Live({ token, encounterId }) };
}

export function takeEarly(token: string, encounterId: string): Live | null {
  if (!early || early.key !== `${encounterId}#${token}`) return null;
  const l = early.live;
  early = null;
  return l;
}
