/** The capacity part's block of docs/performance-capacity.md (between the bench-capacity markers): the steps, memory, the churn, the sizing guide. */
import { cpus, totalmem } from 'node:os';
import type { CapacityResult, CapacityStep } from './capacity/run.js';
import { sizing } from './capacity/logic.js';
import { KB, ms, yes } from './report-common.js';
import { fmt } from './stats.js';

const MB = (x: number) => `${fmt(x / 2 ** 20)} MB`;

function loadTable(r: CapacityResult): string[] {
  const row = (s: CapacityStep) => {
    const gens = s.generators;
    const genCpu = gens.map((g) => fmt(g.cpuPercent)).join(' / ');
    const genLoop = `${ms(Math.max(...gens.map((g) => g.loopDelayMs.p99)))} / ${ms(Math.max(...gens.map((g) => g.loopDelayMs.max)))}`;
    const malformed = `${fmt(s.malformed.typed)} / ${fmt(s.malformed.sent)}${
      Object.keys(s.malformed.other).length
        ? ` (${Object.entries(s.malformed.other)
            .map(([k, v]) => `${k} ${fmt(v)}`)
            .join(', ')})`
        : ''
    }`;
    const refused = Object.values(s.refused).reduce((a, b) => a + b, 0);
    return `| ${fmt(s.E)} | ${fmt(s.sockets)} | ${fmt(s.commandsPerSec)} | ${ms(s.latency.p50)} / ${ms(s.latency.p99)} | ${yes(s.latency.p99 <= 50)} | ${fmt(s.undelivered)} / ${fmt(refused)} | ${malformed} | ${fmt(s.serverCpuPercent)} % | ${ms(s.loopDelayMs.p99)} / ${ms(s.loopDelayMs.max)} | ${ms(s.gc.maxMs)} / ${fmt(s.gc.over)} / ${fmt(s.gc.full)} | ${fmt(s.commitsPerSec)} (${fmt(s.entriesPerCommit, 1)}) | ${genCpu} % | ${genLoop} |`;
  };
  return [
    '| live encounters | sockets joined | commands/s | p50 / p99 ms | p99 ≤ 50 ms | undelivered / refused | malformed typed / sent | server CPU | event-loop delay p99 / max ms | GC longest pause ms / pauses over 50 ms / full GCs | commits/s (entries each) | generators CPU (each) | generators loop delay p99 / max ms |',
    '| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.steps.map(row),
  ];
}

function memoryTable(r: CapacityResult): string[] {
  const row = (s: CapacityStep) => {
    const rss = s.rest.rssBytes - r.base.rssBytes;
    const heap = s.rest.heapBytes - r.base.heapBytes;
    const fl = r.floor.find((f) => f.E === s.E);
    const floorPerSocket = fl ? (fl.rssBytes - r.floorBaseRssBytes) / fl.sockets : NaN;
    // the target: within 2× of the floor's memory for the same five sockets plus the encounter's idle heap
    const bound = 2 * (5 * floorPerSocket + heap / s.E);
    const underLoad = `${KB((s.rssBytes - r.base.rssBytes) / s.E)} / ${KB((s.heapBytes - r.base.heapBytes) / s.E)}`;
    return `| ${fmt(s.E)} | ${MB(s.rest.rssBytes)} / ${MB(s.rest.heapBytes)} | ${KB(rss / s.E)} / ${KB(heap / s.E)} | ${KB(rss / (s.E * 5))} / ${KB(heap / (s.E * 5))} | ${underLoad} | ${fl ? `${KB(floorPerSocket)} (p99 ${ms(fl.latency.p99)} ms)` : '–'} | ${fl ? `${KB(bound)}: ${yes(rss / s.E <= bound)}` : '–'} |`;
  };
  return [
    '| live encounters | server at rest: RSS / live heap | per encounter at rest: RSS / heap (over the empty server) | per socket at rest: RSS / heap | per encounter under load: RSS / heap | socket.io floor at rest: RSS per socket (its p99 in the phase) | bound: 2 × (the floor’s 5 sockets + the heap per encounter) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.steps.map(row),
  ];
}

function churnLines(r: CapacityResult): string[] {
  const c = r.churn;
  if (!c) return [];
  const back = c.after.sockets === c.before.sockets && c.after.heapBytes <= c.before.heapBytes * 1.05;
  return [
    `**Reconnecting clients** (at ${fmt(r.steps[0]?.E)} encounters, under the same load): ${c.clients} clients connected, joined, stayed 0.5 s and left, ${fmt(c.cycles)} times in ${c.seconds} s (${fmt(c.failures)} failed). ` +
      `At rest before: ${fmt(c.before.sockets)} sockets joined, live heap ${MB(c.before.heapBytes)}, RSS ${MB(c.before.rssBytes)}; ` +
      `at rest ${c.after.afterSeconds} s after they stopped: ${fmt(c.after.sockets)} sockets, live heap ${MB(c.after.heapBytes)}, RSS ${MB(c.after.rssBytes)} ` +
      `(sockets joined every 5 s after: ${c.samples.map((x) => fmt(x.sockets)).join(', ')}): ${back ? 'back to the same level' : '**not back to the same level**'} (the same sockets, the heap within 5 %).`,
  ];
}

function sizingLine(r: CapacityResult): string {
  const passed = r.steps.filter((s) => s.latency.p99 <= 50 && !s.stop);
  const top = passed.at(-1);
  if (!top) return 'Sizing: no step met p99 ≤ 50 ms.';
  const memory = totalmem();
  const g = sizing({
    passedE: top.E,
    baseRssBytes: r.base.rssBytes,
    rssPerEncounterBytes: (top.rssBytes - r.base.rssBytes) / top.E,
    memoryBytes: memory,
  });
  return `**Sizing guide:** a host with ${cpus().length} cores and ${fmt(memory / 2 ** 30)} GB carries about **${fmt(g.tables)} tables** at this pace (5 clients each, a command every 10 s), set by ${g.by === 'latency' ? `the latency (the largest step measured within p99 ≤ 50 ms${top === r.steps.at(-1) && !top.stop ? '; no larger one was measured' : ''})` : 'the memory (three quarters of it for the server, at the RSS per encounter under load above)'}.`;
}

export function capacitySection(r: CapacityResult, when: string): string {
  const stop = r.steps.at(-1)?.stop;
  return [
    `${when}; one Fray process on real Postgres, ${r.generators} generator processes of lean sockets on the same machine; each step: ${r.settleSeconds} s to settle, then ${r.seconds} s measured; 1 % malformed commands.${stop ? ` The run stopped after ${fmt(r.steps.at(-1)?.E)} encounters: ${stop}.` : ''}${r.notRun ? ` ${r.notRun}.` : ''}`,
    '',
    ...loadTable(r),
    '',
    ...memoryTable(r),
    '',
    ...churnLines(r),
    '',
    sizingLine(r),
  ].join('\n');
}
