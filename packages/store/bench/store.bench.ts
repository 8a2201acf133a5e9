/**
 * Append throughput of the durable log, on real Postgres (DATABASE_URL, default the local test
 * database) and on the embedded PGlite. Prints appends/s for:
 *   - single: one entry per appendLog, one call in flight (a lone encounter's latency bound);
 *   - single ×C: one entry per call, C encounters appending concurrently (no batching);
 *   - batched B: B entries of B different encounters per appendLog (the runtime's group commit).
 * Run: npm run bench -w @fray/store   (FRAY_BENCH_SECONDS=3 by default per figure)
 */
import os from 'node:os';
import { openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import type { LogEntry } from '../src/index.js';

const seconds = Number(process.env.FRAY_BENCH_SECONDS ?? 3);
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

interface Enc {
  id: string;
  token: number;
  seq: number;
}

async function setup(store: TestStore, n: number): Promise<Enc[]> {
  await store.createAccount({ id: 'bench', tokenHash: 'bench' });
  const out: Enc[] = [];
  for (let i = 0; i < n; i++) {
    const id = `enc-${i}`;
    await store.createEncounter(
      { id, accountId: 'bench', name: id, ruleset: 'bench', options: {}, seed: i, status: 'active', round: 1, version: 0 },
      { v: 0 },
    );
    const lease = await store.acquireLease(id, 'bench-proc', 3_600_000);
    out.push({ id, token: lease!.token, seq: 0 });
  }
  return out;
}

const payload = (e: Enc): LogEntry => ({
  encounterId: e.id,
  seq: ++e.seq,
  commandId: `c-${e.seq}`,
  command: { type: 'attack', by: { role: 'player', playerId: 'p1' }, combatantId: 'c1', targetId: 'c2', weapon: 'longsword' },
  events: [
    { type: 'dice.rolled', formula: '1d20+5', dice: [14], total: 19, purpose: 'attack' },
    { type: 'dice.rolled', formula: '1d8+3', dice: [6], total: 9, purpose: 'damage' },
    { type: 'legends.damaged', combatantId: 'c2', amount: 9, hp: 3 },
  ],
});

async function timed(run: (deadline: number) => Promise<number>): Promise<number> {
  const started = performance.now();
  const count = await run(started + seconds * 1000);
  return count / ((performance.now() - started) / 1000);
}

async function bench(label: string, open: () => Promise<TestStore>): Promise<void> {
  const store = await open();
  try {
    const encs = await setup(store, 200);
    const fence = (list: Enc[]) => list.map((e) => ({ encounterId: e.id, token: e.token }));

    const single = await timed(async (deadline) => {
      const e = encs[0]!;
      let n = 0;
      while (performance.now() < deadline) {
        await store.appendLog([payload(e)], fence([e]));
        n++;
      }
      return n;
    });

    const concurrency = 32;
    const concurrent = await timed(async (deadline) => {
      let n = 0;
      await Promise.all(
        encs.slice(1, 1 + concurrency).map(async (e) => {
          while (performance.now() < deadline) {
            await store.appendLog([payload(e)], fence([e]));
            n++;
          }
        }),
      );
      return n;
    });

    const batched: Record<number, number> = {};
    for (const size of [10, 50, 150]) {
      const group = encs.slice(encs.length - size);
      batched[size] = await timed(async (deadline) => {
        let n = 0;
        while (performance.now() < deadline) {
          await store.appendLog(group.map(payload), fence(group));
          n += size;
        }
        return n;
      });
    }

    const f = (x: number) => Math.round(x).toLocaleString('en-US').padStart(8);
    console.log(`\n${label} (${store.description.replace(/ \(schema.*\)/, '')})`);
    console.log(`  single, 1 in flight     ${f(single)} appends/s  (${(1000 / single).toFixed(2)} ms per durable append)`);
    console.log(`  single, ${concurrency} concurrent   ${f(concurrent)} appends/s`);
    for (const [size, rate] of Object.entries(batched)) {
      console.log(`  batched ${String(size).padEnd(3)} encounters ${f(rate)} appends/s  (${f(rate / Number(size))} transactions/s)`);
    }
  } finally {
    await store.close();
  }
}

console.log(`fray store bench: ${seconds}s per figure, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`);
const saved = process.env.DATABASE_URL;
process.env.DATABASE_URL = pgUrl;
await bench('Postgres', () => openTestStore({ poolSize: 16 })).catch((error: unknown) =>
  console.log(`\nPostgres: skipped (${(error as Error).message})`),
);
delete process.env.DATABASE_URL;
await bench('PGlite (embedded)', () => openTestStore());
if (saved !== undefined) process.env.DATABASE_URL = saved;
