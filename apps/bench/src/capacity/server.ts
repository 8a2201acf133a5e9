/** What the capacity run reads of a server: its GC pauses (--trace-gc), its metrics, its memory at rest after a full GC (--inspect). */
import { readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';
import { metricsOf, type Metrics } from '../load/sample.js';
import { rssBytes, sleep } from '../proc.js';
import type { Running } from '../servers.js';
import { parseTraceGc, type GcPause } from './logic.js';

/** the server's GC pauses from its --trace-gc lines on stdout, with the wall time they arrived */
export function watchGc(sv: Running): Array<GcPause & { at: number }> {
  const out: Array<GcPause & { at: number }> = [];
  let rest = '';
  sv.child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) {
      const p = parseTraceGc(l);
      if (p) out.push({ ...p, at: Date.now() });
    }
  });
  return out;
}

export async function metrics(sv: Running): Promise<Metrics> {
  const m = await metricsOf(sv.url);
  if (!m) throw new Error('the server did not answer GET /metrics/json');
  return m;
}

/**
 * A full GC of the server through its inspector (started with --inspect on `port`): the
 * DevTools protocol's HeapProfiler.collectGarbage, over the inspector's own WebSocket.
 */
export async function collectGarbage(port: number): Promise<void> {
  const list = z
    .array(z.object({ webSocketDebuggerUrl: z.string() }))
    .parse(await (await fetch(`http://127.0.0.1:${port}/json/list`)).json());
  const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })));
      ws.on('message', (d: Buffer) => {
        if (d.toString().startsWith('{"id":1')) resolve();
      });
    });
  } finally {
    ws.close();
  }
}

/** The server with nothing sent for a few seconds, after a full GC: the heap is what is live. */
export async function atRest(sv: Running, inspectPort: number): Promise<{ rssBytes: number; heapBytes: number; sockets: number }> {
  await sleep(3000);
  await collectGarbage(inspectPort);
  const m = await metrics(sv);
  return { rssBytes: rssBytes(sv.pid), heapBytes: m.heapUsed, sockets: m.sockets };
}

/** the directory of BENCH_CAPACITY_HEAP_DIR: a heap snapshot of the server at rest after each step */
const HEAP_DIR = process.env.BENCH_CAPACITY_HEAP_DIR;
/** the server's node flags for those snapshots: written on SIGUSR2 into HEAP_DIR */
export const heapSnapshotArgs = (): string[] => (HEAP_DIR ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${HEAP_DIR}`] : []);

/**
 * A heap snapshot of the server at rest into HEAP_DIR, renamed `capacity-<E>.heapsnapshot`
 * (compare two steps' in Chrome DevTools, Memory, Comparison: what E more encounters hold).
 */
export async function heapSnapshot(sv: Running, E: number, log: (...a: unknown[]) => void): Promise<void> {
  if (!HEAP_DIR) return;
  const before = new Set(readdirSync(HEAP_DIR));
  process.kill(sv.pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await sleep(1000);
    const f = readdirSync(HEAP_DIR).find((x) => x.endsWith('.heapsnapshot') && !before.has(x));
    if (!f) continue;
    // written once its size holds still for a second
    const size = statSync(join(HEAP_DIR, f)).size;
    await sleep(1000);
    if (size > 0 && statSync(join(HEAP_DIR, f)).size === size) {
      const to = join(HEAP_DIR, `capacity-${E}.heapsnapshot`);
      renameSync(join(HEAP_DIR, f), to);
      log(`capacity: heap snapshot at ${E} encounters in ${to}`);
      return;
    }
  }
  log('capacity: no heap snapshot written within 10 minutes');
}
