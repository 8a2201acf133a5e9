import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMPILER,
  GC,
  KERNEL,
  NATIVE,
  areaOfSample,
  jsFrame,
  monotonicOf,
  perfAvailable,
  recordPerf,
  splitPerfScript,
} from '../src/perf.js';

describe('perf frames', () => {
  it("reads the JIT's frame names: name and script URL, line and column dropped", () => {
    expect(jsFrame('JS:*walk file:///w/packages/runtime/dist/diff.js:28:14')).toEqual({
      name: 'walk',
      url: 'file:///w/packages/runtime/dist/diff.js',
    });
    // a getter's name has a space in it; an anonymous function has none
    expect(jsFrame('JS:*get local /w/node_modules/socket.io/dist/broadcast-operator.js:119:14')).toEqual({
      name: 'get local',
      url: '/w/node_modules/socket.io/dist/broadcast-operator.js',
    });
    expect(jsFrame('JS:* /w/node_modules/socket.io/dist/socket.js:472:25')).toEqual({
      name: '',
      url: '/w/node_modules/socket.io/dist/socket.js',
    });
    expect(jsFrame('JS:~processTicksAndRejections node:internal/process/task_queues:67:35')).toEqual({
      name: 'processTicksAndRejections',
      url: 'node:internal/process/task_queues',
    });
    expect(jsFrame('LazyCompile:*emit node:events:471:44')).toEqual({ name: 'emit', url: 'node:events' });
    expect(jsFrame('Builtins_StrictEqual')).toBeNull();
    expect(jsFrame('v8::internal::Heap::CollectGarbage')).toBeNull();
  });

  it('gives a sample to the kernel, the collector, the compiler, or the package of its nearest JavaScript frame', () => {
    const f = (sym: string, dso = '/usr/bin/node') => ({ sym, dso });
    const runtime = f('JS:*walk file:///w/packages/runtime/dist/diff.js:28:14', '/tmp/perf-1.map');
    const sio = f('JS:*packet /w/node_modules/socket.io/dist/socket.js:347:11', '/tmp/perf-1.map');
    expect(areaOfSample([f('do_writev', '[kernel.kallsyms]'), f('JS:^writev node:internal/x:1:1'), sio])).toBe(KERNEL);
    // a builtin (JSON.stringify, a keyed load) counts to the JavaScript that called it
    expect(areaOfSample([f('Builtins_KeyedLoadIC_Megamorphic'), runtime, sio])).toBe('@fray/runtime');
    expect(areaOfSample([f('v8::internal::JsonStringifier::Serialize_'), f('Builtins_JsonStringify'), sio, runtime])).toBe('socket.io');
    // a scavenge an allocation started, under JavaScript, is the collector's
    expect(
      areaOfSample([
        f('v8::internal::Scavenger::ScavengePage'),
        f('v8::internal::Heap::CollectGarbage'),
        f('Builtins_CreateShallowObjectLiteral'),
        runtime,
      ]),
    ).toBe(GC);
    expect(areaOfSample([f('v8::internal::ConcurrentMarking::RunMajor'), f('start_thread', '/usr/lib/libc.so.6')])).toBe(GC);
    expect(
      areaOfSample([
        f('v8::internal::compiler::PipelineImpl::OptimizeGraph'),
        f('v8::internal::OptimizingCompileDispatcher::CompileTask::RunInternal'),
      ]),
    ).toBe(COMPILER);
    expect(areaOfSample([f('uv__io_poll'), f('uv_run')])).toBe(NATIVE);
    expect(areaOfSample([])).toBe(NATIVE);
  });

  it('splits `perf script` output into shares by area, within a window of CLOCK_MONOTONIC seconds', () => {
    const text = [
      '  100.500000: ',
      '\tffffffff816b0988 do_writev ([kernel.kallsyms])',
      '\t    7f9634560cf8 JS:*flush /w/node_modules/engine.io/build/socket.js:1:1 (/tmp/perf-1.map)',
      '',
      '  100.600000: ',
      '\t         1514dbd Builtins_KeyedLoadIC_Megamorphic (/usr/bin/node)',
      '\t    7f9634560cf8 JS:*walk file:///w/packages/runtime/dist/diff.js:28:14 (/tmp/perf-1.map)',
      '',
      'node 123/125 100.700000: ',
      '\t          c4993d v8::internal::ScavengerCollector::JobTask::Run (/usr/bin/node)',
      '',
      '  100.800000: ',
      '\t    7f9634560cf8 JS:*walk file:///w/packages/runtime/dist/diff.js:28:14 (/tmp/perf-1.map)',
      '',
      // outside the window
      '  99.000000: ',
      '\t    7f9634560cf8 JS:*apply file:///w/packages/engine/dist/engine.js:66:1 (/tmp/perf-1.map)',
      '',
    ].join('\n');
    const s = splitPerfScript(text, { from: 100, to: 101 });
    expect(s.samples).toBe(4);
    expect(s.areas).toEqual([
      { name: '@fray/runtime', share: 0.5 },
      { name: KERNEL, share: 0.25 },
      { name: GC, share: 0.25 },
    ]);
    expect(splitPerfScript(text).samples).toBe(5);
    expect(splitPerfScript('').samples).toBe(0);
  });

  // perf may profile another process of one's own as root, or where kernel.perf_event_paranoid ≤ 1
  const paranoid = (() => {
    try {
      return Number(readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8'));
    } catch {
      return 3;
    }
  })();
  const canProfile = perfAvailable() && (process.getuid?.() === 0 || paranoid <= 1);

  it.skipIf(!canProfile)(
    'records a real process: a child spinning in one named function of its own file shows up under that file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fray-perf-test-'));
      // a script under a path that areaOf names (…/apps/<name>/…): its JIT frames resolve through the perf map
      const app = join(dir, 'apps', 'spinner');
      const script = join(app, 'spin.mjs');
      let child: ChildProcess | undefined;
      try {
        mkdirSync(app, { recursive: true });
        // it spins until killed and says so once it is in its loop, so the window below never holds
        // node's start-up or its exit, however slowly a loaded machine starts it
        writeFileSync(
          script,
          "function spinHere(n) { let x = 0; for (let i = 0; i < n; i++) x = (x * 31 + i) | 0; return x; }\nlet y = spinHere(1e5); process.stdout.write('spinning\\n');\nconst end = Date.now() + 60000; while (Date.now() < end) y += spinHere(1e5);\nconsole.log(y);\n",
        );
        const spinner = spawn(process.execPath, ['--perf-basic-prof-only-functions', script], { stdio: ['ignore', 'pipe', 'ignore'] });
        child = spinner;
        await new Promise<void>((resolve, reject) => {
          spinner.stdout!.once('data', () => resolve());
          spinner.once('exit', (code) => reject(new Error(`the spinner exited (${code}) before it spun`)));
        });
        const data = join(dir, 'spin.data');
        const rec = recordPerf(spinner.pid!, data);
        // perf creates its data file as it starts (a perf that fails to start is reported by stop), then has 300 ms to attach
        for (let waited = 0; !existsSync(data) && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 300));
        const from = monotonicOf(Date.now());
        await new Promise((r) => setTimeout(r, 1500));
        const to = monotonicOf(Date.now());
        const split = await rec.stop({ from, to });
        // 999 Hz over 1.5 s of one busy thread: about 1,500 on an idle core, fewer when other tests share
        // the cores (perf counts only the time on a CPU), never more
        expect(split.samples).toBeGreaterThan(50);
        expect(split.samples).toBeLessThan(1700);
        expect(split.areas[0]).toMatchObject({ name: '@fray/spinner' });
        expect(split.areas[0]!.share).toBeGreaterThan(0.8);
      } finally {
        child?.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    },
    20_000,
  );
});
