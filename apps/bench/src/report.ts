/** The bench's table: every part's figures against its target (docs/performance.md, between the bench markers). */
import { cpus, totalmem } from 'node:os';
import { damonMonitors, describeDamon } from '@fray/server/memory';
import { PERF_HZ, QUICK, RATE_PROCESSES, S, START_IDLE, baseDb, started } from './config.js';
import type { LoadResult, PhaseResult } from './load/types.js';
import { cpuGeneration, describeOtherCpu, loadAverage } from './proc.js';
import type { Results, SplitRun } from './runs.js';
import { startRows } from './start.js';
import { fmt, fmtRatio, markdownTable, ratio } from './stats.js';

const ms = (x: number | undefined) => fmt(x, x !== undefined && x < 10 ? 2 : 1);
const KB = (x: number) => `${fmt(x / 1024, 1)} KB`;
const phaseOf = (r: LoadResult | undefined, name: string): PhaseResult | undefined => r?.phases.find((p) => p.name === name);
/** the note on a phase's latency when some of its commands waited out the server's rate limit */
const heldBack = (p: PhaseResult): string => (p.heldBack > 0 ? ` (${fmt(p.heldBack)} commands held back by the rate limit, 100 ms each)` : '');
const yes = (b: boolean | undefined) => (b === undefined ? '–' : b ? 'met' : '**missed**');

/** The kernel's DAMON monitor, where it runs: its kdamond thread takes a core in bursts at every sample (Session 16). */
function damonNote(): string {
  const on = damonMonitors();
  if (on.length === 0) return '';
  return `; the kernel's DAMON memory monitor was on (${describeDamon(on)}): see "the rest of the machine's CPU"`;
}

/** Adds one row of the table: part, figure, Fray, then boardgame.io, the floor, the two ratios, the target and whether it was met. */
type Row = (part: string, what: string, fray: string, bgio?: string, floor?: string, vsBgio?: string, vsFloor?: string, target?: string, met?: string) => void;

function engineRows(R: Results, row: Row): void {
  for (const e of R.engine ?? []) {
    row(`engine ${e.ruleset}`, 'validate+apply commands/s (per CPU-s; wall)', `${fmt(e.applyPerCpuSec)} (${fmt(e.applyPerSec)})`, '', '', '', '', '≥ 100,000/CPU-s', yes(e.applyPerCpuSec >= 100_000));
    row(`engine ${e.ruleset}`, 'legalActions calls/s (per CPU-s)', fmt(e.legalPerCpuSec));
    row(`engine ${e.ruleset}`, 'replay of 10,000 commands, ms (CPU)', `${fmt(e.replayMs)} (${fmt(e.replayCpuMs)})`);
    row(`engine ${e.ruleset}`, 'state bytes, 12 combatants (max)', `${fmt(e.stateBytes)} (${fmt(e.maxStateBytes)})`, '', '', '', '', '≤ 65,536', yes(e.maxStateBytes <= 65_536));
  }
}

/** The no-think end-to-end part against boardgame.io and the floor. */
function e2eRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const bc = phaseOf(R.bgio, 'clean');
  const lc = phaseOf(R.floor, 'clean');
  if (fc || bc || lc) {
    const part = `e2e ${S.E}×${S.P}, no think`;
    row(part, 'accepted commands/s', fmt(fc?.acceptedPerSec), fmt(bc?.acceptedPerSec), fmt(lc?.acceptedPerSec), fmtRatio(ratio(fc?.acceptedPerSec, bc?.acceptedPerSec)), fmtRatio(ratio(fc?.acceptedPerSec, lc?.acceptedPerSec)), '≥ 2× boardgame.io', yes(fc && bc ? fc.acceptedPerSec >= 2 * bc.acceptedPerSec : undefined));
    const lat = (p?: PhaseResult) => (p ? `${ms(p.latency.p50)} / ${ms(p.latency.p95)} / ${ms(p.latency.p99)}${heldBack(p)}` : '–');
    row(part, 'latency send → every client, p50 / p95 / p99 ms', lat(fc), lat(bc), lat(lc), fmtRatio(ratio(fc?.latency.p99, bc?.latency.p99)), fmtRatio(ratio(fc?.latency.p99, lc?.latency.p99)), 'p99 < boardgame.io', yes(fc && bc ? fc.latency.p99 < bc.latency.p99 : undefined));
    row(part, 'server CPU µs per command', fmt(fc?.serverCpuUsPerCommand), fmt(bc?.serverCpuUsPerCommand), fmt(lc?.serverCpuUsPerCommand), fmtRatio(ratio(fc?.serverCpuUsPerCommand, bc?.serverCpuUsPerCommand)), fmtRatio(ratio(fc?.serverCpuUsPerCommand, lc?.serverCpuUsPerCommand)), '≤ 2× floor', yes(fc && lc ? fc.serverCpuUsPerCommand <= 2 * lc.serverCpuUsPerCommand : undefined));
    // the rest is V8's helper threads: GC and the optimizing compiler (docs/journal/performance-2026-11.md, Session 15)
    row(part, "of which the server's main thread (its event loop), µs", fmt(fc?.serverMainThreadCpuUsPerCommand), fmt(bc?.serverMainThreadCpuUsPerCommand), fmt(lc?.serverMainThreadCpuUsPerCommand), fmtRatio(ratio(fc?.serverMainThreadCpuUsPerCommand, bc?.serverMainThreadCpuUsPerCommand)), fmtRatio(ratio(fc?.serverMainThreadCpuUsPerCommand, lc?.serverMainThreadCpuUsPerCommand)));
    // the kernel's part (socket writes and reads): the same work for Fray and the floor, which is why the floor ratio differs between machines (Session 18)
    row(part, 'of which system time (the kernel: socket writes, reads, epoll), µs', fmt(fc?.serverSystemCpuUsPerCommand), fmt(bc?.serverSystemCpuUsPerCommand), fmt(lc?.serverSystemCpuUsPerCommand), fmtRatio(ratio(fc?.serverSystemCpuUsPerCommand, bc?.serverSystemCpuUsPerCommand)), fmtRatio(ratio(fc?.serverSystemCpuUsPerCommand, lc?.serverSystemCpuUsPerCommand)));
    row(part, 'server CPU % of one core; load generator %', fc ? `${fmt(fc.serverCpuPercent)} %; ${fmt(fc.loadgenCpuPercent)} %` : '–', bc ? `${fmt(bc.serverCpuPercent)} %; ${fmt(bc.loadgenCpuPercent)} %` : '–', lc ? `${fmt(lc.serverCpuPercent)} %; ${fmt(lc.loadgenCpuPercent)} %` : '–');
    if (fc) {
      const share = fc.bytesPerUpdate / fc.fullStateBytes;
      row(part, 'bytes per patch frame / full state (share)', `${fmt(fc.bytesPerUpdate)} / ${fmt(fc.fullStateBytes)} (${fmt(share * 100, 1)} %)`, bc ? `${fmt(bc.bytesPerUpdate)}` : '', lc ? `${fmt(lc.bytesPerUpdate)}` : '', '', '', '≤ 10 %', yes(share <= 0.1));
    }
    const perEnc = (r?: LoadResult, p?: PhaseResult) => (r && p ? `${KB((p.rssBytes - r.baseline.rssBytes) / r.E)} / ${Number.isFinite(p.heapUsedBytes) ? KB((p.heapUsedBytes - r.baseline.heapUsedBytes) / r.E) : '–'}` : '–');
    row(part, 'server RSS / heap per encounter (growth over the empty server)', perEnc(R.fray, fc), perEnc(R.bgio, bc), perEnc(R.floor, lc));
    // the cores are shared with whatever else the machine runs (docs/journal/performance-2026-11.md, Session 16)
    row(part, "the rest of the machine's CPU in the phase, % of one core (largest)", fc ? describeOtherCpu(fc.otherCpu) : '–', bc ? describeOtherCpu(bc.otherCpu) : '–', lc ? describeOtherCpu(lc.otherCpu) : '–');
    if (fc) row(part, 'database commits/s (log entries per commit); Postgres CPU µs per command; checkpoints in the phase', `${fmt(fc.commitsPerSec)} (${fmt(fc.entriesPerCommit, 1)}); ${fmt(fc.databaseCpuUsPerCommand)}; ${fc.checkpoints ?? '–'}`, 'in memory', '–');
  }
}

function badRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const fb = phaseOf(R.fray, 'bad 5%');
  const bads = (R.fray?.phases ?? []).filter((p) => p.bad);
  const cleans = (R.fray?.phases ?? []).filter((p) => p.name === 'clean' || p.name === 'clean again' || p.name === 'clean (3)');
  if (fc && fb && fb.bad) {
    const mean = (ps: PhaseResult[]) => ps.reduce((a, p) => a + p.acceptedPerSec, 0) / ps.length;
    const clean = mean(cleans);
    const held = mean(bads) / clean;
    const each = `bad ${bads.map((p) => fmt(p.acceptedPerSec)).join(', ')}; clean ${cleans.map((p) => fmt(p.acceptedPerSec)).join(', ')}`;
    row('bad input 5 %', 'legal commands/s, mean of the bad phases vs the clean phases around them', `${fmt(mean(bads))} vs ${fmt(clean)} (${fmt(held * 100)} %; ${each})`, '', '', '', '', '≥ 90 %', yes(held >= 0.9));
    const typed = bads.reduce((a, p) => a + p.bad!.typed, 0);
    const sent = bads.reduce((a, p) => a + p.bad!.sent, 0);
    const other: Record<string, number> = {};
    for (const p of bads) for (const [k, v] of Object.entries(p.bad!.untyped)) other[k] = (other[k] ?? 0) + v;
    const untyped = Object.entries(other).map(([k, v]) => `${k} ${v}`).join(', ');
    row('bad input 5 %', 'bad commands answered with their typed error', `${fmt(typed)} of ${fmt(sent)}${untyped ? ` (other: ${untyped})` : ''}`, '', '', '', '', 'all', yes(typed === sent));
    row('bad input 5 %', 'p50 / p99 of the legal commands, ms, first bad phase (clean run)', `${ms(fb.latency.p50)} / ${ms(fb.latency.p99)} (${ms(fc.latency.p50)} / ${ms(fc.latency.p99)})`);
    row('bad input 5 %', 'ack ms of the bad commands, p50 by code (first bad phase)', Object.entries(fb.bad.ackMsP50 ?? {}).map(([k, v]) => `${k} ${ms(v)}`).join(', '));
  }
  if (R.fray?.check) {
    const c = R.fray.check;
    const refused = R.fray.phases.reduce((a, p) => a + Object.values(p.refused).reduce((x, y) => x + y, 0), 0);
    row('no loss', 'log entries in Postgres = setup + accepted acks (legal refused)', `${fmt(c.logEntries)} = ${fmt(c.expected)} (${fmt(refused)})`, '', '', '', '', 'equal, 0 refused', yes(c.logEntries === c.expected && refused === 0));
  }
}

function thinkRows(R: Results, row: Row): void {
  const ft = phaseOf(R.fray, 'think 100 ms');
  const bt = phaseOf(R.bgio, 'think 100 ms');
  const lt = phaseOf(R.floor, 'think 100 ms');
  if (ft || bt || lt) {
    const part = `e2e ${S.E}×${S.P}, think 100 ms`;
    row(part, 'commands/s; p99 ms', ft ? `${fmt(ft.acceptedPerSec)}; ${ms(ft.latency.p99)}` : '–', bt ? `${fmt(bt.acceptedPerSec)}; ${ms(bt.latency.p99)}` : '–', lt ? `${fmt(lt.acceptedPerSec)}; ${ms(lt.latency.p99)}` : '–', fmtRatio(ratio(ft?.latency.p99, bt?.latency.p99)), fmtRatio(ratio(ft?.latency.p99, lt?.latency.p99)));
    row(part, 'server CPU µs per command', fmt(ft?.serverCpuUsPerCommand), fmt(bt?.serverCpuUsPerCommand), fmt(lt?.serverCpuUsPerCommand), fmtRatio(ratio(ft?.serverCpuUsPerCommand, bt?.serverCpuUsPerCommand)), fmtRatio(ratio(ft?.serverCpuUsPerCommand, lt?.serverCpuUsPerCommand)));
  }
}

function rateRows(R: Results, row: Row): void {
  const rr = R.rate?.phases[0];
  if (R.rate && rr) {
    const part = `e2e ${R.rate.E}×${R.rate.P} at ${fmt(R.rate.E * S.rate)}/s${RATE_PROCESSES > 1 ? `, ${RATE_PROCESSES} processes` : ''}`;
    row(part, `accepted commands/s; p50 / p95 / p99 ms (${fmt(rr.seconds)} s)`, `${fmt(rr.acceptedPerSec)}; ${ms(rr.latency.p50)} / ${ms(rr.latency.p95)} / ${ms(rr.latency.p99)}`, '', '', '', '', 'p99 ≤ 25 ms', yes(rr.latency.p99 <= 25));
    row(part, 'server CPU µs/command (main thread); CPU %; commits/s; Postgres CPU µs/command', `${fmt(rr.serverCpuUsPerCommand)} (${fmt(rr.serverMainThreadCpuUsPerCommand)}); ${fmt(rr.serverCpuPercent)} %; ${fmt(rr.commitsPerSec)}; ${fmt(rr.databaseCpuUsPerCommand)}`);
    row(part, 'server RSS / heap per encounter', `${KB((rr.rssBytes - R.rate.baseline.rssBytes) / R.rate.E)} / ${KB((rr.heapUsedBytes - R.rate.baseline.heapUsedBytes) / R.rate.E)}`);
    const sl = rr.serverLoopDelayMs;
    row(part, 'event-loop delay p99 / max ms: server (last 10 s); generator (phase)', `${sl ? `${ms(sl.p99)} / ${ms(sl.max)}` : '–'}; ${ms(rr.loadgenLoopDelayMs.p99)} / ${ms(rr.loadgenLoopDelayMs.max)}`);
    // the cores are shared: a runnable event loop that waits for one is late (Session 14)
    row(part, 'share of the phase the event loop waited for a core: server; generator', `${fmt(rr.runQueueWaitPercent.server)} %; ${fmt(rr.runQueueWaitPercent.generator)} %`);
    // a kernel thread that takes a core in bursts (DAMON's kdamond on some VMs) sets the tail (Session 16)
    row(part, "the rest of the machine's CPU in the phase, % of one core (largest)", describeOtherCpu(rr.otherCpu));
    // one full GC of the server in the phase makes most of its late commands (docs/journal/performance-2026-11.md, Session 13)
    if (rr.serverGc) row(part, "the server's garbage collections in the phase: full GCs; scavenges", `${fmt(rr.serverGc.fullGcs)}; ${fmt(rr.serverGc.scavenges)}`);
    // a Postgres checkpoint in the phase slows its commits (docs/journal/performance-2026-11.md, Session 14)
    if (rr.checkpoints !== null) row(part, 'Postgres checkpoints begun in the phase (one ran just before the server started)', fmt(rr.checkpoints));
  }
}

function scaleIdleResumeRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const sc = R.scale?.phases[0];
  if (R.scale && sc) {
    row(`2 processes, ${S.E}×${S.P}`, 'accepted commands/s (ratio to 1 process)', `${fmt(sc.acceptedPerSec)} (${fmtRatio(ratio(sc.acceptedPerSec, fc?.acceptedPerSec))})`);
    row(`2 processes, ${S.E}×${S.P}`, 'p99 ms: all; commands of redirected clients (NOT_OWNER followed)', `${ms(sc.latency.p99)}; ${sc.latencyRedirected ? `${ms(sc.latencyRedirected.p99)} (${fmt(sc.latencyRedirected.count)} commands, ${fmt(R.scale.redirectedClients)} clients)` : '–'}`);
  }
  if (R.idle?.idle) {
    for (const x of R.idle.idle) {
      row(`idle ${x.ruleset}`, `heap per idle live encounter (${x.encounters} loaded, v${x.version}; of which the state)`, `${KB(x.liveBytesPerEncounter)} (${KB(x.stateBytesPerEncounter)})`, '', '', '', '', '≤ 50 KB', yes(x.liveBytesPerEncounter <= 50 * 1024));
      row(`idle ${x.ruleset}`, 'heap per evicted encounter', KB(x.evictedBytesPerEncounter), '', '', '', '', '≤ 2 KB (≈ 0)', yes(x.evictedBytesPerEncounter <= 2048));
    }
    for (const x of R.idle.watched ?? []) {
      row(`idle ${x.ruleset}`, `heap per watched live encounter (5 viewers, v${R.idle.idle.find((y) => y.ruleset === x.ruleset)?.version ?? '?'}, sync history ${x.syncHistory})`, KB(x.bytesPerEncounter), '', '', '', '', '', '');
    }
  }
  if (R.resume?.resume) {
    for (const x of R.resume.resume) {
      row(`resume ${x.ruleset}`, `open with ${fmt(x.logged)} logged commands: snapshot v${x.snapshotAt} + ${x.tail} tail, ms median (max)`, `${ms(x.medianMs)} (${ms(x.maxMs)})`, '', '', '', '', '≤ 200 ms', yes(x.medianMs <= 200));
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
  const row: Row = (part, what, fray, bgio = '', floor = '', vsBgio = '', vsFloor = '', target = '', met = '') => rows.push([part, what, fray, bgio, floor, vsBgio, vsFloor, target, met]);
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
    lines.push('', `Server CPU profile (--cpu-prof, e2e ${S.E}×${S.P} no think, the load phase only: ${ph ? `${fmt(ph.acceptedPerSec)} commands/s, ${fmt(ph.serverCpuUsPerCommand)} µs CPU per command, ` : ''}${fmt(R.profile.totalMs)} ms of CPU sampled): self time by area, then the top functions.`, '');
    lines.push(markdownTable(['area', 'self %'], R.profile.areas.map((a) => [a.name, fmt(a.percent, 1)])));
    lines.push('', markdownTable(['function (file)', 'self %'], R.profile.functions.map((f) => [f.name, fmt(f.percent, 1)])));
  }
  if (R.split) lines.push('', ...renderSplit(R.split));
  if (R.errors.length) lines.push('', `Failed parts: ${R.errors.join('; ')}`);
  return lines.join('\n');
}

const TRANSPORT_AREAS = new Set(['socket.io', 'socket.io-parser', 'socket.io-adapter', 'engine.io', 'engine.io-parser', 'ws', 'debug', 'Node internals (net, streams, timers…)']);
/** subtotals under the split's table: the transport's JavaScript, and Fray's own work with the libraries it calls */
const SPLIT_GROUPS: Array<[string, (area: string) => boolean]> = [
  ["the transport's JavaScript (socket.io, engine.io, ws, their parser and adapter, Node's streams)", (a) => TRANSPORT_AREAS.has(a)],
  ["Fray's own packages and what they call (@fray/*, zod, pg, pino…)", (a) => a.startsWith('@fray/') || ['zod', 'pg', 'pg-pool', 'pg-protocol', 'pg-types', 'pino', 'mutative', 'pure-rand', '@prisma/client', 'fastify'].includes(a)],
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
  const head = (r: SplitRun) => `${fmt(r.phase.acceptedPerSec)} commands/s, ${fmt(r.phase.serverCpuUsPerCommand)} µs a command, ${fmt(r.split.samples)} samples`;
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
        ['all', fmt(s.fray.phase.serverCpuUsPerCommand, 1), fmt(s.floor.phase.serverCpuUsPerCommand, 1), fmt(s.fray.phase.serverCpuUsPerCommand - s.floor.phase.serverCpuUsPerCommand, 1)],
      ],
    ),
  ];
}
