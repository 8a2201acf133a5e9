/** The bench's child processes: the load generator, the rulesets' engine bench, the in-process benches. */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOADGEN_NODE_ARGS, QUICK, WARMUP, here } from './config.js';
import type { InprocResult } from './inproc.js';
import type { LoadConfig, LoadResult } from './load/types.js';
import { repoRoot } from './servers.js';

export function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  cfg = { warmupSeconds: WARMUP, ...cfg };
  return new Promise((resolve, reject) => {
    const extra = LOADGEN_NODE_ARGS.split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...extra, join(here, 'loadgen.js')], {
      env: { ...process.env, NODE_ENV: 'production', BENCH_LOAD: JSON.stringify(cfg), BENCH_ONLY: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      if (process.env.BENCH_LOADGEN_LOG) writeFileSync(`${process.env.BENCH_LOADGEN_LOG}.${child.pid}`, out);
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as LoadResult);
      else reject(new Error(`load generator failed (${code}): ${out.slice(-2000)}`));
    });
  });
}

export interface EngineRow {
  ruleset: string;
  applyPerSec: number;
  applyPerCpuSec: number;
  legalPerSec: number;
  legalPerCpuSec: number;
  replayMs: number;
  replayCpuMs: number;
  stateBytes: number;
  maxStateBytes: number;
  floorUs: number;
}

/** The rulesets' engine bench through its production runner (esbuild bundle, NODE_ENV=production). */
export function runEngine(): EngineRow[] {
  const cwd = join(repoRoot, 'packages/rulesets');
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_JSON: '1' };
  if (QUICK) env.BENCH_ONLY = 'legends,ocv-phases';
  else delete env.BENCH_ONLY; // ours lists parts, not rulesets
  const r = spawnSync(process.execPath, ['bench/run.mjs', 'bench/all.bench.ts'], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`engine bench failed: ${r.stderr}`);
  const lines = r.stdout.split('\n');
  const a = lines.indexOf('[');
  const b = lines.indexOf(']', a);
  if (a < 0 || b < 0) throw new Error(`engine bench printed no JSON rows: ${r.stdout.slice(-2000)}`);
  return JSON.parse(lines.slice(a, b + 1).join('\n')) as EngineRow[];
}

export function runInproc(kind: 'idle' | 'resume', databaseUrl: string): InprocResult {
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, 'inproc.js'), kind], {
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl, BENCH_QUICK: QUICK ? '1' : '' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 300_000,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.status !== 0 || !line) throw new Error(`in-process ${kind} bench failed (${r.status}): ${r.stdout.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as InprocResult;
}
