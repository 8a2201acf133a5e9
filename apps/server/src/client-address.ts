import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * FRAY_TRUST_PROXY: whether the client's address is read from the reverse proxy's
 * X-Forwarded-For (for rate limits and logs). Unset or `false`: never (the header is the client's
 * to forge). `true`: every hop is trusted (only when nothing but the proxy can reach the server,
 * as in the compose file). A number: that many hops. Otherwise addresses or CIDR ranges, comma
 * separated, or `loopback`, `linklocal`, `uniquelocal` (docs/hosting.md).
 */
export type TrustProxy = boolean | number | string[];

export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** What fastify's `trustProxy` option takes for the same setting. */
export function fastifyTrustProxy(t: TrustProxy): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_addr, hop) => hop < t : t;
}

/** The client's address of a raw request (a socket.io handshake), as fastify's `req.ip` reads it. */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const direct = req.socket?.remoteAddress ?? '';
  if (trust === false) return direct;
  if (trust === true) return proxyAddr(req, () => true);
  if (typeof trust === 'number') return proxyAddr(req, (_addr, i) => i < trust);
  return proxyAddr(req, proxyAddr.compile(trust));
}
