import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectRefused, LeanSocket } from '../src/capacity/lean-socket.js';
import {
  countMalformed,
  DEFAULT_STEPS,
  Delivery,
  gcWindow,
  MALFORMED,
  nextArrivalMs,
  parseSteps,
  parseTraceGc,
  seeded,
  sizing,
  stopReason,
  type MalformedCounts,
} from '../src/capacity/logic.js';
import { capacitySection } from '../src/report-capacity.js';
import type { CapacityResult, CapacityStep } from '../src/capacity/run.js';
import { openFilesLimit } from '../src/proc.js';
import { summarize } from '../src/stats.js';

describe('capacity steps and arrivals', () => {
  it('reads BENCH_CAPACITY_STEPS, ascending, and defaults to the issue steps', () => {
    expect(parseSteps(undefined)).toEqual([1000, 2500, 5000, 10000]);
    expect(parseSteps('')).toEqual(DEFAULT_STEPS);
    expect(parseSteps('200, 500')).toEqual([200, 500]);
    expect(() => parseSteps('500,200')).toThrow(/ascend/);
    expect(() => parseSteps('10,x')).toThrow();
    expect(() => parseSteps('0')).toThrow();
  });

  it('draws the same arrivals for the same seed, exponential with the asked mean', () => {
    const a = seeded(7);
    const b = seeded(7);
    const xs = Array.from({ length: 20_000 }, () => nextArrivalMs(a, 10_000));
    expect(Array.from({ length: 5 }, () => nextArrivalMs(b, 10_000))).toEqual(xs.slice(0, 5));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(9_500);
    expect(mean).toBeLessThan(10_500);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    // exponential: about 63 % fall below the mean
    const below = xs.filter((x) => x < 10_000).length / xs.length;
    expect(below).toBeGreaterThan(0.6);
    expect(below).toBeLessThan(0.66);
  });
});

describe('Delivery: a command is delivered once every client has seen its version', () => {
  it('waits for the ack and every client, in either order', () => {
    const d = new Delivery(3);
    const got: number[] = [];
    const h = d.sent(100, (ms) => got.push(ms));
    d.update(0, 5, 110); // a patch before the ack
    h.versioned(5, 120);
    expect(got).toEqual([]);
    d.update(1, 5, 130);
    d.update(2, 4, 135);
    expect(got).toEqual([]);
    d.update(2, 6, 140); // an update covering two versions
    expect(got).toEqual([40]);
    expect(d.inFlight).toBe(0);
  });

  it('settles overlapping commands separately; drop and clear forget them', () => {
    const d = new Delivery(2);
    const got: string[] = [];
    const a = d.sent(0, () => got.push('a'));
    const b = d.sent(1, () => got.push('b'));
    const c = d.sent(2, () => got.push('c'));
    a.versioned(1, 3);
    b.versioned(2, 3);
    d.update(0, 1, 4);
    d.update(1, 1, 4);
    expect(got).toEqual(['a']);
    c.drop();
    expect(d.inFlight).toBe(1);
    expect(d.clear()).toBe(1);
    d.update(0, 2, 5);
    d.update(1, 2, 5);
    expect(got).toEqual(['a']);
  });
});

describe('malformed commands and GC pauses', () => {
  it('counts a malformed command typed only when its own code came back', () => {
    const m: MalformedCounts = { sent: 0, typed: 0, other: {} };
    countMalformed(m, 'INVALID_JSON', { ok: false, error: { code: 'INVALID_JSON', message: 'x' } });
    countMalformed(m, 'INVALID_JSON', { ok: false, error: { code: 'INVALID_MESSAGE' } });
    countMalformed(m, 'UNKNOWN_COMMAND', { ok: true, version: 3 });
    countMalformed(m, 'UNKNOWN_COMMAND', undefined);
    expect(m).toEqual({ sent: 4, typed: 1, other: { INVALID_MESSAGE: 1, ACCEPTED: 1, NO_ACK: 1 } });
    expect(new Set(MALFORMED.map((x) => x.code)).size).toBe(MALFORMED.length);
  });

  it("reads V8's --trace-gc lines (Node 24's format) and sums a window", () => {
    const scavenge = parseTraceGc(
      '[4096:0x22654000]       96 ms: Scavenge 4.9 (6.0) -> 4.5 (7.0) MB, pooled: 0 MB, 10.11 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
    );
    const interleaved = parseTraceGc(
      '[1:0x1]  5 ms: Scavenge (interleaved) 3.9 (4.1) -> 3.6 (5.1) MB, pooled: 0 MB, 1.12 / 0.00 ms  (average mu = 1.000',
    );
    const full = parseTraceGc(
      '[4111:0x2faec000]     1040 ms: Mark-Compact 125.6 (190.0) -> 13.1 (79.5) MB, pooled: 75 MB, 58.58 / 0.00 ms  (+ 0.0 ms in 3 steps since start of marking, biggest step 0.0 ms)',
    );
    expect(scavenge).toEqual({ kind: 'scavenge', ms: 10.11 });
    expect(interleaved).toEqual({ kind: 'scavenge', ms: 1.12 });
    expect(full).toEqual({ kind: 'full', ms: 58.58 });
    expect(parseTraceGc('{"level":30,"msg":"listening"}')).toBeNull();
    expect(gcWindow([scavenge!, interleaved!, full!])).toEqual({ maxMs: 58.58, over: 1, full: 1, count: 3 });
  });
});

describe('open files', () => {
  it("reads a process's open-file limit, Infinity for no such process", () => {
    const n = openFilesLimit(process.pid);
    expect(n).toBeGreaterThan(0);
    expect(openFilesLimit(2 ** 30)).toBe(Infinity);
  });
});

describe('stop rule and sizing', () => {
  it('stops on a p99 over 50 ms, failed connections or memory', () => {
    expect(stopReason({ p99: 12, failedConnections: 0, usedMemoryShare: 0.4 })).toBeNull();
    expect(stopReason({ p99: 51, failedConnections: 0, usedMemoryShare: 0.4 })).toMatch(/p99/);
    expect(stopReason({ p99: NaN, failedConnections: 0, usedMemoryShare: 0.4 })).toMatch(/p99/);
    expect(stopReason({ p99: 10, failedConnections: 3, usedMemoryShare: 0.4 })).toMatch(/3 connections/);
    expect(stopReason({ p99: 10, failedConnections: 0, usedMemoryShare: 0.9 })).toMatch(/memory/);
  });

  it('sizes by the latency up to the memory', () => {
    const GB = 2 ** 30;
    expect(sizing({ passedE: 10_000, baseRssBytes: 0.1 * GB, rssPerEncounterBytes: 400 * 1024, memoryBytes: 24 * GB })).toEqual({
      tables: 10_000,
      by: 'latency',
    });
    const m = sizing({ passedE: 10_000, baseRssBytes: 0.1 * GB, rssPerEncounterBytes: 400 * 1024, memoryBytes: 2 * GB });
    expect(m.by).toBe('memory');
    expect(m.tables).toBe(Math.floor((1.5 * GB - 0.1 * GB) / (400 * 1024)));
  });
});

describe('the capacity block', () => {
  it('renders the steps, memory per encounter against the floor, the churn and the sizing line', () => {
    const step = (E: number, p99: number, stop: string | null): CapacityStep => ({
      E,
      sockets: E * 5,
      setupSeconds: 1,
      commandsPerSec: E / 10,
      latency: { ...summarize([1, 2, 3]), p99 },
      undelivered: 0,
      refused: {},
      malformed: { sent: 10, typed: 10, other: {} },
      rssBytes: 100 * 2 ** 20 + E * 400 * 1024,
      heapBytes: 50 * 2 ** 20 + E * 300 * 1024,
      rest: { rssBytes: 100 * 2 ** 20 + E * 400 * 1024, heapBytes: 50 * 2 ** 20 + E * 100 * 1024 },
      serverCpuPercent: 30,
      loopDelayMs: { p99: 3, max: 9 },
      gc: { maxMs: 12, over: 0, full: 1, count: 40 },
      commitsPerSec: 90,
      entriesPerCommit: 1.1,
      generators: [{ cpuPercent: 10, loopDelayMs: { p99: 2, max: 5 }, rssBytes: 1 }],
      stop,
    });
    const r: CapacityResult = {
      steps: [step(1000, 20, null), step(2500, 80, 'p99 80.0 ms > 50 ms')],
      base: { rssBytes: 100 * 2 ** 20, heapBytes: 50 * 2 ** 20 },
      churn: {
        clients: 10,
        seconds: 30,
        cycles: 300,
        failures: 0,
        before: { rssBytes: 1, heapBytes: 100, sockets: 5000 },
        after: { rssBytes: 1, heapBytes: 101, sockets: 5000, afterSeconds: 58 },
        samples: [{ afterSeconds: 5, sockets: 5000 }],
      },
      floor: [{ E: 1000, sockets: 5000, rssBytes: 60 * 2 ** 20 + 5000 * 20 * 1024, latency: summarize([1]) }],
      notRun: '5,000 encounters not run: 25,000 sockets do not fit the server’s open-file limit of 20,000 (ulimit -n)',
      floorBaseRssBytes: 60 * 2 ** 20,
      generators: 1,
      seconds: 60,
      settleSeconds: 10,
      defaultSteps: true,
    };
    const text = capacitySection(r, 'when');
    expect(text).toContain(
      'The run stopped after 2,500 encounters: p99 80.0 ms > 50 ms. 5,000 encounters not run: 25,000 sockets do not fit',
    );
    expect(text).toMatch(/\| 1,000 \| 5,000 \| 100 \| 2\.00 \/ 20\.0 \| met \|/);
    // 400 KB an encounter at rest against 2 × (the floor's 5 × 20 KB + 100 KB of heap)
    expect(text).toMatch(
      /\| 1,000 \| .* \| 400\.0 KB \/ 100\.0 KB \| 80\.0 KB \/ 20\.0 KB \| 400\.0 KB \/ 300\.0 KB \| 20\.0 KB \(p99 1\.00 ms\) \| 400\.0 KB: met \|/,
    );
    expect(text).toContain('at rest 58 s after they stopped: 5,000 sockets');
    expect(text).toContain('back to the same level');
    expect(text).toMatch(/carries about \*\*1,000 tables\*\*/);
  });
});

describe('LeanSocket against a socket.io server', () => {
  let io: Server;
  let url = '';
  beforeAll(async () => {
    const http = createServer();
    io = new Server(http, { transports: ['websocket'] });
    io.use((socket, next) => {
      const auth: unknown = socket.handshake.auth;
      const token = typeof auth === 'object' && auth !== null && 'token' in auth ? auth.token : undefined;
      if (token === 'good') next();
      else next(Object.assign(new Error('Unknown token.'), { data: { code: 'UNAUTHORIZED' } }));
    });
    io.on('connection', (socket) => {
      socket.on('whoami', (_: unknown, ack: (x: unknown) => void) => ack(socket.handshake.address));
      socket.on('echo', (payload: unknown, ack: (x: unknown) => void) => {
        socket.emit('told', payload, 7);
        ack({ ok: true, got: payload });
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => io.close(() => r())));

  it('connects with auth, gets acks and events, and closes', async () => {
    const s = await LeanSocket.connect(url, { token: 'good' });
    const events: unknown[][] = [];
    s.onEvent = (name, args) => events.push([name, ...args]);
    expect(await s.request('echo', { a: 1 })).toEqual({ ok: true, got: { a: 1 } });
    expect(await s.request('echo', 'text')).toEqual({ ok: true, got: 'text' });
    expect(events).toEqual([
      ['told', { a: 1 }, 7],
      ['told', 'text', 7],
    ]);
    const closed = new Promise<void>((r) => (s.onClose = r));
    s.close();
    await closed;
    expect(s.open).toBe(false);
  });

  it('connects from the source address it is given (tens of thousands of ports need several)', async () => {
    const s = await LeanSocket.connect(url, { token: 'good' }, { localAddress: '127.0.0.7' });
    expect(await s.request('whoami', null)).toMatch(/127\.0\.0\.7$/);
    s.close();
  });

  it("is refused with the server's code", async () => {
    const e = await LeanSocket.connect(url, { token: 'bad' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectRefused);
    expect(e).toMatchObject({ code: 'UNAUTHORIZED', message: 'Unknown token.' });
  });
});
