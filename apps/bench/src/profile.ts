/** Summary of a V8 .cpuprofile (node --cpu-prof): self time by area (package) and by function. */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  /** µs between consecutive samples (the first from startTime) */
  timeDeltas?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  areas: Array<{ name: string; percent: number }>;
  functions: Array<{ name: string; percent: number }>;
}

/** Which package or part of the runtime a script URL belongs to. */
export function areaOf(url: string, name: string): string {
  if (!url) {
    if (name === '(garbage collector)') return 'garbage collection';
    if (name === '(program)') return 'V8 (program)';
    if (name === '(idle)') return 'idle';
    return 'native bindings (socket writes, microtasks…)';
  }
  if (url.startsWith('node:')) return 'Node internals (net, streams, timers…)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (m) return `@fray/${m[2]}`;
  return 'other';
}

/**
 * Self time by area and by function. `window` (ms from the profile's start) keeps only the samples
 * taken in it, e.g. the load phase without the process's start and the bench's setup.
 */
export function summarizeProfile(p: CpuProfile, top = 20, window?: { fromMs: number; toMs: number }): ProfileSummary {
  const hits = new Map<number, number>();
  let kept = 0;
  if (p.samples) {
    let t = 0;
    for (const [i, s] of p.samples.entries()) {
      t += (p.timeDeltas?.[i] ?? 0) / 1000;
      if (window && (t < window.fromMs || t > window.toMs)) continue;
      hits.set(s, (hits.get(s) ?? 0) + 1);
      kept += 1;
    }
  } else for (const n of p.nodes) hits.set(n.id, n.hitCount ?? 0);
  let total = 0;
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const n of p.nodes) {
    const h = hits.get(n.id) ?? 0;
    if (!h) continue;
    const area = areaOf(n.callFrame.url, n.callFrame.functionName);
    if (area === 'idle') continue;
    total += h;
    areas.set(area, (areas.get(area) ?? 0) + h);
    const file = n.callFrame.url ? n.callFrame.url.replace(/^.*\/(node_modules|packages|apps)\//, '') : '';
    const key = `${n.callFrame.functionName || '(anonymous)'}${file ? ` (${file}:${n.callFrame.lineNumber + 1})` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + h);
  }
  const pct = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, h]) => ({ name, percent: total ? (h / total) * 100 : 0 }));
  const allSamples = p.samples ? kept : [...hits.values()].reduce((a, b) => a + b, 0);
  const spanMs = window ? window.toMs - window.fromMs : (p.endTime - p.startTime) / 1000;
  const busyMs = allSamples ? spanMs * (total / allSamples) : 0;
  return { totalMs: busyMs, areas: pct(areas, 12), functions: pct(fns, top) };
}
