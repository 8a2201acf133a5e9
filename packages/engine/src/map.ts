/**
 * The battle map's layout for rulesets on a grid: its size and its walls, set by the GM with the
 * logged `map.set` command and kept in `state.options.map`, so a replay rebuilds it and every
 * viewer draws the same map. A ruleset says which space it lives in with `Ruleset.space`.
 */
import { z } from 'zod';
import { commandSchema } from './schemas.js';
import { defineCommand } from './kit.js';
import type { Command, CommandSpec, Ctx, EncounterState, Ruleset } from './types.js';

const coord = z.number().int().min(-10_000).max(10_000);
const square = z.object({ x: coord, y: coord }).strict();
const hex = z.object({ q: coord, r: coord }).strict();

/** What `map.set` takes: the grid is `width` × `height` cells from `origin`; walls are cells no one may enter. */
export function mapLayoutSchema(kind: 'squares' | 'hexes') {
  const cell = kind === 'squares' ? square : hex;
  return z
    .object({
      width: z.number().int().min(1).max(200),
      height: z.number().int().min(1).max(200),
      /** the top-left cell (squares: x, y; hexes: the odd-r offset column and row as q, r) */
      origin: cell.optional(),
      walls: z.array(cell).max(4000).default([]),
    })
    .strict();
}
export interface MapLayout {
  width: number;
  height: number;
  origin?: { x: number; y: number } | { q: number; r: number };
  walls: Array<{ x: number; y: number } | { q: number; r: number }>;
}

/** The map of a state, when the GM set one. */
export function mapOf(state: EncounterState<unknown>): MapLayout | null {
  const m = state.options.map;
  // set only by `map.set`, whose schema gave it this shape
  return m && typeof m === 'object' ? (m as MapLayout) : null;
}

/** Column and row of a cell in the map's rectangle (hexes: pointy-top, odd rows shifted right: "odd-r"). */
export function cellColRow(kind: 'squares' | 'hexes', p: { x?: number; y?: number; q?: number; r?: number }): { col: number; row: number } {
  if (kind === 'squares') return { col: p.x!, row: p.y! };
  const row = p.r!;
  return { col: p.q! + (row - (row & 1)) / 2, row };
}

/** Whether a cell lies inside the map's rectangle. */
export function onMap(kind: 'squares' | 'hexes', m: MapLayout, p: { x?: number; y?: number; q?: number; r?: number }): boolean {
  const o = m.origin ? cellColRow(kind, m.origin) : { col: 0, row: 0 };
  const { col, row } = cellColRow(kind, p);
  return col >= o.col && col < o.col + m.width && row >= o.row && row < o.row + m.height;
}

const cellKey = (p: unknown): string | null => {
  if (!p || typeof p !== 'object') return null;
  const o: { x?: unknown; y?: unknown; q?: unknown; r?: unknown } = p;
  if (typeof o.x === 'number' && typeof o.y === 'number') return `${o.x},${o.y}`;
  if (typeof o.q === 'number' && typeof o.r === 'number') return `${o.q},${o.r}`;
  return null;
};

/** The `map.set` command (GM only, at any time; refused for rulesets without a grid). */
export function mapCommands(ruleset: Ruleset): Record<string, CommandSpec> {
  const kind = ruleset.space?.kind;
  if (kind !== 'squares' && kind !== 'hexes') return {};
  const schema = commandSchema('map.set', { map: mapLayoutSchema(kind) });
  return {
    'map.set': defineCommand<unknown, Record<string, unknown>, typeof schema>({
      actor: 'gm',
      duringReaction: true,
      inSetup: true,
      afterEnd: true,
      schema,
      handle(ctx, cmd) {
        const map: MapLayout = cmd.map;
        ctx.emit({ type: 'map.changed', map });
      },
    }),
  };
}

/**
 * "A wall blocks it", "off the map": refuse a command that puts a combatant on a wall or off the
 * map, or whose `path` (or `to`) crosses one. Only when the GM set a map on a grid ruleset.
 */
export function checkMapAfter(ruleset: Ruleset, before: EncounterState<unknown>, ctx: Ctx<unknown>, cmd: Command): void {
  const kind = ruleset.space?.kind;
  if ((kind !== 'squares' && kind !== 'hexes') || cmd.type === 'map.set') return;
  const m = mapOf(ctx.state);
  if (!m) return;
  const walls = new Set(m.walls.map((w) => cellKey(w)));
  const check = (p: unknown, who: string) => {
    const k = cellKey(p);
    if (k === null) return;
    if (walls.has(k)) ctx.fail('ILLEGAL_ACTION', 'map.walls', `A wall stands at ${k}: ${who} cannot go there.`);
    if (!onMap(kind, m, p as { x: number }))
      ctx.fail('ILLEGAL_ACTION', 'map.bounds', `${k} is off the map (${m.width} × ${m.height}): ${who} cannot go there.`);
  };
  const mover = typeof cmd.combatantId === 'string' ? (ctx.state.combatants[cmd.combatantId]?.name ?? 'the combatant') : 'the combatant';
  if (Array.isArray(cmd.path)) for (const p of cmd.path) check(p, mover);
  if (cmd.to !== undefined) check(cmd.to, mover);
  for (const [id, c] of Object.entries(ctx.state.combatants)) {
    const was = before.combatants[id];
    if (c.position !== null && (!was || was.position !== c.position) && cellKey(c.position) !== cellKey(was?.position))
      check(c.position, c.name);
  }
}
