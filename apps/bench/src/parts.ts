/** Every part of the bench but `restart` (main.ts runs that one and writes its own block): each fills its field of the results. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICK, RATE_PROCESSES, S, START_IDLE, baseDb, log } from './config.js';
import { runEngine, runInproc, runLoad } from './children.js';
import { perfAvailable } from './perf.js';
import { summarizeProfile } from './profile.js';
import { floorPayload, frayLoad, newDb, underPerf, withFloor, withFray, type Results } from './runs.js';
import { startBgio } from './servers.js';
import { runStart } from './start.js';

const think = { name: 'think 100 ms', seconds: S.phase, thinkMs: 100 };

export const partRuns: Record<string, (R: Results) => Promise<void>> = {
  engine: async (R) => {
    R.engine = runEngine();
  },
  e2e: async (R) => {
    R.fray = await withFray((sv, db) =>
      frayLoad(sv, db, S.E, S.P, [
        // two bad phases, each between clean ones: the machine drifts and jumps between phases
        // (8-23 % between two clean phases of one run here), and the target compares means
        { name: 'clean', seconds: S.phase },
        { name: 'bad 5%', seconds: S.phase, bad: 0.05 },
        { name: 'clean again', seconds: S.phase },
        { name: 'bad 5% (2)', seconds: S.phase, bad: 0.05 },
        { name: 'clean (3)', seconds: S.phase },
        think,
      ]),
    );
  },
  peers: async (R) => {
    const bg = await startBgio();
    try {
      R.bgio = await runLoad({
        target: 'bgio',
        urls: [bg.url],
        pids: [bg.pid],
        E: S.E,
        P: S.P,
        phases: [{ name: 'clean', seconds: S.phase }, think],
      });
    } finally {
      await bg.stop();
    }
    const payload = floorPayload(R.fray?.phases.find((p) => p.name === 'clean'));
    R.floor = await withFloor(payload, [], (fl) =>
      runLoad({
        target: 'floor',
        urls: [fl.url],
        pids: [fl.pid],
        E: S.E,
        P: S.P,
        phases: [{ name: 'clean', seconds: S.phase }, think],
        payloadBytes: payload,
      }),
    );
  },
  rate: async (R) => {
    R.rate = await withFray(
      (sv, db) =>
        frayLoad(sv, db, S.rateE, S.rateP, [
          { name: `${S.rate}/s per encounter`, seconds: S.ratePhase, ratePerEncounter: S.rate },
          ...(QUICK || process.env.BENCH_RATE_ONLY
            ? []
            : [
                { name: 'clean', seconds: S.curvePhase },
                { ...think, seconds: S.curvePhase },
              ]),
        ]),
      { processes: RATE_PROCESSES },
    );
  },
  scale: async (R) => {
    R.scale = await withFray((sv, db) => frayLoad(sv, db, S.E, S.P, [{ name: 'clean', seconds: S.phase }]), { processes: 2 });
  },
  curve: async (R) => {
    for (const [E, P] of S.curve) {
      R.curve.push(
        await withFray((sv, db) =>
          frayLoad(sv, db, E, P, [
            { name: 'clean', seconds: S.curvePhase },
            { ...think, seconds: S.curvePhase },
          ]),
        ),
      );
    }
  },
  idle: async (R) => {
    R.idle = runInproc('idle', await newDb());
  },
  resume: async (R) => {
    R.resume = runInproc('resume', await newDb());
  },
  profile: async (R) => {
    // BENCH_PROFILE_DIR=<dir> keeps the .cpuprofile there (for a closer look: DevTools, or profile.ts)
    const keep = process.env.BENCH_PROFILE_DIR;
    const dir = keep ?? mkdtempSync(join(tmpdir(), 'fray-bench-prof-'));
    try {
      let spawnedAt = 0;
      const r = await withFray(
        (sv, db) => {
          spawnedAt = sv[0]!.startedAt;
          return frayLoad(sv, db, S.E, S.P, [{ name: 'clean', seconds: S.phase }]);
        },
        { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] },
      );
      const file = readdirSync(dir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort()
        .at(-1);
      if (!file) throw new Error('no .cpuprofile written');
      const ph = r.phases[0]!;
      // only the load phase: the process's start, the setup and the shutdown are cut off
      R.profile = summarizeProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')), 20, {
        fromMs: ph.startedAt - spawnedAt,
        toMs: ph.endedAt - spawnedAt,
      });
      R.profile.phase = ph;
    } finally {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    }
  },
  split: async (R) => {
    if (!perfAvailable()) throw new Error('Linux perf is not installed (Debian: apt-get install linux-perf)');
    // the JIT's frames named in /tmp/perf-<pid>.map; perf.ts removes the map with the recording
    const perfMap = ['--perf-basic-prof-only-functions'];
    const dir = mkdtempSync(join(tmpdir(), 'fray-bench-perf-'));
    try {
      const fray = await withFray(
        (sv, db) => underPerf(sv[0]!.pid, join(dir, 'fray.data'), () => frayLoad(sv, db, S.E, S.P, [{ name: 'clean', seconds: S.phase }])),
        { nodeArgs: perfMap },
      );
      const payload = floorPayload(fray.phase);
      const floor = await withFloor(payload, perfMap, (fl) =>
        underPerf(fl.pid, join(dir, 'floor.data'), () =>
          runLoad({
            target: 'floor',
            urls: [fl.url],
            pids: [fl.pid],
            E: S.E,
            P: S.P,
            phases: [{ name: 'clean', seconds: S.phase }],
            payloadBytes: payload,
          }),
        ),
      );
      R.split = { fray, floor };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  start: async (R) => {
    R.start = await runStart({ baseDb, idleSeconds: START_IDLE, log });
  },
};
