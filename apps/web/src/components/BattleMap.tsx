import { useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { boxOf, cellKey, cellName, cellsOf, centre, drawnRect, hexPoints, isCell, mapOf, sideColour, SQUARE, HEX, type Cell, type GridKind } from '../lib/geometry.js';
import { usePanZoom } from '../lib/usePanZoom.js';
import type { ReachAnswer } from '../lib/live.js';
import type { Combatant, EncounterState } from '../lib/types.js';
import { vitalsOf, type RulesetDisplay, type VitalView } from '../lib/display.js';
import { ZoneBoard } from './ZoneBoard.js';

export type ReachOk = Extract<ReachAnswer, { ok: true }>;
export type ReachTarget = ReachOk['reachable'][number];

export interface MapMarks {
  reach: ReachOk | null;
  chosen: ReachTarget | null;
  /** cells the user tapped that the server refused: outlined */
  refusedAt: Cell | null;
}

export interface BattleMapProps {
  state: EncounterState;
  space: { kind: 'squares' | 'hexes' | 'zones'; zones?: string; terrain?: string };
  isMine: (id: string) => boolean;
  selected: string | null;
  /** the token a reaction window is about (drawn pulsing) */
  highlight: string | null;
  marks: MapMarks;
  onToken: (id: string) => void;
  onCell: (to: unknown) => void;
  /** GM only: a token dragged to a cell */
  onDrop?: ((id: string, to: Cell) => void) | undefined;
  walls?: boolean;
  /** GM: the selected token goes to the next place tapped (zones: a "Place here" button per zone) */
  placing?: string | null;
  title: string;
  /** the ruleset's display, for the vitals bars on tokens */
  display?: RulesetDisplay | undefined;
  /** whether the viewer sees a combatant's vitals as numbers (the GM, the controller) */
  numbers?: ((id: string) => boolean) | undefined;
}

/** The vitals a token shows: the ones with a bar, as this viewer may see them (at most two). */
export function tokenVitals(props: Pick<BattleMapProps, 'display' | 'numbers' | 'state'>, c: Combatant): VitalView[] {
  if (!props.display) return [];
  return vitalsOf(props.display, props.state, c, props.numbers?.(c.id) ?? false)
    .filter((v) => v.left !== null)
    .slice(0, 2);
}

/** A token's words with its vitals ("HP 7/12", or "HP: about half" for others). */
export function tokenLabel(state: EncounterState, c: Combatant, mine: boolean, vitals: VitalView[]): string {
  return [tokenWords(state, c, mine), ...vitals.map((v) => v.text)].join(' · ');
}

/** Thin bars under a token: what is left of each vital (the level colours of the vitals bars). */
function TokenBars({ id, vitals, cx, y, r }: { id: string; vitals: VitalView[]; cx: number; y: number; r: number }) {
  return (
    <>
      {vitals.map((v, i) => {
        const left = v.left ?? 0;
        const level = left > 0.6 ? 'ok' : left > 0.25 ? 'low' : 'bad';
        return (
          <g key={v.key} className="token-vital" data-testid={`token-vital-${id}-${v.key}`} data-left={Math.round(left * 100)}>
            <rect x={cx - r} y={y + i * 4.5} width={2 * r} height={3.5} rx={1.5} className="token-vital-bg" />
            <rect x={cx - r} y={y + i * 4.5} width={2 * r * left} height={3.5} rx={1.5} className={`token-vital-fill token-vital-${level}`} />
          </g>
        );
      })}
    </>
  );
}

export function conditionsOf(state: EncounterState, id: string): string[] {
  return state.effects.filter((e) => e.targetId === id).map((e) => e.condition ?? e.name);
}

/** Who a token is, in words (its label for screen readers and its tooltip). */
export function tokenWords(state: EncounterState, c: Combatant, mine: boolean): string {
  const parts = [c.name, `side ${c.side}`];
  if (state.clock.current === c.id) parts.push('acting now');
  if (mine) parts.push('yours');
  if (c.hidden) parts.push('hidden from players');
  const conds = conditionsOf(state, c.id);
  if (conds.length) parts.push(conds.join(', '));
  return parts.join(' · ');
}

function initials(name: string): string {
  const w = name.trim().split(/\s+/);
  return (w.length > 1 ? w[0]![0]! + w[1]![0]! : name.slice(0, 2)).toUpperCase();
}

export function Token({ state, c, cx, cy, r, mine, selected, highlight, onPointerDown, onClick, vitals = [] }: { state: EncounterState; c: Combatant; cx: number; cy: number; r: number; mine: boolean; selected: boolean; highlight: boolean; onPointerDown?: ((e: PointerEvent<SVGGElement>) => void) | undefined; onClick: () => void; vitals?: VitalView[] }) {
  const acting = state.clock.current === c.id;
  const label = tokenLabel(state, c, mine, vitals);
  const nameY = cy + r + 11 + (vitals.length ? vitals.length * 4.5 : 0);
  const conds = conditionsOf(state, c.id);
  const colour = sideColour(c.side);
  return (
    <g>
      <g
        className={`token${selected ? ' selected' : ''}${highlight ? ' moving' : ''}${c.hidden ? ' hidden-token' : ''}`}
        role="button"
        tabIndex={0}
        aria-label={label}
        aria-pressed={selected}
        data-token={c.id}
        onPointerDown={onPointerDown}
        onClick={(e) => {
          e.stopPropagation();
          onClick();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onClick();
          }
        }}
      >
        <title>{label}</title>
        {acting ? <circle cx={cx} cy={cy} r={r + 5} className="token-acting" /> : null}
        {selected ? <circle cx={cx} cy={cy} r={r + 3} className="token-selected" /> : null}
        <circle cx={cx} cy={cy} r={r} fill={colour} className="token-body" strokeDasharray={c.hidden ? '3 2' : undefined} />
        {mine ? <circle cx={cx} cy={cy} r={r - 3} className="token-mine" /> : null}
      </g>
      {/* the token's words are in its label; what is drawn is for the eyes */}
      <g aria-hidden="true" className="token-text">
        <text x={cx} y={cy + 4} className="token-initials">
          {initials(c.name)}
        </text>
        <TokenBars id={c.id} vitals={vitals} cx={cx} y={cy + r + 2} r={r} />
        <text x={cx} y={nameY} className="token-name">
          {acting ? '▶' : ''}
          {c.name.length > 9 ? `${c.name.slice(0, 8)}…` : c.name}
        </text>
        {conds.slice(0, 3).map((k, i) => (
          <g key={k + i}>
            <rect x={cx + r - 6} y={cy - r - 4 + i * 11} width={Math.max(14, Math.min(k.length, 9) * 5.2 + 6)} height={10} rx={3} className="token-badge" />
            <text x={cx + r - 3} y={cy - r + 4 + i * 11} className="token-badge-text">
              {k.length > 9 ? `${k.slice(0, 8)}…` : k}
            </text>
          </g>
        ))}
        {c.hidden ? (
          <text x={cx} y={cy - r - 3} className="token-hidden">
            hidden
          </text>
        ) : null}
      </g>
    </g>
  );
}

/**
 * The first view: the whole map, unless that makes a cell smaller than a fingertip (about 34 px) on
 * this screen; then a window of that scale centred on whoever acts (or the tokens' middle).
 */
function fitView(kind: GridKind, state: EncounterState, whole: { x: number; y: number; w: number; h: number }) {
  const screen = typeof window === 'undefined' ? 1000 : Math.max(200, Math.min(window.innerWidth - 40, 1200));
  const maxW = (screen * (kind === 'squares' ? SQUARE : HEX * Math.sqrt(3))) / 34;
  if (whole.w <= maxW) return whole;
  const acting = state.clock.current ? state.combatants[state.clock.current]?.position : null;
  const spots = isCell(acting) ? [acting] : Object.values(state.combatants).map((c) => c.position).filter(isCell);
  if (spots.length === 0) return whole;
  const cs = spots.map((p) => centre(kind, p));
  const cx = cs.reduce((a, c) => a + c.cx, 0) / cs.length;
  const cy = cs.reduce((a, c) => a + c.cy, 0) / cs.length;
  // the map's box is 52 % of the screen's height on a phone, 62 % (at most 560 px) elsewhere (style.css)
  const tall = typeof window === 'undefined' ? 560 : window.innerWidth <= 600 ? 0.52 * window.innerHeight : Math.min(0.62 * window.innerHeight, 560);
  const h = (maxW * tall) / screen;
  return { x: cx - maxW / 2, y: cy - h / 2, w: maxW, h };
}

/** The ruleset's terrain layers (`space.terrain`): layer name → the keys of its cells. */
function terrainOf(state: EncounterState, path: string | undefined): Array<[string, Set<string>]> {
  if (!path) return [];
  const at = path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), state);
  if (!at || typeof at !== 'object') return [];
  return Object.entries(at as Record<string, unknown>).filter(([, v]) => Array.isArray(v) && v.length > 0).map(([name, v]) => [name, new Set((v as unknown[]).map(String))]);
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

function GridBoard(props: BattleMapProps & { kind: GridKind; children?: ReactNode }) {
  const { state, kind, marks, selected, highlight, isMine, onToken, onCell, onDrop } = props;
  const extra = useMemo(() => (marks.reach ? marks.reach.reachable.map((t) => t.to).filter(isCell) : []), [marks.reach]);
  const rect = drawnRect(kind, state, extra);
  const box = boxOf(kind, rect);
  const pad = 24;
  const pz = usePanZoom(fitView(kind, state, { x: box.x - pad, y: box.y - pad, w: box.w + 2 * pad, h: box.h + 2 * pad }));
  const walls = new Set((mapOf(state)?.walls ?? []).map(cellKey));
  const terrain = terrainOf(state, props.space.terrain);
  const reach = new Map<string, ReachTarget>((marks.reach?.reachable ?? []).filter((t) => isCell(t.to)).map((t) => [cellKey(t.to as Cell), t]));
  const path = marks.chosen?.path?.filter(isCell) ?? [];
  const from = isCell(marks.reach?.from) ? (marks.reach!.from as Cell) : null;
  const [drag, setDrag] = useState<{ id: string; x: number; y: number } | null>(null);
  const dragRef = useRef<{ id: string; startX: number; startY: number; moved: boolean } | null>(null);
  const toMap = (clientX: number, clientY: number) => {
    const svg = pz.svg.current;
    const m = svg?.getScreenCTM();
    if (!svg || !m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  };
  const tokens = Object.values(state.combatants).filter((c) => isCell(c.position));
  const unplaced = Object.values(state.combatants).filter((c) => !isCell(c.position));
  const tokenR = kind === 'squares' ? 14 : 13;
  const prov = marks.chosen?.provokes;
  const provCell = prov ? (prov.at === 0 ? from : (path[prov.at - 1] ?? null)) : null;
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
        onPointerMove={(e) => {
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
        }}
        onPointerUp={(e) => {
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
        }}
      >
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
            return kind === 'squares' ? (
              <rect key={k} data-cell={k} x={cx - SQUARE / 2} y={cy - SQUARE / 2} width={SQUARE} height={SQUARE} className={cls} onClick={tap}>
                <title>{cellName(kind, cell) + (walls.has(k) ? ' (wall)' : '') + (layers.length ? ` (${layers.join(', ')})` : '') + (t ? ` — ${t.steps} step${t.steps === 1 ? '' : 's'}${t.provokes ? ', provokes' : ''}` : '')}</title>
              </rect>
            ) : (
              <polygon key={k} data-cell={k} points={hexPoints(cx, cy)} className={cls} onClick={tap}>
                <title>{cellName(kind, cell) + (walls.has(k) ? ' (wall)' : '') + (layers.length ? ` (${layers.join(', ')})` : '') + (t ? ` — ${t.steps} step${t.steps === 1 ? '' : 's'}${t.provokes ? ', provokes' : ''}` : '')}</title>
              </polygon>
            );
          })}
        </g>
        {path.length > 0 && from ? (
          <g className="path" aria-hidden="true">
            <polyline points={[from, ...path].map((p) => { const c = centre(kind, p); return `${c.cx},${c.cy}`; }).join(' ')} className="path-line" />
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
        {provCell ? (
          <g className="provoke-mark" aria-hidden="true">
            {(() => {
              const c = centre(kind, provCell);
              return (
                <>
                  <circle cx={c.cx} cy={c.cy - tokenR - 8} r={8} className="provoke-dot" />
                  <text x={c.cx} y={c.cy - tokenR - 4.5} className="provoke-text">
                    !
                  </text>
                </>
              );
            })()}
          </g>
        ) : null}
        <g className="tokens">
          {tokens.map((c) => {
            const at = drag?.id === c.id ? { cx: drag.x, cy: drag.y } : centre(kind, c.position as Cell);
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
                onPointerDown={
                  onDrop
                    ? (e) => {
                        e.stopPropagation();
                        dragRef.current = { id: c.id, startX: e.clientX, startY: e.clientY, moved: false };
                      }
                    : undefined
                }
                onClick={() => {
                  const d = dragRef.current;
                  dragRef.current = null;
                  if (!d?.moved) onToken(c.id);
                }}
              />
            );
          })}
        </g>
      </svg>
      {unplaced.length ? (
        <p className="map-unplaced">
          Not on the map:{' '}
          {unplaced.map((c) => (
            <button key={c.id} type="button" data-token={c.id} aria-pressed={selected === c.id} className={selected === c.id ? 'selected' : ''} onClick={() => onToken(c.id)}>
              {c.name}
            </button>
          ))}
        </p>
      ) : null}
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
    </div>
  );
}

/** The battle map, drawn from the ruleset's space: a square or hex grid, or zones. */
export function BattleMap(props: BattleMapProps) {
  if (props.space.kind === 'zones') return <ZoneBoard {...props} />;
  return <GridBoard {...props} kind={props.space.kind} />;
}
