/**
 * Load benchmark: starts the server (a child process, on the embedded database or DATABASE_URL),
 * drives E encounters × P socket.io clients over 127.0.0.1 and prints accepted commands/s,
 * p50/p99 command-to-patch latency measured at every client, bytes per patch and server RSS.
 *
 *   npm run bench -w @fray/server                      # E=200 P=5, 20 s
 *   BENCH_E=1000 BENCH_P=5 BENCH_SECONDS=30 BENCH_RATE=1 npm run bench -w @fray/server
 *
 * Each encounter has one GM, P-2 players (each bound to one combatant) and one spectator; its
 * players take turns sending a command (a roll for their own combatant) at BENCH_RATE commands/s
 * per encounter, one in flight per encounter. Bounded: E ≤ 2000, P ≤ 10, at most 120 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FrayClient, type EncounterMirror, type PatchMessage } from '@fray/client';

const E = Math.min(2000, Number(process.env.BENCH_E ?? 200));
const P = Math.max(3, Math.min(10, Number(process.env.BENCH_P ?? 5)));
const SECONDS = Math.min(120, Number(process.env.BENCH_SECONDS ?? 20));
const RATE = Number(process.env.BENCH_RATE ?? 1);
const RULESET = process.env.BENCH_RULESET ?? 'legends';

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/** user + system CPU seconds of a process */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * CPU profile of the server's load phase only (not the setup), through the inspector protocol:
 * BENCH_PROFILE=/tmp/load.cpuprofile. Uses Node's own WebSocket.
 */
async function startProfile(url: string): Promise<{ stop(file: string): Promise<void> }> {
  const WS: typeof globalThis.WebSocket | undefined = globalThis.WebSocket;
  if (!WS) throw new Error('BENCH_PROFILE needs a Node with WebSocket (22 or newer)');
  const ws = new WS(url);
  await new Promise<void>((r) => (ws.onopen = () => r()));
  let id = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.onmessage = (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  };
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      id += 1;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 500 });
  await call('Profiler.start');
  return {
    async stop(file: string) {
      const r = (await call('Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(r.profile));
      ws.close();
    },
  };
}

async function main(): Promise<void> {
  const dataDir = process.env.DATABASE_URL ? null : mkdtempSync(join(tmpdir(), 'fray-bench-'));
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const profileTo = process.env.BENCH_PROFILE;
  const child = spawn(
    process.execPath,
    [
      ...(profileTo ? ['--inspect=127.0.0.1:0'] : []),
      ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
      '--conditions=@fray/source',
      '--import',
      'tsx',
      'src/main.ts',
    ],
    {
      cwd,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
        FRAY_WEB_BUILD: '0',
        ...(dataDir ? { FRAY_DATA_DIR: dataDir } : {}),
      },
      stdio: ['ignore', 'pipe', profileTo ? 'pipe' : 'inherit'],
    },
  );
  const inspectorUrl = profileTo
    ? new Promise<string>((resolve) => {
        let err = '';
        child.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /Debugger listening on (ws:\/\/\S+)/.exec(err);
          if (m) resolve(m[1]!);
          process.stderr.write(d);
        });
      })
    : null;
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (c) => reject(new Error(`server exited ${c}: ${out}`)));
  });
  const cleanup = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t0 = Date.now();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      else console.log(`server stopped gracefully in ${Date.now() - t0} ms`);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    console.log(
      `server ${url} (${process.env.FRAY_STORE === 'memory' ? 'in-memory store, nothing persisted' : process.env.DATABASE_URL ? 'Postgres' : 'embedded PGlite'}), E=${E} P=${P} rate=${RATE}/s per encounter, ${SECONDS}s`,
    );
    const http = async (method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> => {
      for (;;) {
        const res = await fetch(url + path, {
          method,
          headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        if (res.status === 429) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        const json = (await res.json()) as Record<string, unknown>;
        if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      }
    };

    // Setup: one GM account per encounter (a GM per table), combatants, invites, clients.
    const t0 = Date.now();
    interface Table {
      id: string;
      players: Array<{ mirror: EncounterMirror; combatantId: string }>;
      mirrors: EncounterMirror[];
      pending: { to: number; at: number } | null;
      next: number;
    }
    const tables: Table[] = [];
    const clients: FrayClient[] = [];
    const latencies: number[] = [];
    let patchBytes = 0;
    let patches = 0;
    const setupOne = async (i: number) => {
      const gmToken = (await http('POST', '/accounts', {})).token as string;
      const id = (await http('POST', '/encounters', { name: `bench ${i}`, ruleset: RULESET, seed: i + 1 }, gmToken)).id as string;
      const tokens: Array<{ token: string; combatantId: string | null }> = [{ token: gmToken, combatantId: null }];
      for (let p = 0; p < P - 2; p++) {
        const cid = `pc${p}`;
        await http(
          'POST',
          `/encounters/${id}/combatants`,
          { id: cid, name: `Hero ${p}`, side: 'heroes', stats: { DEX: 10, SPD: 10, STR: 10 } },
          gmToken,
        );
        tokens.push({
          token: (await http('POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: [cid] }, gmToken)).token as string,
          combatantId: cid,
        });
      }
      tokens.push({
        token: (await http('POST', `/encounters/${id}/invites`, { role: 'spectator' }, gmToken)).token as string,
        combatantId: null,
      });
      const table: Table = { id, players: [], mirrors: [], pending: null, next: 0 };
      for (const t of tokens) {
        const c = await FrayClient.connect(url, t.token, { ackTimeoutMs: 30_000, retries: 0 });
        clients.push(c);
        c.socket.on('patch', (msg: PatchMessage) => {
          const now = performance.now();
          patches += 1;
          patchBytes += JSON.stringify(msg).length;
          if (table.pending && msg.to === table.pending.to) latencies.push(now - table.pending.at);
        });
        const m = await c.join(id);
        table.mirrors.push(m);
        if (t.combatantId) table.players.push({ mirror: m, combatantId: t.combatantId });
      }
      tables.push(table);
    };
    const conc = 20;
    for (let i = 0; i < E; i += conc) await Promise.all(Array.from({ length: Math.min(conc, E - i) }, (_, k) => setupOne(i + k)));
    console.log(
      `setup: ${E} encounters, ${clients.length} sockets in ${((Date.now() - t0) / 1000).toFixed(1)}s; server RSS ${(rssOf(child.pid!) / 2 ** 20).toFixed(0)} MiB`,
    );

    const profiler = inspectorUrl ? await startProfile(await inspectorUrl) : null;

    // Load: each encounter sends RATE commands/s, one in flight at a time.
    latencies.length = 0;
    patchBytes = 0;
    patches = 0;
    let accepted = 0;
    let refused = 0;
    let peakRss = 0;
    const endAt = Date.now() + SECONDS * 1000;
    const interval = 1000 / RATE;
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid!))), 500);
    const drive = async (t: Table, offset: number) => {
      await new Promise((r) => setTimeout(r, offset));
      let due = performance.now();
      while (Date.now() < endAt) {
        const pl = t.players[t.next++ % t.players.length]!;
        t.pending = { to: pl.mirror.version + 1, at: performance.now() };
        const ack = await pl.mirror.command({ type: 'dice.roll', formula: '3d6', purpose: 'bench', combatantId: pl.combatantId });
        if (ack.ok) accepted += 1;
        else refused += 1;
        due += interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        else due = performance.now();
      }
    };
    const loadStart = Date.now();
    const cpuStart = cpuOf(child.pid!);
    await Promise.all(tables.map((t, i) => drive(t, (i / E) * interval)));
    const elapsed = (Date.now() - loadStart) / 1000;
    const cpu = cpuOf(child.pid!) - cpuStart;
    clearInterval(rssTimer);
    if (profiler && profileTo) {
      await profiler.stop(profileTo);
      console.log(`server CPU profile of the load phase: ${profileTo}`);
    }
    await new Promise((r) => setTimeout(r, 300));
    latencies.sort((a, b) => a - b);
    const result = {
      encounters: E,
      clientsPerEncounter: P,
      sockets: clients.length,
      seconds: Number(elapsed.toFixed(1)),
      acceptedPerSecond: Number((accepted / elapsed).toFixed(0)),
      refused,
      latencySamples: latencies.length,
      p50ms: Number(pct(latencies, 50).toFixed(2)),
      p99ms: Number(pct(latencies, 99).toFixed(2)),
      maxMs: Number((latencies.at(-1) ?? NaN).toFixed(2)),
      bytesPerPatch: Math.round(patchBytes / Math.max(1, patches)),
      serverCpuMsPerCommand: Number(((cpu * 1000) / Math.max(1, accepted)).toFixed(2)),
      serverCpuPercent: Math.round((cpu / elapsed) * 100),
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      serverRssMiB: Math.round(Math.max(peakRss, rssOf(child.pid!)) / 2 ** 20),
    };
    const health = await http('GET', '/health');
    const benchCpu = process.cpuUsage();
    console.log(
      JSON.stringify(
        {
          ...result,
          entriesPerLogBatch: Number(((health.logEntries as number) / Math.max(1, health.logBatches as number)).toFixed(1)),
          logWriteMsAvg: health.logWriteMsAvg,
          logWriteMsMax: health.logWriteMsMax,
          benchCpuSeconds: Number(((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)),
        },
        null,
        2,
      ),
    );
    for (const c of clients) c.close();
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
