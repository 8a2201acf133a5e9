/** Small numeric and table helpers shared by the bench processes (unit tested). */

/** The p-th percentile (0–100) of an ascending array, nearest rank; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))]!;
}

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: number[]): Summary {
  const s = Float64Array.from(samples).sort();
  let sum = 0;
  for (const x of s) sum += x;
  return {
    count: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : NaN,
    mean: s.length ? sum / s.length : NaN,
  };
}

/** a / b, or NaN when either is missing or b is 0 */
export function ratio(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return NaN;
  return a / b;
}

/** Formatting: thousands separators, fixed decimals, "–" for a missing value. */
export function fmt(x: number | undefined | null, digits = 0): string {
  if (x === undefined || x === null || !Number.isFinite(x)) return '–';
  return x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1.8×" style ratio, "–" when missing */
export function fmtRatio(x: number): string {
  if (!Number.isFinite(x)) return '–';
  return `${x.toFixed(x >= 10 ? 0 : 2)}×`;
}

/** A Markdown table (first column left-aligned, the others right-aligned), padded for a terminal. */
export function markdownTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${widths.map((w, i) => (i === 0 ? (r[i] ?? '').padEnd(w) : (r[i] ?? '').padStart(w))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => (i === 0 ? ':' + '-'.repeat(w + 1) : '-'.repeat(w + 1) + ':')).join('|')}|`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

/** Replace what lies between two marker lines of a document (the markers stay); append them when absent. */
export function replaceBetween(doc: string, begin: string, end: string, body: string): string {
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end, i < 0 ? 0 : i);
  if (i < 0 || j < 0) return `${doc.replace(/\s*$/, '\n')}\n${begin}\n${body.trim()}\n${end}\n`;
  return `${doc.slice(0, i + begin.length)}\n${body.trim()}\n${doc.slice(j)}`;
}

/** Which parts to run: BENCH_ONLY=engine,e2e,... (default: every part but `extra`). */
export function selectParts(only: string | undefined, all: readonly string[], defaults: readonly string[]): Set<string> {
  if (!only || only.trim() === '') return new Set(defaults);
  const want = only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = want.filter((w) => !all.includes(w));
  if (unknown.length) throw new Error(`BENCH_ONLY: unknown part(s) ${unknown.join(', ')}; known: ${all.join(', ')}`);
  return new Set(want);
}

/**
 * Why a load run's figures cannot stand when some encounters reached the end of their scripted
 * fight during a phase (they stop sending, so that phase and every later one run short of load),
 * or null when none did.
 */
export function scriptShortfall(phases: ReadonlyArray<{ name: string; scriptExhausted: number }>, scriptLength: number): string | null {
  const short = phases.filter((p) => p.scriptExhausted > 0);
  if (short.length === 0) return null;
  return `the scripted fights ran out (${scriptLength} commands each) in ${short.map((p) => `"${p.name}" (${p.scriptExhausted} encounters)`).join(', ')}: the figures would be wrong; raise the script length in apps/bench/src/main.ts`;
}
