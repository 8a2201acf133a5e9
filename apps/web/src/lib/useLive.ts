import { useEffect, useState, useSyncExternalStore } from 'react';
import { takeEarly } from './early.js';
import { Live, type LiveSnapshot } from './live.js';

declare global {
  interface Window {
    /** the page's live connection (tests cut it to prove the reconnect) */
    __frayLive?: Live;
  }
}

const idle = (): (() => void) => () => {};

/** One live connection for the component's lifetime; `token` '' signs in with the session cookie, null waits. */
export function useLive(token: string | null, encounterId: string): { live: Live | null; snap: LiveSnapshot | null } {
  const [live, setLive] = useState<Live | null>(null);
  useEffect(() => {
    if (token === null) return;
    const l = (token ? takeEarly(token, encounterId) : null) ?? new Live({ token, encounterId });
    setLive(l);
    window.__frayLive = l;
    return () => {
      l.close();
      if (window.__frayLive === l) delete window.__frayLive;
      setLive(null);
    };
  }, [token, encounterId]);
  const snap = useSyncExternalStore(live ? live.subscribe : idle, live ? live.getSnapshot : () => null);
  return { live, snap };
}
