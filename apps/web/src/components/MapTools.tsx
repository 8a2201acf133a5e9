import { useId, useState } from 'react';
import { cellKey, drawnRect, fromColRow, mapOf, toColRow, type Cell, type GridKind } from '../lib/geometry.js';
import type { Live } from '../lib/live.js';
import type { EncounterState } from '../lib/types.js';

/** The map as `map.set` takes it, from the current one (or the drawn rectangle before the GM set one). */
export function currentLayout(kind: GridKind, state: EncounterState): { width: number; height: number; origin: Cell; walls: Cell[] } {
  const m = mapOf(state);
  if (m) return { width: m.width, height: m.height, origin: m.origin ?? fromColRow(kind, 0, 0), walls: m.walls };
  const r = drawnRect(kind, state);
  return { width: r.cols, height: r.rows, origin: fromColRow(kind, r.col0, r.row0), walls: [] };
}

/** The layout with one wall added or taken away (a `map.set` command's `map`). */
export function toggledWall(kind: GridKind, state: EncounterState, cell: Cell) {
  const l = currentLayout(kind, state);
  const k = cellKey(cell);
  const walls = l.walls.some((w) => cellKey(w) === k) ? l.walls.filter((w) => cellKey(w) !== k) : [...l.walls, cell];
  return { ...l, walls };
}

/**
 * GM: the map's size and walls. Each change is one logged `map.set` command (replayed like any
 * other, and ordered by the server with the moves around it).
 */
export function MapTools({
  live,
  state,
  kind,
  editingWalls,
  setEditingWalls,
}: {
  live: Live;
  state: EncounterState;
  kind: GridKind;
  editingWalls: boolean;
  setEditingWalls: (on: boolean) => void;
}) {
  const base = useId();
  const l = currentLayout(kind, state);
  const o = toColRow(kind, l.origin);
  const [w, setW] = useState(String(l.width));
  const [h, setH] = useState(String(l.height));
  const [x, setX] = useState(String(o.col));
  const [y, setY] = useState(String(o.row));
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const unit = kind === 'hexes' ? 'hexes' : 'squares';
  return (
    <details className="map-tools">
      <summary>Map size and walls (GM){mapOf(state) ? '' : ' — not set yet: the map grows around the tokens'}</summary>
      <form
        className="row wrap"
        aria-label="Map size"
        onSubmit={async (e) => {
          e.preventDefault();
          const nums = [w, h, x, y].map(Number);
          if (nums.some((n) => !Number.isInteger(n)) || nums[0]! < 1 || nums[1]! < 1 || nums[0]! > 200 || nums[1]! > 200)
            return setMsg({ ok: false, text: `Width and height are whole numbers of ${unit} from 1 to 200; the corner is whole numbers.` });
          const r = await live.send({
            type: 'map.set',
            map: { ...l, width: nums[0], height: nums[1], origin: fromColRow(kind, nums[2]!, nums[3]!) },
          });
          setMsg(r.ok ? { ok: true, text: `Map set to ${nums[0]} × ${nums[1]} ${unit}.` } : { ok: false, text: r.error.message });
        }}
      >
        <label htmlFor={`${base}-w`}>Width</label>
        <input id={`${base}-w`} className="narrow" type="number" min={1} max={200} value={w} onChange={(e) => setW(e.target.value)} />
        <label htmlFor={`${base}-h`}>Height</label>
        <input id={`${base}-h`} className="narrow" type="number" min={1} max={200} value={h} onChange={(e) => setH(e.target.value)} />
        <label htmlFor={`${base}-x`}>Left column</label>
        <input id={`${base}-x`} className="narrow" type="number" value={x} onChange={(e) => setX(e.target.value)} />
        <label htmlFor={`${base}-y`}>Top row</label>
        <input id={`${base}-y`} className="narrow" type="number" value={y} onChange={(e) => setY(e.target.value)} />
        <button type="submit">Set map size</button>
      </form>
      <p>
        <button type="button" aria-pressed={editingWalls} onClick={() => setEditingWalls(!editingWalls)}>
          {editingWalls ? 'Done editing walls' : 'Edit walls'}
        </button>{' '}
        <span className="muted">
          {editingWalls ? `Tap ${unit} to add or remove a wall.` : `${l.walls.length} wall ${unit}. Walls block movement and placement.`}
        </span>
      </p>
      {msg ? (
        <p className={msg.ok ? 'ok' : 'field-error'} role={msg.ok ? 'status' : 'alert'}>
          {msg.text}
        </p>
      ) : null}
    </details>
  );
}
