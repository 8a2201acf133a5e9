/** What the capacity run reads of a server: its GC pauses (--trace-gc), its metrics, its memory at rest after a full GC (--inspect). */
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
