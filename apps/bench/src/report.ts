/** The bench's table: every part's figures against its target (docs/performance.md, between the bench markers). */
import { cpus, totalmem } from 'node:os';
import { damonMonitors, describeDamon } from '@fray/server/memory';
import { PERF_HZ, QUICK, S, START_IDLE, baseDb, started } from './config.js';
import type { PhaseResult } from './load/types.js';
import { cpuGeneration, loadAverage } from './proc.js';
import { heldBack, KB, ms, phaseOf, yes, type Row } from './report-common.js';
import { badRows, e2eRows, rateRows, thinkRows } from './report-e2e.js';
import type { Results, SplitRun } from './runs.js';
import { startRows } from './start.js';
import { fmt, fmtRatio, markdownTable, ratio } from './stats.js';

/** The kernel's DAMON monitor, where it runs: its kdamond thread takes a core in bursts at every sample (Session 16). */
function damonNote(): string {
  const on = damonMonitors();
  if (on.length === 0) return '';
  return `; the kernel's DAMON memory monitor was on (${describeDamon(on)}): see "the rest of the machine's CPU"`;
}

function engineRows(R: Results, row: Row): void {
  for (const e of R.engine ?? []) {
    row(
      `engine ${e.ruleset}`,
      'validate+apply commands/s (per CPU-s; wall)',
      `${fmt(e.applyPerCpuSec)} (${fmt(e.applyPerSec)})`,
      '',
      '',
      '',
      '',
      '≥ 100,000/CPU-s',
      yes(e.applyPerCpuSec >= 100_000),
    );
    row(`engine ${e.ruleset}`, 'legalActions calls/s (per CPU-s)', fmt(e.legalPerCpuSec));
    row(`engine ${e.ruleset}`, 'replay of 10,000 commands, ms (CPU)', `${fmt(e.replayMs)} (${fmt(e.replayCpuMs)})`);
    row(
      `engine ${e.ruleset}`,
      'state bytes, 12 combatants (max)',
      `${fmt(e.stateBytes)} (${fmt(e.maxStateBytes)})`,
      '',
      '',
      '',
      '',
      '≤ 65,536',
      yes(e.maxStateBytes <= 65_536),
    );
  }
}

function scaleIdleResumeRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const sc = R.scale?.phases[0];
  if (R.scale && sc) {
    row(
      `2 processes, ${S.E}×${S.P}`,
      'accepted commands/s (ratio to 1 process)',
      `${fmt(sc.acceptedPerSec)} (${fmtRatio(ratio(sc.acceptedPerSec, fc?.acceptedPerSec))})`,
    );
    row(
      `2 processes, ${S.E}×${S.P}`,
      'p99 ms: all; commands of redirected clients (NOT_OWNER followed)',
      `${ms(sc.latency.p99)}; ${sc.latencyRedirected ? `${ms(sc.latencyRedirected.p99)} (${fmt(sc.latencyRedirected.count)} commands, ${fmt(R.scale.redirectedClients)} clients)` : '–'}`,
    );
  }
  if (R.idle?.idle) {
    for (const x of R.idle.idle) {
      row(
        `idle ${x.ruleset}`,
        `heap per idle live encounter (${x.encounters} loaded, v${x.version}; of which the state)`,
        `${KB(x.liveBytesPerEncounter)} (${KB(x.stateBytesPerEncounter)})`,
        '',
        '',
        '',
        '',
        '≤ 50 KB',
        yes(x.liveBytesPerEncounter <= 50 * 1024),
      );
      row(
        `idle ${x.ruleset}`,
        'heap per evicted encounter',
        KB(x.evictedBytesPerEncounter),
        '',
        '',
        '',
        '',
        '≤ 2 KB (≈ 0)',
        yes(x.evictedBytesPerEncounter <= 2048),
      );
    }
    for (const x of R.idle.watched ?? []) {
      row(
        `idle ${x.ruleset}`,
        `heap per watched live encounter (5 viewers, v${R.idle.idle.find((y) => y.ruleset === x.ruleset)?.version ?? '?'}, sync history ${x.syncHistory})`,
        KB(x.bytesPerEncounter),
        '',
        '',
        '',
        '',
        '',
        '',
      );
    }
  }
  if (R.resume?.resume) {
    for (const x of R.resume.resume) {
      row(
        `resume ${x.ruleset}`,
        `open with ${fmt(x.logged)} logged commands: snapshot v${x.snapshotAt} + ${x.tail} tail, ms median (max)`,
        `${ms(x.medianMs)} (${ms(x.maxMs)})`,
        '',
        '',
        '',
        '',
        '≤ 200 ms',
        yes(x.medianMs <= 200),
      );
      row(`resume ${x.ruleset}`, 'the same with no snapshot (all 10,000 replayed), ms', ms(x.noSnapshotMs));
    }
  }
}

function curveRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const ft = phaseOf(R.fray, 'think 100 ms');
  // one row per curve point; a point whose commands met the server's rate limit (30 messages a
  // second a socket, flood protection) says how many: their latency holds the generator's back-off
  const curveRow = (E: number, P: number, p: PhaseResult, name = p.name === 'clean' ? 'no think' : p.name) =>
    row(
      `curve ${E}×${P}, ${name}`,
      'commands/s; p50 / p99 ms; server CPU % (generator %); µs/cmd; commits/s (entries each)',
      `${fmt(p.acceptedPerSec)}; ${ms(p.latency.p50)} / ${ms(p.latency.p99)}; ${fmt(p.serverCpuPercent)} % (${fmt(p.loadgenCpuPercent)} %); ${fmt(p.serverCpuUsPerCommand)}; ${fmt(p.commitsPerSec)} (${fmt(p.entriesPerCommit, 1)})${heldBack(p)}`,
    );
  for (const c of R.curve) for (const p of c.phases) curveRow(c.E, c.P, p);
  if (R.rate && !QUICK) for (const p of R.rate.phases.slice(1)) curveRow(R.rate.E, R.rate.P, p);
  if (fc && !QUICK) curveRow(S.E, S.P, fc, 'no think');
  if (ft && !QUICK) curveRow(S.E, S.P, ft, 'think 100 ms');
}

export function render(R: Results): string {
  const rows: string[][] = [];
  const row: Row = (part, what, fray, bgio = '', floor = '', vsBgio = '', vsFloor = '', target = '', met = '') =>
    rows.push([part, what, fray, bgio, floor, vsBgio, vsFloor, target, met]);
  for (const section of [engineRows, e2eRows, badRows, thinkRows, rateRows, scaleIdleResumeRows, curveRows]) section(R, row);

  const header = ['part', 'figure', 'Fray', 'boardgame.io', 'socket.io floor', 'Fray ÷ bgio', 'Fray ÷ floor', 'target', ''];
  const cpu = cpus();
  const generation = cpuGeneration();
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16)}Z${QUICK ? ' (BENCH_QUICK)' : ''}, ${((Date.now() - started) / 1000).toFixed(0)} s; ${cpu.length} × ${cpu[0]?.model ?? '?'}${generation ? ` (${generation})` : ''}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average at the end ${loadAverage()}; Postgres ${baseDb.replace(/\/\/[^@]*@/, '//')} (a fresh database per server run, durable acks), the load generator in its own process on the same 2 cores${damonNote()}.`,
    ...(rows.length ? ['', markdownTable(header, rows)] : []),
  ];
  if (R.start) {
    lines.push('', markdownTable(['part', 'figure', 'Fray', 'target', ''], startRows(R.start, START_IDLE)));
  }
  if (R.profile) {
    const ph = R.profile.phase;
    lines.push(
      '',
      `Server CPU profile (--cpu-prof, e2e ${S.E}×${S.P} no think, the load phase only: ${ph ? `${fmt(ph.acceptedPerSec)} commands/s, ${fmt(ph.serverCpuUsPerCommand)} µs CPU per command, ` : ''}${fmt(R.profile.totalMs)} ms of CPU sampled): self time by area, then the top functions.`,
      '',
    );
    lines.push(
      markdownTable(
        ['area', 'self %'],
        R.profile.areas.map((a) => [a.name, fmt(a.percent, 1)]),
      ),
    );
    lines.push(
      '',
      markdownTable(
        ['function (file)', 'self %'],
        R.profile.functions.map((f) => [f.name, fmt(f.percent, 1)]),
      ),
    );
  }
  if (R.split) lines.push('', ...renderSplit(R.split));
  if (R.errors.length) lines.push('', `Failed parts: ${R.errors.join('; ')}`);
  return lines.join('\n');
}

const TRANSPORT_AREAS = new Set([
  'socket.io',
  'socket.io-parser',
  'socket.io-adapter',
  'engine.io',
  'engine.io-parser',
  'ws',
  'debug',
  'Node internals (net, streams, timers…)',
]);
/** subtotals under the split's table: the transport's JavaScript, and Fray's own work with the libraries it calls */
const SPLIT_GROUPS: Array<[string, (area: string) => boolean]> = [
  ["the transport's JavaScript (socket.io, engine.io, ws, their parser and adapter, Node's streams)", (a) => TRANSPORT_AREAS.has(a)],
  [
    "Fray's own packages and what they call (@fray/*, zod, pg, pino…)",
    (a) =>
      a.startsWith('@fray/') ||
      ['zod', 'pg', 'pg-pool', 'pg-protocol', 'pg-types', 'pino', 'mutative', 'pure-rand', '@prisma/client', 'fastify'].includes(a),
  ],
];

/** Fray's and the floor's CPU a command by area, side by side (the split part). */
function renderSplit(s: { fray: SplitRun; floor: SplitRun }): string[] {
  const us = (r: SplitRun, area: string) => (r.split.areas.find((a) => a.name === area)?.share ?? 0) * r.phase.serverCpuUsPerCommand;
  const names = [...new Set([...s.fray.split.areas, ...s.floor.split.areas].map((a) => a.name))];
  names.sort((a, b) => us(s.fray, b) - us(s.fray, a) || us(s.floor, b) - us(s.floor, a));
  const cell = (r: SplitRun, area: string) => {
    const share = r.split.areas.find((a) => a.name === area)?.share ?? 0;
    return share ? `${fmt(us(r, area), 1)} (${fmt(share * 100, 1)} %)` : '–';
  };
  const head = (r: SplitRun) =>
    `${fmt(r.phase.acceptedPerSec)} commands/s, ${fmt(r.phase.serverCpuUsPerCommand)} µs a command, ${fmt(r.split.samples)} samples`;
  return [
    `On-CPU split (Linux perf at ${PERF_HZ} Hz over every thread of the server, e2e ${S.E}×${S.P} no think, the load phase only; the sampling itself costs the servers some CPU): Fray ${head(s.fray)}; the socket.io floor ${head(s.floor)}. µs a command by area (share of the samples); an area is the kernel, the garbage collector, V8's compiler, or the package of the nearest JavaScript frame (builtins such as JSON.stringify count to their caller's).`,
    '',
    markdownTable(
      ['area', 'Fray µs a command', 'floor µs a command', 'Fray − floor µs'],
      [
        ...names.map((n) => [n, cell(s.fray, n), cell(s.floor, n), fmt(us(s.fray, n) - us(s.floor, n), 1)]),
        ...SPLIT_GROUPS.map(([name, of]) => {
          const sum = (r: SplitRun) => names.filter(of).reduce((t, n) => t + us(r, n), 0);
          return [name, fmt(sum(s.fray), 1), fmt(sum(s.floor), 1), fmt(sum(s.fray) - sum(s.floor), 1)];
        }),
        [
          'all',
          fmt(s.fray.phase.serverCpuUsPerCommand, 1),
          fmt(s.floor.phase.serverCpuUsPerCommand, 1),
          fmt(s.fray.phase.serverCpuUsPerCommand - s.floor.phase.serverCpuUsPerCommand, 1),
        ],
      ],
    ),
  ];
}
