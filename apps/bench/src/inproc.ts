/**
 * In-process benches on @fray/runtime + @fray/store against real Postgres (DATABASE_URL, a fresh
 * database made by the orchestrator). Run with --expose-gc. Prints `RESULT {...}`.
 *
 *   idle:   N encounters played (setup + 100 commands) through the runtime, unloaded; then heap
 *           after loading them all back (snapshot + tail, no viewers) and after evicting them again.
 *           Then `watched`: N more encounters, each watched by five viewers (the GM, three players,
 *           a spectator) while it plays setup + 100 commands, with the sync history at 64 and at
 *           the default 16: heap per watched live encounter.
 *   resume: an encounter with 10,000 logged commands (snapshots every 100 as the runtime writes
 *           them, the last at 9,900: a tail of 100) is opened again and again: ms per open.
 */
import { randomUUID } from 'node:crypto';
import { apply, createEncounter, type EncounterState } from '@fray/engine';
import { Runtime } from '@fray/runtime';
import { registry } from '@fray/rulesets';
import { openStore } from '@fray/store';
import { buildScript, fights, rulesets, type Cmd } from './fights.js';
import { summarize } from './stats.js';

export interface InprocResult {
  idle?: Array<{
    ruleset: string;
    encounters: number;
    version: number;
    liveBytesPerEncounter: number;
    stateBytesPerEncounter: number;
    evictedBytesPerEncounter: number;
  }>;
  watched?: Array<{ ruleset: string; encounters: number; syncHistory: number; bytesPerEncounter: number }>;
  resume?: Array<{
    ruleset: string;
    logged: number;
    snapshotAt: number;
    tail: number;
    medianMs: number;
    maxMs: number;
    noSnapshotMs: number;
  }>;
}

const QUICK = process.env.BENCH_QUICK === '1';
const gm = { role: 'gm' } as const;
const log = (...a: unknown[]) => console.error('[inproc]', ...a);

function heap(): number {
  const gc = globalThis.gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** setup + combat.start + `count` scripted commands, all as the GM (no players here) */
function commandsFor(ruleset: string, count: number): { commands: Cmd[]; start: EncounterState } {
  const fight = fights[ruleset]!;
  const R = rulesets[ruleset]!;
  let s = createEncounter(R, { id: 'x', name: 'bench', seed: 1, options: fight.options });
  const commands: Cmd[] = [];
  for (const c of [...fight.setup, { type: 'combat.start' }]) {
    const r = apply(R, s, { ...c, by: gm });
    if (!r.ok) throw new Error(`${ruleset} setup ${String(c.type)}: ${r.error.message}`);
    s = r.state;
    commands.push(c);
  }
  const script = buildScript(ruleset, s, () => -1, count, 1_000_000);
  return { commands: [...commands, ...script.steps.map((x) => x.command)], start: s };
}

type Store = Awaited<ReturnType<typeof openStore>>;
const quietRuntime = { idleMs: 3_600_000, idleSnapshotMs: 3_600_000, sweepMs: 3_600_000, reactionSeconds: 0 };

/** `commands` played by the GM in each encounter of `ids`, in parallel (`watch`: subscribe viewers first). */
async function playAll(
  runtime: Runtime,
  ids: string[],
  ruleset: string,
  commands: Cmd[],
  watch?: (host: Awaited<ReturnType<Runtime['open']>>) => void,
): Promise<void> {
  await Promise.all(
    ids.map(async (id) => {
      const host = await runtime.open(id);
      watch?.(host);
      for (const [k, c] of commands.entries()) {
        const ack = await host.submit({ commandId: `c${k}`, command: c, by: gm }, gm);
        if (!ack.ok) throw new Error(`${ruleset} ${String(c.type)}: ${ack.error.message}`);
      }
    }),
  );
}

async function createAll(runtime: Runtime, ruleset: string, N: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < N; i++)
    ids.push((await runtime.create({ accountId: 'bench', name: 'bench', ruleset, seed: 1, options: fights[ruleset]!.options })).id);
  return ids;
}

/** Heap per idle live encounter (and of which the state) and per evicted one. */
async function idleOf(store: Store, ruleset: string, N: number, commands: Cmd[]): Promise<NonNullable<InprocResult['idle']>[number]> {
  const runtime = new Runtime({ store, rulesets: registry, options: quietRuntime });
  const ids = await createAll(runtime, ruleset, N);
  // played through the runtime (durable acks, snapshots every 100), encounters in parallel
  await playAll(runtime, ids, ruleset, commands);
  const version = runtime.peek(ids[0]!)!.version;
  const unloadAll = () => Promise.all(ids.map((id) => runtime.unload(id, 'bench')));
  const openAll = async () => {
    for (const id of ids) await runtime.open(id);
  };
  await unloadAll();
  await openAll(); // warm: code paths, connection pool, caches
  await unloadAll();
  const h0 = heap();
  await openAll();
  const h1 = heap();
  // of which the state itself: the same states once more, as plain copies
  const copies: unknown[] = ids.map((id) => structuredClone(runtime.peek(id)!.state));
  const stateBytes = (heap() - h1) / N;
  copies.length = 0;
  await unloadAll();
  const h2 = heap();
  log(
    `${ruleset}: ${((h1 - h0) / N / 1024).toFixed(1)} KB per idle live encounter, ${((h2 - h0) / N / 1024).toFixed(2)} KB after eviction`,
  );
  await runtime.shutdown();
  return {
    ruleset,
    encounters: N,
    version,
    liveBytesPerEncounter: (h1 - h0) / N,
    stateBytesPerEncounter: stateBytes,
    evictedBytesPerEncounter: (h2 - h0) / N,
  };
}

/** watched while it plays: the viewers' channels, projections and sync history on top */
async function watchedOf(
  store: Store,
  ruleset: string,
  N: number,
  commands: Cmd[],
  syncHistory: number,
): Promise<NonNullable<InprocResult['watched']>[number]> {
  const rt = new Runtime({ store, rulesets: registry, options: { ...quietRuntime, syncHistory } });
  const w0 = heap();
  const wids = await createAll(rt, ruleset, N);
  const viewers = [
    gm,
    { role: 'player', playerId: 'p1' },
    { role: 'player', playerId: 'p2' },
    { role: 'player', playerId: 'p3' },
    { role: 'spectator' },
  ] as const;
  let delivered = 0;
  await playAll(rt, wids, ruleset, commands, (host) => {
    for (const v of viewers) host.subscribe(v, () => void (delivered += 1));
  });
  const w1 = heap();
  if (delivered < N * viewers.length * commands.length) throw new Error(`only ${delivered} patches delivered`);
  log(`${ruleset}: ${((w1 - w0) / N / 1024).toFixed(1)} KB per watched live encounter (5 viewers, sync history ${syncHistory})`);
  await rt.shutdown();
  return { ruleset, encounters: N, syncHistory, bytesPerEncounter: (w1 - w0) / N };
}

const LOGGED = 10_000;
const SNAP_AT = 9_900;

/** An encounter with LOGGED commands in its log (and snapshots every 100 up to SNAP_AT), as the runtime writes them. */
async function logged(store: Store, runtime: Runtime, ruleset: string, withSnapshot: boolean): Promise<string> {
  const R = rulesets[ruleset]!;
  const rec = await runtime.create({ accountId: 'bench', name: 'bench', ruleset, seed: 1, options: fights[ruleset]!.options });
  const fight = fights[ruleset]!;
  const { commands } = commandsFor(ruleset, LOGGED - fight.setup.length - 1);
  if (commands.length < LOGGED) throw new Error(`${ruleset}: the fight ended after ${commands.length} commands`);
  // the log (and snapshots) as the runtime writes them, straight through the store
  const lease = (await store.acquireLease(rec.id, 'bench-writer', 600_000))!;
  let s = createEncounter(R, { id: rec.id, name: rec.name, options: fights[ruleset]!.options, seed: 1 });
  let batch: Parameters<typeof store.appendLog>[0] = [];
  for (const [k, c] of commands.slice(0, LOGGED).entries()) {
    const command = { ...c, by: gm };
    const r = apply(R, s, command);
    if (!r.ok) throw new Error(`${ruleset} at ${k}: ${r.error.message}`);
    s = r.state;
    batch.push({ encounterId: rec.id, seq: s.version, commandId: `c${k}`, command, events: r.events });
    if (batch.length === 500) {
      await store.appendLog(batch, [{ encounterId: rec.id, token: lease.token }]);
      batch = [];
    }
    if (withSnapshot && s.version % 100 === 0 && s.version <= SNAP_AT)
      await store.saveSnapshot(rec.id, s.version, { fraySnapshot: 1, state: s, runtime: { turnTimerSeconds: null } });
  }
  if (batch.length) await store.appendLog(batch, [{ encounterId: rec.id, token: lease.token }]);
  await store.releaseLease(lease);
  return rec.id;
}

/** ms to open an encounter of LOGGED commands: from its last snapshot (median, max) and with none. */
async function resumeOf(store: Store, ruleset: string): Promise<NonNullable<InprocResult['resume']>[number]> {
  const runtime = new Runtime({ store, rulesets: registry, options: { idleMs: 3_600_000, sweepMs: 3_600_000, reactionSeconds: 0 } });
  const id = await logged(store, runtime, ruleset, true);
  const bare = await logged(store, runtime, ruleset, false);
  const times: number[] = [];
  for (let i = 0; i < (QUICK ? 4 : 8); i++) {
    const t0 = performance.now();
    const host = await runtime.open(id);
    const dt = performance.now() - t0;
    if (host.version !== LOGGED) throw new Error(`resumed at ${host.version}, expected ${LOGGED}`);
    if (i > 0) times.push(dt); // the first open warms the code paths
    await runtime.unload(id, 'bench', { snapshot: false });
  }
  const t1 = performance.now();
  const h = await runtime.open(bare);
  const noSnapshotMs = performance.now() - t1;
  if (h.version !== LOGGED) throw new Error(`resumed at ${h.version}, expected ${LOGGED}`);
  await runtime.unload(bare, 'bench', { snapshot: false });
  const s = summarize(times);
  log(`${ruleset}: resume ${s.p50.toFixed(1)} ms median (max ${s.max.toFixed(1)}), no snapshot ${noSnapshotMs.toFixed(0)} ms`);
  await runtime.shutdown();
  return { ruleset, logged: LOGGED, snapshotAt: SNAP_AT, tail: LOGGED - SNAP_AT, medianMs: s.p50, maxMs: s.max, noSnapshotMs };
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  const store = await openStore({ databaseUrl: process.env.DATABASE_URL! });
  const out: InprocResult = {};
  try {
    await store.createAccount({ id: 'bench', tokenHash: `bench-${randomUUID()}` });
    if (kind === 'idle') {
      out.idle = [];
      out.watched = [];
      const N = QUICK ? 40 : 100;
      for (const ruleset of ['legends', 'ocv-phases']) {
        const { commands } = commandsFor(ruleset, 100);
        out.idle.push(await idleOf(store, ruleset, N, commands));
        for (const syncHistory of [64, 16]) out.watched.push(await watchedOf(store, ruleset, N, commands, syncHistory));
      }
    } else if (kind === 'resume') {
      out.resume = [];
      for (const ruleset of QUICK ? ['legends'] : ['legends', 'ocv-phases']) out.resume.push(await resumeOf(store, ruleset));
    } else throw new Error(`unknown in-process bench "${kind}"`);
  } finally {
    await store.close();
  }
  console.log(`RESULT ${JSON.stringify(out)}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
