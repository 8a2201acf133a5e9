import { spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  checkpointNow,
  checkpointsBegun,
  cpuGeneration,
  cpuSeconds,
  cpuSplitSeconds,
  cpuTable,
  describeOtherCpu,
  machineBusySeconds,
  mainThreadCpuSeconds,
  otherCpu,
  runQueueWaitSeconds,
} from '../src/proc.js';

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
  }, 60_000); // a CHECKPOINT writes every dirty page of the server: on a busy machine it takes seconds
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

/**
 * JavaScript for a child that spins until it has used `ms` of CPU (not of wall time): on a loaded
 * machine a wall-time spin gets only part of a core, and what it used would depend on the load.
 */
function cpuSpin(ms: number): string {
  return `{ const c0 = process.cpuUsage(); for (let u = c0; u.user + u.system < ${ms * 1000}; u = process.cpuUsage(c0)) { for (let i = 0; i < 1e4; i++); } }`;
}

/**
 * Run `code` in a node child that then prints "done" and waits; `read` it (by its pid) at that
 * moment, before it exits, then kill it.
 */
function readChild<T>(code: string, read: (pid: number) => T): Promise<T> {
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => {
      const r = read(child.pid!);
      child.kill();
      resolve(r);
    });
    child.once('error', reject);
    child.once('exit', (status) => reject(new Error(`the child exited (${status}) before it was read`)));
  });
}
const DONE = `process.stdout.write('done\\n'); setTimeout(() => {}, 5000);`;

describe("a process's main-thread CPU apart from its other threads", () => {
  /** A node child that spins for `ms` on its main thread, or in a worker thread while the main one waits. */
  function spinner(where: 'main' | 'worker', ms: number): Promise<{ all: number; main: number }> {
    const spin = cpuSpin(ms);
    const code =
      where === 'main'
        ? `${spin}; ${DONE}`
        : `const { Worker } = require('node:worker_threads'); const w = new Worker(${JSON.stringify(spin)}, { eval: true }); w.on('exit', () => { ${DONE} });`;
    return readChild(code, (pid) => ({ all: cpuSeconds(pid), main: mainThreadCpuSeconds(pid) }));
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

describe("the rest of the machine's CPU in a phase", () => {
  /** A child that spins for `ms`, then says so and waits to be killed (so it is alive at both readings). */
  function spin(ms: number, title: string): Promise<{ pid: number; kill: () => void }> {
    const code = `process.title = ${JSON.stringify(title)}; ${cpuSpin(ms)} process.stdout.write('done\\n'); setTimeout(() => {}, 10000);`;
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    return new Promise((resolve, reject) => {
      child.stdout.once('data', () => resolve({ pid: child.pid!, kill: () => child.kill() }));
      child.once('error', reject);
      child.once('exit', (c) => reject(new Error(`the spinner exited (${c}) before it was read`)));
    });
  }

  it("counts a busy process that is not the bench's, by name, and leaves out the excluded ones", async () => {
    const before = cpuTable();
    expect(before.get(process.pid)?.seconds).toBeGreaterThanOrEqual(0);
    const t0 = performance.now();
    // two children spinning 500 ms each, one of them "ours"
    const [stranger, ours] = await Promise.all([spin(500, 'strangerbusy'), spin(500, 'oursbusy')]);
    try {
      // both have spun and now idle: between two tables taken now the stranger ran nothing
      const mid = cpuTable();
      expect(mid.get(stranger.pid)).toBeDefined();
      const seconds = (performance.now() - t0) / 1000;
      const after = cpuTable();
      expect(otherCpu(mid, after, seconds, []).largest.find((l) => l.name === 'strangerbusy')).toBeUndefined();
      // a table from before they were born does not hold them: by name nothing is counted
      expect(otherCpu(before, after, seconds, []).largest.find((l) => l.name === 'strangerbusy')).toBeUndefined();
      // from a "before" in which both were alive with no CPU yet: the spin counts for the stranger only
      const zero = new Map(after);
      zero.set(stranger.pid, { name: after.get(stranger.pid)!.name, seconds: 0 });
      zero.set(ours.pid, { name: after.get(ours.pid)!.name, seconds: 0 });
      const o = otherCpu(zero, after, 1, [ours.pid]);
      const named = o.largest.find((l) => l.name === after.get(stranger.pid)!.name);
      expect(named?.percent).toBeGreaterThanOrEqual(30);
      expect(o.percent).toBeGreaterThanOrEqual(named!.percent);
      expect(o.largest.some((l) => l.name === after.get(ours.pid)!.name && l.name !== named!.name)).toBe(false);
      expect(describeOtherCpu(o)).toMatch(new RegExp(`^\\d+ % of a core \\(.*${named!.name} \\d+ %`));
      // Postgres is measured apart: a process named in excludeNames does not count
      expect(otherCpu(zero, after, 1, [ours.pid], [named!.name]).largest.some((l) => l.name === named!.name)).toBe(false);
    } finally {
      stranger.kill();
      ours.kill();
    }
  });

  it("counts a process that came and went through the machine's own total, without naming it", async () => {
    const before = cpuTable();
    const m0 = machineBusySeconds();
    const self0 = process.cpuUsage();
    // a child born and gone between the two readings: no table holds it
    const code = cpuSpin(600);
    await new Promise<void>((resolve, reject) => {
      const c = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
      c.once('exit', () => resolve());
      c.once('error', reject);
    });
    const after = cpuTable();
    const m1 = machineBusySeconds();
    const self = process.cpuUsage(self0);
    const rest = m1 - m0 - (self.user + self.system) / 1e6;
    expect(rest).toBeGreaterThanOrEqual(0.4);
    const o = otherCpu(before, after, 1, [process.pid], ['postgres'], rest);
    expect(o.percent).toBeGreaterThanOrEqual(40);
    // without the machine's count it is not seen at all (only what ran alongside: a few %)
    expect(otherCpu(before, after, 1, [process.pid]).percent).toBeLessThan(o.percent);
    // the total is never below what the named processes ran
    const named = new Map([[1, { name: 'kdamond.0', seconds: 0 }]]);
    expect(otherCpu(named, new Map([[1, { name: 'kdamond.0', seconds: 0.3 }]]), 1, [], ['postgres'], 0.1).percent).toBeCloseTo(30);
  });

  it('names kernel threads of a kind once ("kworker/1:1H" and "kworker/0:2" are kworker; "kdamond.0" is kdamond)', () => {
    const before = new Map([
      [1, { name: 'kworker/1:1H-kblockd', seconds: 0 }],
      [2, { name: 'kworker/0:2', seconds: 0 }],
      [3, { name: 'kdamond.0', seconds: 1 }],
    ]);
    const after = new Map([
      [1, { name: 'kworker/1:1H-kblockd', seconds: 0.1 }],
      [2, { name: 'kworker/0:2', seconds: 0.1 }],
      [3, { name: 'kdamond.0', seconds: 1.5 }],
    ]);
    const o = otherCpu(before, after, 1, []);
    expect(o.largest.map((l) => l.name)).toEqual(['kdamond', 'kworker']);
    expect(o.largest[0]!.percent).toBeCloseTo(50);
    expect(o.largest[1]!.percent).toBeCloseTo(20);
    expect(o.percent).toBeCloseTo(70);
    expect(describeOtherCpu(o)).toBe('70 % of a core (kdamond 50 %, kworker 20 %)');
  });
});

describe("the CPU's generation in the run's header", () => {
  const processor = (family: string, model: string) =>
    `processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: ${family}\nmodel\t\t: ${model}\nmodel name\t: AMD EPYC\nstepping\t: 1\n`;
  it('reads the first processor\'s "cpu family" and "model" (not "model name")', () => {
    expect(cpuGeneration(`${processor('25', '17')}\n${processor('23', '49')}`)).toBe('family 25 model 17');
  });
  it('is empty when /proc/cpuinfo has no such lines (another architecture)', () => {
    expect(cpuGeneration('processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n')).toBe('');
    expect(cpuGeneration('')).toBe('');
  });
});

describe("a process's system time apart from its user time", () => {
  /** A node child that, for `ms`, either spins in JavaScript or makes system calls (small writes to /dev/null). */
  function worker(kind: 'user' | 'system', ms: number): Promise<{ user: number; system: number; all: number }> {
    const body =
      kind === 'user'
        ? cpuSpin(ms)
        : `const fs = require('node:fs'); const fd = fs.openSync('/dev/null', 'w'); const b = Buffer.alloc(1); const c0 = process.cpuUsage(); for (let u = c0; u.user + u.system < ${ms * 1000}; u = process.cpuUsage(c0)) { for (let i = 0; i < 1000; i++) fs.writeSync(fd, b); }`;
    // the child's other threads (V8's compiler, GC helpers) may still tick after it says done: the
    // total is taken between two equal readings of the split, so that the three agree in time
    const read = (pid: number) => {
      for (let tries = 1; ; tries++) {
        const before = cpuSplitSeconds(pid);
        const all = cpuSeconds(pid);
        const after = cpuSplitSeconds(pid);
        if ((before.user === after.user && before.system === after.system) || tries === 100) return { ...before, all };
      }
    };
    return readChild(`${body}; ${DONE}`, read);
  }

  it('counts a spin in JavaScript as user time and system calls as system time; the two add up to cpuSeconds', async () => {
    const spin = await worker('user', 400);
    expect(spin.user).toBeGreaterThanOrEqual(0.3);
    // a spin makes no system calls, though a loaded machine's preemptions and page faults charge it
    // some system time (0.09 s of 0.33 seen with both cores busy): user time still dominates
    expect(spin.system).toBeLessThan(spin.user);
    const calls = await worker('system', 400);
    // a write(2) to /dev/null is mostly the system call's own entry and exit: the kernel's time
    expect(calls.system).toBeGreaterThanOrEqual(0.05); // 0.18 of 0.44 s here; a fast VM's kernel may take less
    expect(calls.user + calls.system).toBeCloseTo(calls.all, 5);
    expect(cpuSplitSeconds(2 ** 22 + 12345)).toEqual({ user: NaN, system: NaN });
  });
});
