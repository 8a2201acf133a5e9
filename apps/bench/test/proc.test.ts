import { spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkpointNow, checkpointsBegun, cpuSeconds, mainThreadCpuSeconds, runQueueWaitSeconds } from '../src/proc.js';

// The bench measures against a real Postgres; these run where one is given (CI's Postgres pass).
const url = process.env.DATABASE_URL;

describe.skipIf(!url)('Postgres checkpoints around the bench phases', () => {
  it('a checkpoint before a part is counted by the server statistics each phase reads', async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const before = await checkpointsBegun(c);
      expect(before).not.toBeNull();
      expect(await checkpointNow(url!)).toBe(true);
      const after = await checkpointsBegun(c);
      expect(after! - before!).toBeGreaterThanOrEqual(1);
    } finally {
      await c.end();
    }
  });
});

describe('a database that cannot checkpoint', () => {
  it('checkpointNow says false instead of throwing (the run goes on and logs it)', async () => {
    expect(await checkpointNow('postgresql://postgres@127.0.0.1:1/none')).toBe(false);
  });
});

describe('run-queue wait of a main thread', () => {
  it('reads a finite, non-decreasing count for a live process and NaN for one that does not exist', async () => {
    const w = runQueueWaitSeconds(process.pid);
    expect(Number.isFinite(w)).toBe(true);
    expect(w).toBeGreaterThanOrEqual(0);
    // the counter only grows: read it again after some work
    let x = 0;
    for (let i = 0; i < 2e6; i++) x += i;
    expect(x).toBeGreaterThan(0);
    expect(runQueueWaitSeconds(process.pid)).toBeGreaterThanOrEqual(w);
    expect(runQueueWaitSeconds(2 ** 22 + 12345)).toBeNaN();
  });
});

describe("a process's main-thread CPU apart from its other threads", () => {
  /** A node child that spins for `ms` on its main thread, or in a worker thread while the main one waits; read before it exits. */
  function spinner(where: 'main' | 'worker', ms: number): Promise<{ all: number; main: number }> {
    const spin = `const t = Date.now(); while (Date.now() - t < ${ms}) {}`;
    const code =
      where === 'main'
        ? `${spin}; process.stdout.write('done\\n'); setTimeout(() => {}, 5000);`
        : `const { Worker } = require('node:worker_threads'); const w = new Worker(${JSON.stringify(spin)}, { eval: true }); w.on('exit', () => { process.stdout.write('done\\n'); setTimeout(() => {}, 5000); });`;
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    return new Promise((resolve, reject) => {
      child.stdout.once('data', () => {
        const r = { all: cpuSeconds(child.pid!), main: mainThreadCpuSeconds(child.pid!) };
        child.kill();
        resolve(r);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the spinner exited (${code}) before it was read`)));
    });
  }

  it('counts work on the event loop as main-thread CPU, and work on another thread only in the process total', async () => {
    const onMain = await spinner('main', 400);
    expect(onMain.main).toBeGreaterThanOrEqual(0.3);
    expect(onMain.main).toBeLessThanOrEqual(onMain.all);
    const inWorker = await spinner('worker', 400);
    expect(inWorker.all).toBeGreaterThanOrEqual(0.3);
    expect(inWorker.all - inWorker.main).toBeGreaterThanOrEqual(0.3);
    expect(mainThreadCpuSeconds(2 ** 22 + 12345)).toBeNaN();
  });
});
