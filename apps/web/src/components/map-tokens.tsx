import type { PointerEvent } from 'react';
import { sideColour, type Cell } from '../lib/geometry.js';
import type { ReachAnswer } from '../lib/live.js';
import type { Combatant, EncounterState } from '../lib/types.js';
import { vitalsOf, type RulesetDisplay, type VitalView } from '../lib/display.js';

/** What the battle map draws (BattleMap.tsx, GridBoard.tsx, ZoneBoard.tsx) and its tokens. */
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
            <rect
              x={cx - r}
              y={y + i * 4.5}
              width={2 * r * left}
              height={3.5}
              rx={1.5}
              className={`token-vital-fill token-vital-${level}`}
            />
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

/** What is drawn on and around a token for the eyes (its words are in its label): initials, vitals, name, badges. */
function TokenText({
  state,
  c,
  cx,
  cy,
  r,
  vitals,
}: {
  state: EncounterState;
  c: Combatant;
  cx: number;
  cy: number;
  r: number;
  vitals: VitalView[];
}) {
  const acting = state.clock.current === c.id;
  const nameY = cy + r + 11 + (vitals.length ? vitals.length * 4.5 : 0);
  const conds = conditionsOf(state, c.id);
  return (
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
          <rect
            x={cx + r - 6}
            y={cy - r - 4 + i * 11}
            width={Math.max(14, Math.min(k.length, 9) * 5.2 + 6)}
            height={10}
            rx={3}
            className="token-badge"
          />
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
  );
}

export function Token({
  state,
  c,
  cx,
  cy,
  r,
  mine,
  selected,
  highlight,
  onPointerDown,
  onClick,
  vitals = [],
}: {
  state: EncounterState;
  c: Combatant;
  cx: number;
  cy: number;
  r: number;
  mine: boolean;
  selected: boolean;
  highlight: boolean;
  onPointerDown?: ((e: PointerEvent<SVGGElement>) => void) | undefined;
  onClick: () => void;
  vitals?: VitalView[];
}) {
  const acting = state.clock.current === c.id;
  const label = tokenLabel(state, c, mine, vitals);
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
        <circle cx={cx} cy={cy} r={r} className="token-hit" />
        {acting ? <circle cx={cx} cy={cy} r={r + 5} className="token-acting" /> : null}
        {selected ? <circle cx={cx} cy={cy} r={r + 3} className="token-selected" /> : null}
        <circle cx={cx} cy={cy} r={r} fill={colour} className="token-body" strokeDasharray={c.hidden ? '3 2' : undefined} />
        {mine ? <circle cx={cx} cy={cy} r={r - 3} className="token-mine" /> : null}
      </g>
      <TokenText state={state} c={c} cx={cx} cy={cy} r={r} vitals={vitals} />
    </g>
  );
}
