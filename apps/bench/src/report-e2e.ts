/** The end-to-end rows of the bench's table (report.ts): no think against the peers, bad input, think time, the rate phase. */
import { RATE_PROCESSES, S } from './config.js';
import type { LoadResult, PhaseResult } from './load/types.js';
import { describeOtherCpu } from './proc.js';
import { heldBack, KB, ms, phaseOf, yes, type Row } from './report-common.js';
import type { Results } from './runs.js';
import { fmt, fmtRatio, ratio } from './stats.js';

/** The no-think end-to-end part against boardgame.io and the floor. */
export function e2eRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const bc = phaseOf(R.bgio, 'clean');
  const lc = phaseOf(R.floor, 'clean');
  if (fc || bc || lc) {
    const part = `e2e ${S.E}×${S.P}, no think`;
    row(
      part,
      'accepted commands/s',
      fmt(fc?.acceptedPerSec),
      fmt(bc?.acceptedPerSec),
      fmt(lc?.acceptedPerSec),
      fmtRatio(ratio(fc?.acceptedPerSec, bc?.acceptedPerSec)),
      fmtRatio(ratio(fc?.acceptedPerSec, lc?.acceptedPerSec)),
      '≥ 2× boardgame.io',
      yes(fc && bc ? fc.acceptedPerSec >= 2 * bc.acceptedPerSec : undefined),
    );
    const lat = (p?: PhaseResult) => (p ? `${ms(p.latency.p50)} / ${ms(p.latency.p95)} / ${ms(p.latency.p99)}${heldBack(p)}` : '–');
    row(
      part,
      'latency send → every client, p50 / p95 / p99 ms',
      lat(fc),
      lat(bc),
      lat(lc),
      fmtRatio(ratio(fc?.latency.p99, bc?.latency.p99)),
      fmtRatio(ratio(fc?.latency.p99, lc?.latency.p99)),
      'p99 < boardgame.io',
      yes(fc && bc ? fc.latency.p99 < bc.latency.p99 : undefined),
    );
    row(
      part,
      'server CPU µs per command',
      fmt(fc?.serverCpuUsPerCommand),
      fmt(bc?.serverCpuUsPerCommand),
      fmt(lc?.serverCpuUsPerCommand),
      fmtRatio(ratio(fc?.serverCpuUsPerCommand, bc?.serverCpuUsPerCommand)),
      fmtRatio(ratio(fc?.serverCpuUsPerCommand, lc?.serverCpuUsPerCommand)),
      'none ([ADR 1](adr/0001-server-cpu-target-against-the-socketio-floor-retired.md))',
      'info',
    );
    e2eCpuRows(part, fc, bc, lc, row);
    e2eResourceRows(R, part, fc, bc, lc, row);
  }
}

/** The no-think phase's CPU split: the main thread, the kernel, the shares of a core. */
function e2eCpuRows(part: string, fc: PhaseResult | undefined, bc: PhaseResult | undefined, lc: PhaseResult | undefined, row: Row): void {
  // the rest is V8's helper threads: GC and the optimizing compiler (docs/journal/performance-2026-11.md, Session 15)
  row(
    part,
    "of which the server's main thread (its event loop), µs",
    fmt(fc?.serverMainThreadCpuUsPerCommand),
    fmt(bc?.serverMainThreadCpuUsPerCommand),
    fmt(lc?.serverMainThreadCpuUsPerCommand),
    fmtRatio(ratio(fc?.serverMainThreadCpuUsPerCommand, bc?.serverMainThreadCpuUsPerCommand)),
    fmtRatio(ratio(fc?.serverMainThreadCpuUsPerCommand, lc?.serverMainThreadCpuUsPerCommand)),
  );
  // the kernel's part (socket writes and reads): the same work for Fray and the floor, which is why the floor ratio differs between machines (Session 18)
  row(
    part,
    'of which system time (the kernel: socket writes, reads, epoll), µs',
    fmt(fc?.serverSystemCpuUsPerCommand),
    fmt(bc?.serverSystemCpuUsPerCommand),
    fmt(lc?.serverSystemCpuUsPerCommand),
    fmtRatio(ratio(fc?.serverSystemCpuUsPerCommand, bc?.serverSystemCpuUsPerCommand)),
    fmtRatio(ratio(fc?.serverSystemCpuUsPerCommand, lc?.serverSystemCpuUsPerCommand)),
  );
  row(
    part,
    'server CPU % of one core; load generator %',
    fc ? `${fmt(fc.serverCpuPercent)} %; ${fmt(fc.loadgenCpuPercent)} %` : '–',
    bc ? `${fmt(bc.serverCpuPercent)} %; ${fmt(bc.loadgenCpuPercent)} %` : '–',
    lc ? `${fmt(lc.serverCpuPercent)} %; ${fmt(lc.loadgenCpuPercent)} %` : '–',
  );
}

/** The no-think phase's bytes, memory, the rest of the machine and the database. */
function e2eResourceRows(
  R: Results,
  part: string,
  fc: PhaseResult | undefined,
  bc: PhaseResult | undefined,
  lc: PhaseResult | undefined,
  row: Row,
): void {
  if (fc) {
    const share = fc.bytesPerUpdate / fc.fullStateBytes;
    row(
      part,
      'bytes per patch frame / full state (share)',
      `${fmt(fc.bytesPerUpdate)} / ${fmt(fc.fullStateBytes)} (${fmt(share * 100, 1)} %)`,
      bc ? `${fmt(bc.bytesPerUpdate)}` : '',
      lc ? `${fmt(lc.bytesPerUpdate)}` : '',
      '',
      '',
      '≤ 10 %',
      yes(share <= 0.1),
    );
  }
  const perEnc = (r?: LoadResult, p?: PhaseResult) =>
    r && p
      ? `${KB((p.rssBytes - r.baseline.rssBytes) / r.E)} / ${Number.isFinite(p.heapUsedBytes) ? KB((p.heapUsedBytes - r.baseline.heapUsedBytes) / r.E) : '–'}`
      : '–';
  row(part, 'server RSS / heap per encounter (growth over the empty server)', perEnc(R.fray, fc), perEnc(R.bgio, bc), perEnc(R.floor, lc));
  // the cores are shared with whatever else the machine runs (docs/journal/performance-2026-11.md, Session 16)
  row(
    part,
    "the rest of the machine's CPU in the phase, % of one core (largest)",
    fc ? describeOtherCpu(fc.otherCpu) : '–',
    bc ? describeOtherCpu(bc.otherCpu) : '–',
    lc ? describeOtherCpu(lc.otherCpu) : '–',
  );
  if (fc)
    row(
      part,
      'database commits/s (log entries per commit); Postgres CPU µs per command; checkpoints in the phase',
      `${fmt(fc.commitsPerSec)} (${fmt(fc.entriesPerCommit, 1)}); ${fmt(fc.databaseCpuUsPerCommand)}; ${fc.checkpoints ?? '–'}`,
      'in memory',
      '–',
    );
}

export function badRows(R: Results, row: Row): void {
  const fc = phaseOf(R.fray, 'clean');
  const fb = phaseOf(R.fray, 'bad 5%');
  const bads = (R.fray?.phases ?? []).filter((p) => p.bad);
  const cleans = (R.fray?.phases ?? []).filter((p) => p.name === 'clean' || p.name === 'clean again' || p.name === 'clean (3)');
  if (fc && fb && fb.bad) {
    const mean = (ps: PhaseResult[]) => ps.reduce((a, p) => a + p.acceptedPerSec, 0) / ps.length;
    const clean = mean(cleans);
    const held = mean(bads) / clean;
    const each = `bad ${bads.map((p) => fmt(p.acceptedPerSec)).join(', ')}; clean ${cleans.map((p) => fmt(p.acceptedPerSec)).join(', ')}`;
    row(
      'bad input 5 %',
      'legal commands/s, mean of the bad phases vs the clean phases around them',
      `${fmt(mean(bads))} vs ${fmt(clean)} (${fmt(held * 100)} %; ${each})`,
      '',
      '',
      '',
      '',
      '≥ 90 %',
      yes(held >= 0.9),
    );
    const typed = bads.reduce((a, p) => a + p.bad!.typed, 0);
    const sent = bads.reduce((a, p) => a + p.bad!.sent, 0);
    const other: Record<string, number> = {};
    for (const p of bads) for (const [k, v] of Object.entries(p.bad!.untyped)) other[k] = (other[k] ?? 0) + v;
    const untyped = Object.entries(other)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    row(
      'bad input 5 %',
      'bad commands answered with their typed error',
      `${fmt(typed)} of ${fmt(sent)}${untyped ? ` (other: ${untyped})` : ''}`,
      '',
      '',
      '',
      '',
      'all',
      yes(typed === sent),
    );
    row(
      'bad input 5 %',
      'p50 / p99 of the legal commands, ms, first bad phase (clean run)',
      `${ms(fb.latency.p50)} / ${ms(fb.latency.p99)} (${ms(fc.latency.p50)} / ${ms(fc.latency.p99)})`,
    );
    row(
      'bad input 5 %',
      'ack ms of the bad commands, p50 by code (first bad phase)',
      Object.entries(fb.bad.ackMsP50 ?? {})
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(', '),
    );
  }
  if (R.fray?.check) {
    const c = R.fray.check;
    const refused = R.fray.phases.reduce((a, p) => a + Object.values(p.refused).reduce((x, y) => x + y, 0), 0);
    row(
      'no loss',
      'log entries in Postgres = setup + accepted acks (legal refused)',
      `${fmt(c.logEntries)} = ${fmt(c.expected)} (${fmt(refused)})`,
      '',
      '',
      '',
      '',
      'equal, 0 refused',
      yes(c.logEntries === c.expected && refused === 0),
    );
  }
}

export function thinkRows(R: Results, row: Row): void {
  const ft = phaseOf(R.fray, 'think 100 ms');
  const bt = phaseOf(R.bgio, 'think 100 ms');
  const lt = phaseOf(R.floor, 'think 100 ms');
  if (ft || bt || lt) {
    const part = `e2e ${S.E}×${S.P}, think 100 ms`;
    row(
      part,
      'commands/s; p99 ms',
      ft ? `${fmt(ft.acceptedPerSec)}; ${ms(ft.latency.p99)}` : '–',
      bt ? `${fmt(bt.acceptedPerSec)}; ${ms(bt.latency.p99)}` : '–',
      lt ? `${fmt(lt.acceptedPerSec)}; ${ms(lt.latency.p99)}` : '–',
      fmtRatio(ratio(ft?.latency.p99, bt?.latency.p99)),
      fmtRatio(ratio(ft?.latency.p99, lt?.latency.p99)),
    );
    row(
      part,
      'server CPU µs per command',
      fmt(ft?.serverCpuUsPerCommand),
      fmt(bt?.serverCpuUsPerCommand),
      fmt(lt?.serverCpuUsPerCommand),
      fmtRatio(ratio(ft?.serverCpuUsPerCommand, bt?.serverCpuUsPerCommand)),
      fmtRatio(ratio(ft?.serverCpuUsPerCommand, lt?.serverCpuUsPerCommand)),
    );
  }
}

export function rateRows(R: Results, row: Row): void {
  const rr = R.rate?.phases[0];
  if (R.rate && rr) {
    const part = `e2e ${R.rate.E}×${R.rate.P} at ${fmt(R.rate.E * S.rate)}/s${RATE_PROCESSES > 1 ? `, ${RATE_PROCESSES} processes` : ''}`;
    row(
      part,
      `accepted commands/s; p50 / p95 / p99 ms (${fmt(rr.seconds)} s)`,
      `${fmt(rr.acceptedPerSec)}; ${ms(rr.latency.p50)} / ${ms(rr.latency.p95)} / ${ms(rr.latency.p99)}`,
      '',
      '',
      '',
      '',
      'p99 ≤ 25 ms',
      yes(rr.latency.p99 <= 25),
    );
    row(
      part,
      'server CPU µs/command (main thread); CPU %; commits/s; Postgres CPU µs/command',
      `${fmt(rr.serverCpuUsPerCommand)} (${fmt(rr.serverMainThreadCpuUsPerCommand)}); ${fmt(rr.serverCpuPercent)} %; ${fmt(rr.commitsPerSec)}; ${fmt(rr.databaseCpuUsPerCommand)}`,
    );
    row(
      part,
      'server RSS / heap per encounter',
      `${KB((rr.rssBytes - R.rate.baseline.rssBytes) / R.rate.E)} / ${KB((rr.heapUsedBytes - R.rate.baseline.heapUsedBytes) / R.rate.E)}`,
    );
    const sl = rr.serverLoopDelayMs;
    row(
      part,
      'event-loop delay p99 / max ms: server (last 10 s); generator (phase)',
      `${sl ? `${ms(sl.p99)} / ${ms(sl.max)}` : '–'}; ${ms(rr.loadgenLoopDelayMs.p99)} / ${ms(rr.loadgenLoopDelayMs.max)}`,
    );
    // the cores are shared: a runnable event loop that waits for one is late (Session 14)
    row(
      part,
      'share of the phase the event loop waited for a core: server; generator',
      `${fmt(rr.runQueueWaitPercent.server)} %; ${fmt(rr.runQueueWaitPercent.generator)} %`,
    );
    // a kernel thread that takes a core in bursts (DAMON's kdamond on some VMs) sets the tail (Session 16)
    row(part, "the rest of the machine's CPU in the phase, % of one core (largest)", describeOtherCpu(rr.otherCpu));
    // one full GC of the server in the phase makes most of its late commands (docs/journal/performance-2026-11.md, Session 13)
    if (rr.serverGc)
      row(
        part,
        "the server's garbage collections in the phase: full GCs; scavenges",
        `${fmt(rr.serverGc.fullGcs)}; ${fmt(rr.serverGc.scavenges)}`,
      );
    // a Postgres checkpoint in the phase slows its commits (docs/journal/performance-2026-11.md, Session 14)
    if (rr.checkpoints !== null)
      row(part, 'Postgres checkpoints begun in the phase (one ran just before the server started)', fmt(rr.checkpoints));
  }
}
