/**
 * Drawing geometry for the battle map: where a square or hex cell sits on the page, the map's
 * rectangle, and cell keys. Pure layout, no rules: what is legal comes from the server (`reach`).
 */
import { isRecord } from './guards.js';
import type { EncounterState } from './types.js';

export type GridKind = 'squares' | 'hexes';
export type Cell = { x: number; y: number } | { q: number; r: number };
export interface MapLayout {
  width: number;
  height: number;
  origin?: Cell;
  walls: Cell[];
}

export const SQUARE = 40;
export const HEX = 23;
const SQRT3 = Math.sqrt(3);

export function isCell(p: unknown): p is Cell {
  if (!isRecord(p)) return false;
  return (typeof p.x === 'number' && typeof p.y === 'number') || (typeof p.q === 'number' && typeof p.r === 'number');
}

export const cellKey = (p: Cell): string => ('x' in p ? `${p.x},${p.y}` : `${p.q},${p.r}`);

/** The centre of a cell in map units. Hexes are pointy-top, axial coordinates. */
export function centre(kind: GridKind, p: Cell): { cx: number; cy: number } {
  // (the kind of the map says which coordinates a cell has)
  if (kind === 'squares' && 'x' in p) return { cx: p.x * SQUARE + SQUARE / 2, cy: p.y * SQUARE + SQUARE / 2 };
  if ('q' in p) return { cx: HEX * SQRT3 * (p.q + p.r / 2), cy: HEX * 1.5 * p.r };
  return { cx: p.x * SQUARE + SQUARE / 2, cy: p.y * SQUARE + SQUARE / 2 };
}

/** The polygon points of a hex cell. */
export function hexPoints(cx: number, cy: number, size = HEX): string {
  const pts: string[] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

/** A cell from its column and row in the map's rectangle (hexes: "odd-r" offset rows). */
export function fromColRow(kind: GridKind, col: number, row: number): Cell {
  if (kind === 'squares') return { x: col, y: row };
  return { q: col - (row - (row & 1)) / 2, r: row };
}
export function toColRow(kind: GridKind, p: Cell): { col: number; row: number } {
  if (kind === 'squares' && 'x' in p) return { col: p.x, row: p.y };
  if ('q' in p) return { col: p.q + (p.r - (p.r & 1)) / 2, row: p.r };
  return { col: p.x, row: p.y };
}

/** The map the GM set (`map.set`, kept in the encounter's options), if any. */
export function mapOf(state: EncounterState): MapLayout | null {
  const m = isRecord(state.options) ? state.options.map : undefined;
  if (!isRecord(m) || typeof m.width !== 'number' || typeof m.height !== 'number') return null;
  return {
    width: m.width,
    height: m.height,
    ...(isCell(m.origin) ? { origin: m.origin } : {}),
    walls: Array.isArray(m.walls) ? m.walls.filter(isCell) : [],
  };
}

/**
 * The rectangle to draw: the GM's map, or, before the GM sets one, the smallest one around every
 * token (and the given extra cells) with a margin of 3, at least 10 × 10.
 */
export function drawnRect(
  kind: GridKind,
  state: EncounterState,
  extra: Cell[] = [],
): { col0: number; row0: number; cols: number; rows: number; set: boolean } {
  const m = mapOf(state);
  if (m) {
    const o = m.origin ? toColRow(kind, m.origin) : { col: 0, row: 0 };
    return { col0: o.col, row0: o.row, cols: m.width, rows: m.height, set: true };
  }
  const cells = [
    ...Object.values(state.combatants)
      .map((c) => c.position)
      .filter(isCell),
    ...extra,
  ].map((p) => toColRow(kind, p));
  if (cells.length === 0) return { col0: 0, row0: 0, cols: 10, rows: 10, set: false };
  let c0 = Math.min(...cells.map((c) => c.col)) - 3;
  let r0 = Math.min(...cells.map((c) => c.row)) - 3;
  let cols = Math.max(...cells.map((c) => c.col)) + 4 - c0;
  let rows = Math.max(...cells.map((c) => c.row)) + 4 - r0;
  if (cols < 10) {
    c0 -= Math.floor((10 - cols) / 2);
    cols = 10;
  }
  if (rows < 10) {
    r0 -= Math.floor((10 - rows) / 2);
    rows = 10;
  }
  return { col0: c0, row0: r0, cols: Math.min(cols, 80), rows: Math.min(rows, 80), set: false };
}

/** Every cell of the rectangle, row by row. */
export function cellsOf(kind: GridKind, r: { col0: number; row0: number; cols: number; rows: number }): Cell[] {
  const out: Cell[] = [];
  for (let row = r.row0; row < r.row0 + r.rows; row++)
    for (let col = r.col0; col < r.col0 + r.cols; col++) out.push(fromColRow(kind, col, row));
  return out;
}

/** The map-unit box that holds the rectangle. */
export function boxOf(
  kind: GridKind,
  r: { col0: number; row0: number; cols: number; rows: number },
): { x: number; y: number; w: number; h: number } {
  if (kind === 'squares') return { x: r.col0 * SQUARE, y: r.row0 * SQUARE, w: r.cols * SQUARE, h: r.rows * SQUARE };
  const w = HEX * SQRT3;
  const a = centre(kind, fromColRow(kind, r.col0, r.row0));
  return { x: a.cx - w / 2 - (r.row0 & 1 ? w / 2 : 0), y: a.cy - HEX, w: (r.cols + 0.5) * w, h: (r.rows - 1) * HEX * 1.5 + 2 * HEX };
}

/** A short, human name for a cell: "column 3, row 2" (squares), "hex 3, 2". */
export function cellName(kind: GridKind, p: Cell): string {
  const { col, row } = toColRow(kind, p);
  return kind === 'squares' ? `square ${col}, ${row}` : `hex ${col}, ${row}`;
}

/** A side's colour: a fixed palette picked by the side's name, so every screen agrees. */
export function sideColour(side: string): string {
  const palette = ['#2f6fde', '#c23b3b', '#2e9d5b', '#a05ad6', '#d48a12', '#17869e', '#b5467f', '#6b7a2b'];
  let h = 0;
  for (const ch of side) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return palette[h % palette.length]!;
}
