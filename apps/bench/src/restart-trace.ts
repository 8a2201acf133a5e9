/**
 * Where a restart's seconds go, per client (restart.ts): when its socket connected again, when
 * its encounter was joined again (the first sync or join answered ok), when its command was
 * served; and every refusal any client was handed on the way, by event and code, retries
 * included (the client library retries them; only what is left over reaches the caller).
 */
import type { FrayClient } from '@fray/client';
import { summarize, type Summary } from './stats.js';

/** One client's times (epoch ms) after a signal; undefined until it happened. */
export interface Probe {
  connected?: number;
  joined?: number;
  served?: number;
}

/** The times of one restart, every client's probe, and the refusals counted meanwhile. */
export class Trace {
  readonly probes = new Map<FrayClient, Probe>();
  /** `${event} ${code}` → how often a client was handed it (connect: the middleware's code, or `transport`) */
  readonly refused: Record<string, number> = {};
  active = false;

  note(key: string): void {
    if (this.active) this.refused[key] = (this.refused[key] ?? 0) + 1;
  }

  probe(client: FrayClient): Probe | undefined {
    return this.active ? this.probes.get(client) : undefined;
  }

  /** Start counting: a fresh probe for every client. */
  begin(clients: readonly FrayClient[]): void {
    this.probes.clear();
    for (const c of clients) this.probes.set(c, {});
    for (const k of Object.keys(this.refused)) delete this.refused[k];
    this.active = true;
  }

  /** Each stage's times, ms after `from` (negative: before it), over the clients that reached it. */
  stages(from: number): { connected: Summary; joined: Summary; served: Summary } {
    const of = (k: keyof Probe) => summarize([...this.probes.values()].flatMap((p) => (p[k] === undefined ? [] : [p[k] - from])));
    return { connected: of('connected'), joined: of('joined'), served: of('served') };
  }
}

/**
 * Watch one client: its sockets' connects and refused connects, and every request's answer (the
 * client's `request`, which its mirrors' syncs and its commands go through, wrapped).
 */
export function watch(client: FrayClient, trace: Trace): void {
  client.onSocket((socket) => {
    socket.on('connect', () => {
      const p = trace.probe(client);
      if (p && p.connected === undefined) p.connected = Date.now();
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => trace.note(`connect ${err.data?.code ?? 'transport'}`));
  });
  const request = client.request.bind(client);
  client.request = async (event, payload) => {
    try {
      const ack = await request(event, payload);
      const p = trace.probe(client);
      if (!ack.ok) trace.note(`${event} ${ack.error.code}`);
      // joined again: the first sync (or join) answered on the socket that connected after the signal
      else if (p && p.connected !== undefined && p.joined === undefined && (event === 'sync' || event === 'join')) p.joined = Date.now();
      return ack;
    } catch (e) {
      trace.note(`${event} ${e instanceof Error ? e.message : 'error'}`);
      throw e;
    }
  };
}
