import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFromEnv, defaultMemoryTuning } from '../src/index.js';
import { advisedV8PoolSize, damonMonitors, damonWarning, memoryReducerOn, v8PoolSize } from '../src/memory.js';

/**
 * The server's memory tuning (src/memory.ts): fewer full GCs at many live encounters. It is
 * process-wide, so each case runs in a child process of its own, with V8's own trace of the limit
 * it sets after each full GC.
 */
function runChild(tuning: { heapGrowthPercent: number; bufferPool: boolean }): {
  poolSize: number;
  smallBacking: number;
  factors: number[];
} {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const script = `
    import('./src/memory.ts').then((m) => {
      m.tuneMemory(${JSON.stringify(tuning)});
      const small = Buffer.allocUnsafe(16);
      // enough live objects for V8 to go through several full GCs and set its limits
      const keep = [];
      for (let i = 0; i < 1_500_000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 400_000) keep.splice(0, 200_000); }
      process.stdout.write('RESULT ' + JSON.stringify({ poolSize: Buffer.poolSize, smallBacking: small.buffer.byteLength, kept: keep.length }) + '\\n');
    });`;
  const r = spawnSync(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', '--trace-gc-verbose', '-e', script], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(r.status, r.stderr).toBe(0);
  const result = JSON.parse(/^RESULT (.*)$/m.exec(r.stdout)![1]!) as { poolSize: number; smallBacking: number };
  // The factor V8 applied after each full GC. Node 22 prints it in its limit line, "[HeapController]
  // Limit: old size: 28955 KB, new limit: 161163 KB (5.0)" (after a line with the factor it computed
  // before the flag); Node 24 and 26 print only "[HeapController] factor 5.0 based on mu=0.970, …".
  const limits = [...r.stdout.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)];
  const computed = [...r.stdout.matchAll(/\[HeapController\] factor ([\d.]+) based on/g)];
  const factors = (limits.length > 0 ? limits : computed).map((m) => Number(m[1]));
  return { ...result, factors };
}

describe('memory tuning', () => {
  it('defaults: the heap may grow to five times the live heap, and small Buffers do not share 8 KB slabs', () => {
    expect(defaultMemoryTuning).toEqual({ heapGrowthPercent: 400, bufferPool: false });
    expect(configFromEnv({}).memory).toEqual(defaultMemoryTuning);
    expect(configFromEnv({ FRAY_HEAP_GROWTH_PERCENT: '0', FRAY_BUFFER_POOL: '1' }).memory).toEqual({
      heapGrowthPercent: 0,
      bufferPool: true,
    });
    expect(configFromEnv({ FRAY_HEAP_GROWTH_PERCENT: '150' }).memory.heapGrowthPercent).toBe(150);
  });

  it('refuses a growth that is not a whole percent from 0 to 1000, and a pool setting other than 0 or 1', () => {
    for (const bad of ['-1', '1001', '2.5', 'lots'])
      expect(() => configFromEnv({ FRAY_HEAP_GROWTH_PERCENT: bad })).toThrow(/FRAY_HEAP_GROWTH_PERCENT/);
    expect(() => configFromEnv({ FRAY_BUFFER_POOL: 'yes' })).toThrow(/FRAY_BUFFER_POOL/);
  });

  it('applied: V8 sets its next limit at five times the live heap, and a small Buffer has memory of its own', () => {
    const tuned = runChild(defaultMemoryTuning);
    expect(tuned.poolSize).toBe(0);
    expect(tuned.smallBacking).toBe(16);
    expect(tuned.factors.length).toBeGreaterThan(0);
    expect(tuned.factors.every((f) => f === 5)).toBe(true);
  }, 60_000);

  it("off (0 and the pool kept): V8 chooses its own factor (at most 4), and small Buffers come from Node's pool", () => {
    const plain = runChild({ heapGrowthPercent: 0, bufferPool: true });
    // Node's own pool size: 8 KB up to Node 22, 64 KB from Node 24
    const nodeDefault = Number(spawnSync(process.execPath, ['-p', 'Buffer.poolSize'], { encoding: 'utf8' }).stdout.trim());
    expect(nodeDefault).toBeGreaterThanOrEqual(8192);
    expect(plain.poolSize).toBe(nodeDefault);
    expect(plain.smallBacking).toBeGreaterThanOrEqual(nodeDefault); // Node 26 pads its slabs (65,600 bytes)
    expect(plain.smallBacking).toBeLessThan(2 * nodeDefault);
    expect(plain.factors.length).toBeGreaterThan(0);
    expect(plain.factors.every((f) => f <= 4)).toBe(true);
  }, 60_000);

  it('reads the V8 pool the process started with: its own flags over NODE_OPTIONS, the last one given, else Node’s 4', () => {
    expect(v8PoolSize([], undefined)).toBe(4);
    expect(v8PoolSize(['--v8-pool-size=1'], undefined)).toBe(1);
    expect(v8PoolSize([], '--max-old-space-size=4096 --v8-pool-size=2')).toBe(2);
    expect(v8PoolSize(['--v8-pool-size=3'], '--v8-pool-size=2')).toBe(3);
    expect(v8PoolSize(['--v8-pool-size=1', '--v8-pool-size=2'], undefined)).toBe(2);
    expect(v8PoolSize(['--v8-pool-size'], undefined)).toBe(4); // no value: not a pool size
  });

  it('reads whether V8’s memory reducer runs: on unless node was started with --no-memory-reducer (the last of the two flags wins)', () => {
    expect(memoryReducerOn([])).toBe(true);
    expect(memoryReducerOn(['--v8-pool-size=1', '--no-memory-reducer'])).toBe(false);
    expect(memoryReducerOn(['--no_memory_reducer'])).toBe(false);
    expect(memoryReducerOn(['--no-memory-reducer', '--memory-reducer'])).toBe(true);
    expect(memoryReducerOn(['--memory-reducer', '--no-memory-reducer'])).toBe(false);
    expect(memoryReducerOn(['--no-memory-reducer-for-small-heaps'])).toBe(true); // another flag
  });

  it('with --no-memory-reducer V8 runs without its memory reducer, and a process gone quiet then starts no memory-reducing GC', async () => {
    // the premise of the launchers' flag: V8 reads it at start (a flag set later changes nothing).
    // When a quiet process's reducer starts its GC varies by V8 (8 s after the last full GC on
    // Node 24, 16 s on Node 22, not within 30 s on Node 26), so the flag is read from V8's own values.
    const flags = (extra: string[]) =>
      spawnSync(process.execPath, [...extra, '--print-flag-values', '-e', '0'], { encoding: 'utf8' }).stdout;
    expect(flags([])).toMatch(/^--memory-reducer$/m);
    expect(flags(['--no-memory-reducer'])).toMatch(/^--no-memory-reducer$/m);
    const script =
      'const keep = Array.from({ length: 200000 }, (_, k) => ({ k })); gc(); setTimeout(() => console.log(keep.length), 10000);';
    const off = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--no-memory-reducer', '--expose-gc', '--trace-gc-verbose', '--trace-memory-reducer', '-e', script],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
    });
    expect(off).not.toMatch(/Memory reducer/);
    expect(off).not.toMatch(/\(reduce\)/);
    expect(off).toMatch(/^200000$/m);
  }, 60_000);

  it('advises one core for the event loop and the rest, at most 4, for V8’s threads', () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => advisedV8PoolSize(cores))).toEqual([1, 1, 2, 3, 4, 4]);
  });

  it('the launchers start node with one V8 background thread and no memory reducer (npm start, the Dockerfile), and V8 then marks on one', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const start = (JSON.parse(readFileSync(`${root}apps/server/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts
      .start!;
    expect(start).toMatch(/^node --v8-pool-size=1 --no-memory-reducer /);
    expect(readFileSync(`${root}Dockerfile`, 'utf8')).toMatch(
      /^CMD \["node", "--v8-pool-size=1", "--no-memory-reducer", "apps\/server\/dist\/main\.js"\]$/m,
    );
    // the premise: V8 runs its concurrent marking on the pool's threads (task numbers from 1)
    const script =
      'const keep = []; for (let i = 0; i < 2e6; i++) keep.push({ i, a: [i] }); let junk; for (let r = 0; r < 30; r++) { junk = []; for (let i = 0; i < 2e5; i++) junk.push({ r, i }); } console.log(keep.length + junk.length);';
    const r = spawnSync(process.execPath, ['--v8-pool-size=1', '--trace-concurrent-marking', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.status, r.stderr).toBe(0);
    const tasks = new Set([...r.stdout.matchAll(/concurrent marking task (\d+)/g)].map((m) => m[1]));
    expect(tasks.size).toBeGreaterThan(0);
    expect([...tasks]).toEqual(['1']);
  }, 60_000);
});

describe("the kernel's DAMON monitors", () => {
  function fake(states: Array<{ state: string; sampleUs?: number; ops?: string }>): string {
    const root = mkdtempSync(join(tmpdir(), 'damon-'));
    states.forEach((k, i) => {
      const dir = join(root, String(i));
      mkdirSync(join(dir, 'contexts/0/monitoring_attrs/intervals'), { recursive: true });
      writeFileSync(join(dir, 'state'), `${k.state}\n`);
      if (k.sampleUs !== undefined) writeFileSync(join(dir, 'contexts/0/monitoring_attrs/intervals/sample_us'), `${k.sampleUs}\n`);
      if (k.ops !== undefined) writeFileSync(join(dir, 'contexts/0/operations'), `${k.ops}\n`);
    });
    writeFileSync(join(root, 'nr_kdamonds'), `${states.length}\n`);
    return root;
  }

  it('lists the monitors that are on, with their sampling interval and address space, and none where there is no DAMON', () => {
    expect(
      damonMonitors(
        fake([
          { state: 'on', sampleUs: 500000, ops: 'paddr' },
          { state: 'off', sampleUs: 5000, ops: 'vaddr' },
        ]),
      ),
    ).toEqual([{ id: '0', sampleMs: 500, operations: 'paddr' }]);
    expect(damonMonitors(fake([{ state: 'off' }]))).toEqual([]);
    // an older layout without the details: on, details unknown
    expect(damonMonitors(fake([{ state: 'on' }]))).toEqual([{ id: '0', sampleMs: NaN, operations: '' }]);
    expect(damonMonitors('/nonexistent/damon')).toEqual([]);
  });

  it('warns at start on a small host where one is on (its bursts take one core of few), and not on a larger host or without one', () => {
    const on = damonMonitors(fake([{ state: 'on', sampleUs: 500000, ops: 'paddr' }]));
    const said = damonWarning(on, 2);
    expect(said).toMatch(/DAMON memory monitor is on \(paddr, sampling every 500 ms\): on 2 cores/);
    expect(said).toMatch(/Session 16/);
    expect(damonWarning(on, 4)).not.toBeNull();
    expect(damonWarning(on, 8)).toBeNull();
    expect(damonWarning([], 2)).toBeNull();
    expect(damonWarning(damonMonitors(fake([{ state: 'on' }])), 2)).toMatch(/monitor is on \(kdamond\)/);
  });
});
