import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  boxOf,
  cellKey,
  cellName,
  cellsOf,
  centre,
  drawnRect,
  hexPoints,
  isCell,
  mapOf,
  SQUARE,
  HEX,
  type Cell,
  type GridKind,
} from '../lib/geometry.js';
import { at as valueAt, isRecord } from '../lib/guards.js';
import { usePanZoom } from '../lib/usePanZoom.js';
import type { EncounterState } from '../lib/types.js';
import { Token, tokenVitals, type BattleMapProps, type ReachTarget } from './map-tokens.js';

type Box = { x: number; y: number; w: number; h: number };

/** The middle of a window of `w` × `h` that holds `cs` when they fit, else centred on the first ones (`keep`). */
function windowOn(cs: Array<{ cx: number; cy: number }>, keep: number, w: number, h: number): { cx: number; cy: number } {
  const span = (pts: typeof cs) => {
    const xs = pts.map((c) => c.cx);
    const ys = pts.map((c) => c.cy);
    return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
  };
  const margin = SQUARE;
  for (const pts of [cs, cs.slice(0, keep)]) {
    const b = span(pts);
    if (pts.length > 0 && b.x1 - b.x0 + 2 * margin <= w && b.y1 - b.y0 + 2 * margin <= h)
      return { cx: (b.x0 + b.x1) / 2, cy: (b.y0 + b.y1) / 2 };
  }
  return cs[0]!;
}

/**
 * The first view: the whole map, unless that makes a cell smaller than a fingertip (about 34 px) on
 * this screen; then a window of that scale holding every token when they fit, else whoever acts
 * and the viewer's own (or the acting one alone).
 */
function fitView(kind: GridKind, state: EncounterState, whole: Box, isMine: (id: string) => boolean): Box {
  const screen = typeof window === 'undefined' ? 1000 : Math.max(200, Math.min(window.innerWidth - 40, 1200));
  const maxW = (screen * (kind === 'squares' ? SQUARE : HEX * Math.sqrt(3))) / 34;
  if (whole.w <= maxW) return whole;
  const placed = Object.values(state.combatants).flatMap((c) => (isCell(c.position) ? [{ id: c.id, at: c.position }] : []));
  if (placed.length === 0) return whole;
  const acting = state.clock.current;
  // first whoever acts, then the viewer's own, then the others
  const rank = (id: string) => (id === acting ? 0 : isMine(id) ? 1 : 2);
  const ordered = [...placed].sort((x, y) => rank(x.id) - rank(y.id));
  const keep = ordered.filter((c) => rank(c.id) < 2).length || ordered.length;
  // the map's box is 52 % of the screen's height on a phone, 62 % (at most 560 px) elsewhere (styles/02-map.css)
  const tall =
    typeof window === 'undefined' ? 560 : window.innerWidth <= 600 ? 0.52 * window.innerHeight : Math.min(0.62 * window.innerHeight, 560);
  const h = (maxW * tall) / screen;
  const c = windowOn(
    ordered.map((x) => centre(kind, x.at)),
    keep,
    maxW,
    h,
  );
  return { x: c.cx - maxW / 2, y: c.cy - h / 2, w: maxW, h };
}

/** The ruleset's terrain layers (`space.terrain`): layer name → the keys of its cells. */
function terrainOf(state: EncounterState, path: string | undefined): Array<[string, Set<string>]> {
  if (!path) return [];
  const layers = valueAt(state, path);
  if (!isRecord(layers)) return [];
  return Object.entries(layers).flatMap(([name, v]): Array<[string, Set<string>]> =>
    Array.isArray(v) && v.length > 0 ? [[name, new Set(v.map(String))]] : [],
  );
}

/** Which cell a point in map units falls in. */
function cellAt(kind: GridKind, x: number, y: number): Cell {
  if (kind === 'squares') return { x: Math.floor(x / SQUARE), y: Math.floor(y / SQUARE) };
  const q = ((Math.sqrt(3) / 3) * x - y / 3) / HEX;
  const r = ((2 / 3) * y) / HEX;
  const s = -q - r;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  if (Math.abs(rq - q) > Math.abs(rr - r) && Math.abs(rq - q) > Math.abs(rs - s)) rq = -rr - rs;
  else if (Math.abs(rr - r) > Math.abs(rs - s)) rr = -rq - rs;
  return { q: rq, r: rr };
}

type GridProps = BattleMapProps & { kind: GridKind; children?: ReactNode };
type Drag = { id: string; startX: number; startY: number; moved: boolean };
type PanZoom = ReturnType<typeof usePanZoom>;

/** A token pressed and moved more than a few pixels is dragged (GM: dropped on a cell, a placement); a press without travel is a tap. */
function useTokenDrag(pz: PanZoom, kind: GridKind, onDrop: GridProps['onDrop']) {
  const [drag, setDrag] = useState<{ id: string; x: number; y: number } | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const toMap = (clientX: number, clientY: number) => {
    const svg = pz.svg.current;
    const m = svg?.getScreenCTM();
    if (!svg || !m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  };
  const onPointerMove = (e: React.PointerEvent<SVGSVGElement>) => {
    const d = dragRef.current;
    if (d) {
      const p = toMap(e.clientX, e.clientY);
      if (p && (d.moved || Math.abs(e.clientX - d.startX) + Math.abs(e.clientY - d.startY) > 6)) {
        if (!d.moved) pz.svg.current?.setPointerCapture(e.pointerId);
        d.moved = true;
        setDrag({ id: d.id, x: p.x, y: p.y });
      }
      return;
    }
    pz.handlers.onPointerMove(e);
  };
  const onPointerUp = (e: React.PointerEvent<SVGSVGElement>) => {
    const d = dragRef.current;
    // a press without travel is a tap: the token's click handler runs next
    if (d && !d.moved) return;
    dragRef.current = null;
    if (d?.moved && onDrop) {
      const p = toMap(e.clientX, e.clientY);
      setDrag(null);
      if (p) onDrop(d.id, cellAt(kind, p.x, p.y));
      return;
    }
    setDrag(null);
    pz.handlers.onPointerUp(e);
  };
  return { drag, dragRef, onPointerMove, onPointerUp };
}

/** Every cell of the drawn rectangle: walls, terrain, the reachable ones (and those that provoke), the chosen and the refused one. */
function Cells({ props, rect, pz }: { props: GridProps; rect: ReturnType<typeof drawnRect>; pz: PanZoom }) {
  const { state, kind, marks, onCell } = props;
  const walls = new Set((mapOf(state)?.walls ?? []).map(cellKey));
  const terrain = terrainOf(state, props.space.terrain);
  const reach = new Map<string, ReachTarget>(
    (marks.reach?.reachable ?? []).flatMap((t) => (isCell(t.to) ? [[cellKey(t.to), t] as const] : [])),
  );
  return (
    <g className="cells">
      {cellsOf(kind, rect).map((cell) => {
        const k = cellKey(cell);
        const { cx, cy } = centre(kind, cell);
        const t = reach.get(k);
        const layers = terrain.filter(([, keys]) => keys.has(k)).map(([name]) => name);
        const cls = `cell${walls.has(k) ? ' wall' : ''}${layers.map((n) => ` terrain-${n}`).join('')}${t ? (t.provokes ? ' reach provoke' : ' reach') : ''}${marks.chosen && isCell(marks.chosen.to) && cellKey(marks.chosen.to) === k ? ' chosen' : ''}${marks.refusedAt && cellKey(marks.refusedAt) === k ? ' refused' : ''}`;
        const tap = () => {
          if (!pz.moved()) onCell(cell);
        };
        const title =
          cellName(kind, cell) +
          (walls.has(k) ? ' (wall)' : '') +
          (layers.length ? ` (${layers.join(', ')})` : '') +
          (t ? ` — ${t.steps} step${t.steps === 1 ? '' : 's'}${t.provokes ? ', provokes' : ''}` : '');
        return kind === 'squares' ? (
          <rect key={k} data-cell={k} x={cx - SQUARE / 2} y={cy - SQUARE / 2} width={SQUARE} height={SQUARE} className={cls} onClick={tap}>
            <title>{title}</title>
          </rect>
        ) : (
          <polygon key={k} data-cell={k} points={hexPoints(cx, cy)} className={cls} onClick={tap}>
            <title>{title}</title>
          </polygon>
        );
      })}
    </g>
  );
}

/** The chosen path, step by step, and a "!" where it provokes. */
function PathMarks({ kind, marks, tokenR }: { kind: GridKind; marks: GridProps['marks']; tokenR: number }) {
  const path = marks.chosen?.path?.filter(isCell) ?? [];
  const from = isCell(marks.reach?.from) ? marks.reach.from : null;
  const prov = marks.chosen?.provokes;
  const provCell = prov ? (prov.at === 0 ? from : (path[prov.at - 1] ?? null)) : null;
  const pc = provCell ? centre(kind, provCell) : null;
  return (
    <>
      {path.length > 0 && from ? (
        <g className="path" aria-hidden="true">
          <polyline
            points={[from, ...path]
              .map((p) => {
                const c = centre(kind, p);
                return `${c.cx},${c.cy}`;
              })
              .join(' ')}
            className="path-line"
          />
          {path.map((p, i) => {
            const c = centre(kind, p);
            return (
              <text key={i} x={c.cx} y={c.cy - (kind === 'squares' ? 8 : 7)} className="path-step">
                {i + 1}
              </text>
            );
          })}
        </g>
      ) : null}
      {pc ? (
        <g className="provoke-mark" aria-hidden="true">
          <circle cx={pc.cx} cy={pc.cy - tokenR - 8} r={8} className="provoke-dot" />
          <text x={pc.cx} y={pc.cy - tokenR - 4.5} className="provoke-text">
            !
          </text>
        </g>
      ) : null}
    </>
  );
}

/** The tokens on the map (a dragged one follows the pointer). */
function Tokens({ props, tokenR, d }: { props: GridProps; tokenR: number; d: ReturnType<typeof useTokenDrag> }) {
  const { state, kind, selected, highlight, isMine, onToken, onDrop } = props;
  return (
    <g className="tokens">
      {Object.values(state.combatants).map((c) => {
        if (!isCell(c.position)) return null;
        const at = d.drag?.id === c.id ? { cx: d.drag.x, cy: d.drag.y } : centre(kind, c.position);
        const down = (e: React.PointerEvent<SVGGElement>) => {
          e.stopPropagation();
          d.dragRef.current = { id: c.id, startX: e.clientX, startY: e.clientY, moved: false };
        };
        const click = () => {
          const was = d.dragRef.current;
          d.dragRef.current = null;
          if (!was?.moved) onToken(c.id);
        };
        return (
          <Token
            key={c.id}
            state={state}
            c={c}
            cx={at.cx}
            cy={at.cy}
            r={tokenR}
            mine={isMine(c.id)}
            selected={selected === c.id}
            highlight={highlight === c.id}
            vitals={tokenVitals(props, c)}
            onPointerDown={onDrop ? down : undefined}
            onClick={click}
          />
        );
      })}
    </g>
  );
}

function Unplaced({ props }: { props: GridProps }) {
  const { selected, onToken } = props;
  const unplaced = Object.values(props.state.combatants).filter((c) => !isCell(c.position));
  if (!unplaced.length) return null;
  return (
    <p className="map-unplaced">
      Not on the map:{' '}
      {unplaced.map((c) => (
        <button
          key={c.id}
          type="button"
          data-token={c.id}
          aria-pressed={selected === c.id}
          className={selected === c.id ? 'selected' : ''}
          onClick={() => onToken(c.id)}
        >
          {c.name}
        </button>
      ))}
    </p>
  );
}

function ZoomButtons({ pz }: { pz: PanZoom }) {
  return (
    <div className="map-zoom" role="group" aria-label="Zoom">
      <button type="button" onClick={pz.zoomIn} aria-label="Zoom in">
        +
      </button>
      <button type="button" onClick={pz.zoomOut} aria-label="Zoom out">
        −
      </button>
      <button type="button" onClick={pz.reset} aria-label="Fit the map">
        ⤢
      </button>
    </div>
  );
}

/** A square or hex grid: cells, the chosen path, tokens; pan and zoom; the GM drags tokens. */
export function GridBoard(props: GridProps) {
  const { state, kind, marks } = props;
  const extra = useMemo(() => (marks.reach ? marks.reach.reachable.map((t) => t.to).filter(isCell) : []), [marks.reach]);
  const rect = drawnRect(kind, state, extra);
  const box = boxOf(kind, rect);
  const pad = 24;
  const pz = usePanZoom(fitView(kind, state, { x: box.x - pad, y: box.y - pad, w: box.w + 2 * pad, h: box.h + 2 * pad }, props.isMine));
  // a token appears, goes or moves: the view fits again (a pan or zoom of the viewer's lasts until then)
  const placedKey = Object.values(state.combatants)
    .flatMap((c) => (isCell(c.position) ? [`${c.id}@${cellKey(c.position)}`] : []))
    .join(' ');
  const { reset } = pz;
  useEffect(() => reset(), [placedKey, reset]);
  const d = useTokenDrag(pz, kind, props.onDrop);
  const tokenR = kind === 'squares' ? 14 : 13;
  return (
    <div className="map-frame">
      <svg
        ref={pz.svg}
        className={`battle-map${props.walls ? ' editing-walls' : ''}`}
        viewBox={`${pz.view.x} ${pz.view.y} ${pz.view.w} ${pz.view.h}`}
        preserveAspectRatio="xMidYMid meet"
        role="application"
        aria-roledescription="battle map"
        aria-label={`${props.title}: drag or use the arrow keys to pan, + and − to zoom, 0 to fit. Tab to reach the tokens.`}
        tabIndex={0}
        {...pz.handlers}
        onPointerMove={d.onPointerMove}
        onPointerUp={d.onPointerUp}
      >
        <Cells props={props} rect={rect} pz={pz} />
        <PathMarks kind={kind} marks={marks} tokenR={tokenR} />
        <Tokens props={props} tokenR={tokenR} d={d} />
      </svg>
      <Unplaced props={props} />
      <ZoomButtons pz={pz} />
    </div>
  );
}
