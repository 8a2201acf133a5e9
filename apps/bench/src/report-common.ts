/** What the bench's table rows share (report.ts, report-e2e.ts, report-capacity.ts): number formats and the row's shape. */
import type { LoadResult, PhaseResult } from './load/types.js';
import { fmt } from './stats.js';

export const ms = (x: number | undefined) => fmt(x, x !== undefined && x < 10 ? 2 : 1);
export const KB = (x: number) => `${fmt(x / 1024, 1)} KB`;
export const phaseOf = (r: LoadResult | undefined, name: string): PhaseResult | undefined => r?.phases.find((p) => p.name === name);
/** the note on a phase's latency when some of its commands waited out the server's rate limit */
export const heldBack = (p: PhaseResult): string =>
  p.heldBack > 0 ? ` (${fmt(p.heldBack)} commands held back by the rate limit, 100 ms each)` : '';
export const yes = (b: boolean | undefined) => (b === undefined ? '–' : b ? 'met' : '**missed**');

/** Adds one row of the table: part, figure, Fray, then boardgame.io, the floor, the two ratios, the target and whether it was met. */
export type Row = (
  part: string,
  what: string,
  fray: string,
  bgio?: string,
  floor?: string,
  vsBgio?: string,
  vsFloor?: string,
  target?: string,
  met?: string,
) => void;
