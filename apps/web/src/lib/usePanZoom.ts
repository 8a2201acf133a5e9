import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';

/** A view onto the map: the visible box in map units. */
export interface View {
  x: number;
  y: number;
  w: number;
  h: number;
}

const MIN_W = 120;
const MAX_W = 6000;

function zoomed(v: View, factor: number, fx = 0.5, fy = 0.5): View {
  const w = Math.min(MAX_W, Math.max(MIN_W, v.w * factor));
  const h = (v.h * w) / v.w;
  return { x: v.x + (v.w - w) * fx, y: v.y + (v.h - h) * fy, w, h };
}

/**
 * Pan and zoom an SVG's viewBox by mouse (drag, wheel), touch (one finger pans, two pinch) and
 * keyboard (arrows pan, + and − zoom, 0 fits). A drag that moves less than 6 px is a tap: the
 * handlers of what was tapped still fire (`moved()` tells them whether the pointer travelled).
 */
export function usePanZoom(fit: View) {
  const [view, setView] = useState<View | null>(null);
  const v = view ?? fit;
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const travelled = useRef(0);
  const svg = useRef<SVGSVGElement | null>(null);
  const reset = useCallback(() => setView(null), []);

  const scale = () => {
    const r = svg.current?.getBoundingClientRect();
    if (!r || r.width === 0) return 1;
    // preserveAspectRatio="xMidYMid meet": one scale for both axes
    return Math.max(v.w / r.width, v.h / r.height);
  };

  const onPointerDown = useCallback((e: PointerEvent<SVGSVGElement>) => {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 1) travelled.current = 0;
  }, []);
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const prev = pointers.current.get(e.pointerId);
    if (!prev) return;
    const k = scale();
    if (pointers.current.size === 1) {
      const dx = e.clientX - prev.x;
      const dy = e.clientY - prev.y;
      travelled.current += Math.abs(dx) + Math.abs(dy);
      if (travelled.current > 6) {
        if (!svg.current?.hasPointerCapture(e.pointerId)) svg.current?.setPointerCapture(e.pointerId);
        setView({ ...v, x: v.x - dx * k, y: v.y - dy * k });
      }
    } else if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.entries()].map(([id, p]) => (id === e.pointerId ? { x: e.clientX, y: e.clientY } : p));
      const [pa, pb] = [...pointers.current.values()];
      const before = Math.hypot(pa!.x - pb!.x, pa!.y - pb!.y);
      const after = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      travelled.current += 100;
      if (before > 0 && after > 0) setView(zoomed(v, before / after));
    }
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
  };
  const onPointerUp = (e: PointerEvent<SVGSVGElement>) => {
    pointers.current.delete(e.pointerId);
  };
  const onWheel = (e: WheelEvent<SVGSVGElement>) => {
    const r = svg.current?.getBoundingClientRect();
    const fx = r ? (e.clientX - r.left) / r.width : 0.5;
    const fy = r ? (e.clientY - r.top) / r.height : 0.5;
    setView(zoomed(v, e.deltaY > 0 ? 1.15 : 1 / 1.15, fx, fy));
  };
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const step = v.w / 8;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    if (e.target !== e.currentTarget && e.key.startsWith('Arrow')) return;
    const m = moves[e.key];
    if (m) setView({ ...v, x: v.x + m[0], y: v.y + m[1] });
    else if (e.key === '+' || e.key === '=') setView(zoomed(v, 1 / 1.25));
    else if (e.key === '-' || e.key === '_') setView(zoomed(v, 1.25));
    else if (e.key === '0') setView(null);
    else return;
    e.preventDefault();
  };
  return {
    view: v,
    svg,
    handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onWheel, onKeyDown },
    zoomIn: () => setView(zoomed(v, 1 / 1.25)),
    zoomOut: () => setView(zoomed(v, 1.25)),
    reset,
    /** whether the last press travelled far enough to be a pan, not a tap */
    moved: () => travelled.current > 6,
  };
}
