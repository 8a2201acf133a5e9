/**
 * The restart floor (part of `BENCH_ONLY=restart`): the same kill -9 and restart, at the same
 * scale, of a bare socket.io server (floor-server.ts: no database, no authentication, no state).
 * Its clients are socket.io clients with @fray/client's transport and reconnection settings; each
 * one, once it has seen its connection drop, waits until it is connected again, joins its room
 * (the floor's rejoin) and sends one command that the server broadcasts to the room and
 * acknowledges. The times count from the restarted process listening (the floor's readiness).
 * What no server on this machine can beat: the reconnection of that many clients, on the same
 * cores, in the same run as Fray's figures.
 */
import { io, type Socket } from 'socket.io-client';
import { readFileSync } from 'node:fs';
import { sleep } from './proc.js';
import { freePort, startFloor } from './servers.js';
import { summarize, type Summary } from './stats.js';

export interface FloorRestart {
  clients: number;
  servedCount: number;
  /** signal → the new process listening */
  readyMs: number;
  /** per client, ms after the new process was listening (0 when before) */
  connected: Summary;
  joined: Summary;
  served: Summary;
  /** CPU ms the new process used from listening until the last client was served (its /proc stat), and the clients' */
  cpu: { server: number; clients: number };
}

/** the reconnection settings of @fray/client (packages/client/src/client.ts) */
const CLIENT_OPTIONS = { transports: ['websocket'], reconnectionDelay: 200, reconnectionDelayMax: 1000, forceNew: true };
const SERVED_CAP_MS = 120_000;

const ack = (s: Socket, event: string, ...args: unknown[]): Promise<unknown> => s.timeout(10_000).emitWithAck(event, ...args);

/** user + system CPU ms of a process since it started (Linux /proc/<pid>/stat, clock ticks of 10 ms) */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function connectAll(url: string, n: number, P: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, (_, k) => {
      const s = io(url, CLIENT_OPTIONS);
      return new Promise<Socket>((resolve, reject) => {
        s.once('connect', () => void ack(s, 'join', `r${Math.floor((i + k) / P)}`).then(() => resolve(s), reject));
        s.once('connect_error', reject);
      });
    });
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

/** One client after the kill: wait for the drop, then for the connection, then rejoin and one command. */
interface Times {
  connected?: number;
  joined?: number;
  served?: number;
}

async function probe(s: Socket, room: string, t: Times): Promise<void> {
  for (let w = 0; w < 100 && s.connected; w++) await sleep(50);
  if (!s.connected) await new Promise<void>((r) => s.once('connect', () => r()));
  t.connected = Date.now();
  for (;;) {
    try {
      await ack(s, 'join', room);
      t.joined ??= Date.now();
      await ack(s, 'cmd', { room, seq: 1 });
      t.served = Date.now();
      return;
    } catch {
      await sleep(100);
    }
  }
}

export async function runFloorRestart(E: number, P: number, log: (...a: unknown[]) => void): Promise<FloorRestart> {
  const port = await freePort();
  let sv = await startFloor(600, [], port);
  const sockets = await connectAll(sv.url, E * P, P);
  log(`restart floor: ${sockets.length} socket.io clients connected to the bare server`);
  try {
    await sleep(2000);
    const times = sockets.map((): Times => ({}));
    const exited = new Promise<void>((r) => sv.child.once('exit', () => r()));
    const at = Date.now();
    sv.child.kill('SIGKILL');
    const probes = sockets.map((s, i) => probe(s, `r${Math.floor(i / P)}`, times[i]!));
    await exited;
    sv = await startFloor(600, [], port);
    const readyAt = Date.now();
    const cpu0 = cpuMsOf(sv.pid);
    const clients0 = process.cpuUsage();
    await Promise.race([Promise.all(probes), sleep(SERVED_CAP_MS)]);
    const used = process.cpuUsage(clients0);
    const cpu = { server: cpuMsOf(sv.pid) - cpu0, clients: (used.user + used.system) / 1000 };
    const after = (k: 'connected' | 'joined' | 'served') =>
      summarize(times.flatMap((x) => (x[k] === undefined ? [] : [Math.max(0, x[k] - readyAt)])));
    return {
      clients: sockets.length,
      servedCount: times.filter((x) => x.served !== undefined).length,
      readyMs: readyAt - at,
      connected: after('connected'),
      joined: after('joined'),
      served: after('served'),
      cpu,
    };
  } finally {
    for (const s of sockets) s.close();
    await sv.stop().catch(() => {});
  }
}
