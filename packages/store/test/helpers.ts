import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { EncounterRecord, LogEntry, Store } from '../src/index.js';

export const backend = process.env.DATABASE_URL ? 'postgres' : 'embedded';

export const uid = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

/** An account with one encounter (version 0, its initial snapshot saved). */
export async function seedEncounter(
  store: Store,
  over: Partial<Omit<EncounterRecord, 'createdAt' | 'updatedAt'>> = {},
  state: unknown = { v: 0 },
): Promise<EncounterRecord> {
  const accountId = over.accountId ?? uid('acc');
  if (!over.accountId) await store.createAccount({ id: accountId, tokenHash: uid('hash'), name: 'GM' });
  return store.createEncounter(
    {
      id: uid('enc'),
      accountId,
      name: 'Ambush at the ford',
      ruleset: 'fixture',
      options: { grid: true },
      seed: 1234,
      status: 'setup',
      round: 0,
      version: 0,
      ...over,
    },
    state,
  );
}

export function entry(encounterId: string, seq: number, commandId = `cmd-${seq}`): LogEntry {
  return {
    encounterId,
    seq,
    commandId,
    command: { type: 'turn.end', by: { role: 'gm' }, n: seq },
    events: [{ type: 'clock.changed', round: seq }],
  };
}

/**
 * A TCP proxy in front of the database that a test can cut (every connection dropped, new ones
 * refused) and restore on the same port: "Postgres goes down, Postgres comes back".
 */
export class CuttableProxy {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.sockets.add(client);
      this.sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** keep every connection open but forward nothing: a database that hangs */
  blackhole(): void {
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }

  /** drop every connection and stop listening (the port is then closed) */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(base: string): string {
    const u = new URL(base);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
