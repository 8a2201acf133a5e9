/**
 * A capacity generator process (capacity/run.ts starts several): it holds its share of the run's
 * tables, five lean sockets each (lean-socket.ts), and on the orchestrator's word (IPC messages,
 * checked by `messageSchema`) connects them, drives a phase, or closes them.
 *
 * A phase: every table sends a command after an exponential wait of mean `meanIntervalMs`, from a
 * random one of its GM and players (Fray: `dice.roll`, which any seat may send at any time and
 * which keeps no more state as it repeats; the floor: `cmd`), whether or not an earlier one is still
 * in flight; the latency runs from the send until every client of the table has the update. A
 * share `malformed` of the sends is a malformed command instead (logic.ts, MALFORMED), which must
 * get its typed error. With `churn`, the churn seats connect, join, leave and connect again until
 * the phase ends. The generator reports its own CPU and event-loop delay: if it were the limit, it
 * would show there.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sleep } from '../proc.js';
import { LeanSocket } from './lean-socket.js';
import { messageSchema, type GenMessage, type GenPhase, type SeatPlan, type TablePlan } from './messages.js';
import { countMalformed, Delivery, MALFORMED, nextArrivalMs, seeded, type MalformedCounts } from './logic.js';

interface Table {
  id: string;
  seats: SeatPlan[];
  sockets: LeanSocket[];
  delivery: Delivery;
  seq: number;
}

let target: 'fray' | 'floor' = 'fray';
let url = '';
const tables: Table[] = [];
let churnSeats: Array<SeatPlan & { encounterId: string }> = [];
let sent = 0;
let connects = 0;

const okVersion = (ack: unknown): number | null =>
  typeof ack === 'object' && ack !== null && 'ok' in ack && ack.ok === true && 'version' in ack && typeof ack.version === 'number'
    ? ack.version
    : null;
const codeOf = (ack: unknown): string =>
  typeof ack === 'object' && ack !== null && 'error' in ack && typeof ack.error === 'object' && ack.error !== null && 'code' in ack.error
    ? String(ack.error.code)
    : 'NO_CODE';

/** One seat's socket, joined to its table; `onUpdate` gets the versions (Fray) or sequence numbers (floor) it sees. */
async function connectSeat(id: string, seat: SeatPlan, onUpdate: (to: number) => void): Promise<LeanSocket> {
  // spread over 200 loopback source addresses: tens of thousands of connections to one port
  const localAddress = `127.0.${1 + (process.pid % 200)}.${1 + (connects++ % 250)}`;
  const s = await LeanSocket.connect(url, seat.token ? { token: seat.token } : undefined, { localAddress });
  s.onEvent = (name, args) => {
    const a = args[0];
    if (name === 'patch' && typeof a === 'object' && a !== null && 'to' in a && typeof a.to === 'number') onUpdate(a.to);
    else if (name === 'msg' && typeof args[1] === 'number') onUpdate(args[1]);
  };
  const ack = await s.request('join', target === 'fray' ? { encounterId: id } : id);
  if (target === 'fray') {
    const v = okVersion(ack);
    if (v === null) throw new Error(`join ${id}: ${JSON.stringify(ack).slice(0, 200)}`);
    onUpdate(v);
  } else if (ack !== true) throw new Error(`floor join ${id}: ${JSON.stringify(ack)}`);
  return s;
}

/** Run `fn` over `items`, `width` at a time; the failures counted. */
async function pool<T>(items: T[], width: number, fn: (x: T) => Promise<void>): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const x = items[next++]!;
        await fn(x).catch(() => void (failed += 1));
      }
    }),
  );
  return failed;
}

async function connectTables(plans: TablePlan[]): Promise<{ connected: number; failed: number }> {
  let connected = 0;
  const jobs: Array<{ t: Table; k: number }> = [];
  for (const p of plans) {
    const t: Table = { id: p.id, seats: p.seats, sockets: [], delivery: new Delivery(p.seats.length), seq: 0 };
    tables.push(t);
    p.seats.forEach((_, k) => jobs.push({ t, k }));
  }
  const failed = await pool(jobs, 64, async ({ t, k }) => {
    const now = () => performance.now();
    t.sockets[k] = await connectSeat(t.id, t.seats[k]!, (to) => t.delivery.update(k, to, now()));
    connected += 1;
  });
  return { connected, failed };
}

interface Tally {
  latencies: number[];
  accepted: number;
  refused: Record<string, number>;
  malformed: MalformedCounts;
}

/** One command of table `t` (or a malformed one): counted into `tally` once answered and delivered. */
async function sendOne(t: Table, random: () => number, malformedShare: number, tally: Tally): Promise<void> {
  const senders = t.seats.map((s, k) => ({ s, k })).filter((x) => x.s.role !== 'spectator');
  const { s: seat, k } = senders[Math.floor(random() * senders.length)]!;
  const socket = t.sockets[k];
  if (!socket?.open) return;
  const commandId = `cap-${t.id}-${++sent}`;
  if (target === 'fray' && random() < malformedShare) {
    const m = MALFORMED[sent % MALFORMED.length]!;
    const ack = await socket.request('command', m.payload(t.id, commandId)).catch(() => undefined);
    countMalformed(tally.malformed, m.code, ack);
    return;
  }
  const handle = t.delivery.sent(performance.now(), (ms) => tally.latencies.push(ms));
  if (target === 'floor') handle.versioned(++t.seq, performance.now());
  const payload =
    target === 'fray'
      ? {
          encounterId: t.id,
          commandId,
          command: {
            type: 'dice.roll',
            formula: '1d20',
            purpose: 'capacity',
            ...(seat.combatantId ? { combatantId: seat.combatantId } : {}),
          },
        }
      : { room: t.id, seq: t.seq };
  const ack = await socket.request(target === 'fray' ? 'command' : 'cmd', payload).catch(() => ({ ok: false, error: { code: 'NO_ACK' } }));
  const v = target === 'fray' ? okVersion(ack) : null;
  if (target === 'fray' && v !== null) handle.versioned(v, performance.now());
  if (target === 'floor' || v !== null) tally.accepted += 1;
  else {
    handle.drop();
    tally.refused[codeOf(ack)] = (tally.refused[codeOf(ack)] ?? 0) + 1;
  }
}

/** The churn seats: connect, join, stay half a second, leave, until `endAt`. */
async function churnLoop(endAt: number, out: { cycles: number; failures: number }): Promise<void> {
  await Promise.all(
    churnSeats.map(async (seat) => {
      while (performance.now() < endAt) {
        try {
          const s = await connectSeat(seat.encounterId, seat, () => {});
          await sleep(500);
          s.close();
          out.cycles += 1;
        } catch {
          out.failures += 1;
        }
        await sleep(500);
      }
    }),
  );
}

async function runPhase(m: Extract<GenMessage, { type: 'phase' }>): Promise<Omit<GenPhase, 'type'>> {
  const random = seeded(m.seed);
  const tally: Tally = { latencies: [], accepted: 0, refused: {}, malformed: { sent: 0, typed: 0, other: {} } };
  const churn = { cycles: 0, failures: 0 };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const endAt = t0 + m.seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  const timers = tables.map((t) => {
    const fire = () => {
      if (performance.now() >= endAt) return;
      const p = sendOne(t, random, m.malformed, tally).finally(() => inFlight.delete(p));
      inFlight.add(p);
      timer = setTimeout(fire, nextArrivalMs(random, m.meanIntervalMs));
    };
    let timer = setTimeout(fire, nextArrivalMs(random, m.meanIntervalMs));
    return () => clearTimeout(timer);
  });
  const churned = m.churn ? churnLoop(endAt, churn) : Promise.resolve();
  await sleep(m.seconds * 1000);
  for (const stop of timers) stop();
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  loop.disable();
  // the commands still in flight get up to 10 s more; what is then still not everywhere is undelivered
  await Promise.race([Promise.allSettled([...inFlight, churned]), sleep(10_000)]);
  const undelivered = tables.reduce((a, t) => a + t.delivery.clear(), 0);
  const late = (ns: number) => Math.max(0, Math.round(ns / 1e4 - 1000) / 100);
  return {
    ...tally,
    undelivered,
    cpuPercent: ((cpu.user + cpu.system) / 1e6 / seconds) * 100,
    loopDelayMs: { p99: late(loop.percentile(99)), max: late(loop.max) },
    rssBytes: process.memoryUsage.rss(),
    churn,
  };
}

async function handle(m: GenMessage): Promise<unknown> {
  if (m.type === 'connect') {
    target = m.target;
    url = m.url;
    churnSeats = m.churn;
    return { type: 'connected', ...(await connectTables(m.tables)) };
  }
  if (m.type === 'phase') return { type: 'phase', ...(await runPhase(m)) };
  for (const t of tables.splice(0)) for (const s of t.sockets) s?.close();
  return { type: 'closed' };
}

process.on('message', (raw: unknown) => {
  handle(messageSchema.parse(raw)).then(
    (reply) => process.send?.(reply),
    (e: unknown) => process.send?.({ type: 'error', message: e instanceof Error ? e.message : String(e) }),
  );
});
process.on('disconnect', () => process.exit(0));
