import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { BattleMap } from './BattleMap.js';
import type { ReachOk, ReachTarget } from './map-tokens.js';
import { MapTools, toggledWall } from './MapTools.js';
import { cellName, isCell, type Cell, type GridKind } from '../lib/geometry.js';
import { nameOf } from '../lib/describe.js';
import type { Live } from '../lib/live.js';
import { displayOf } from '../lib/display.js';
import { askReach, useMapMove, type MapMove, type Move, type Note } from './useMapMove.js';
import type { ActionOption, EncounterState, RulesetInfo } from '../lib/types.js';

/** What the action forms ask of the map: a destination picked on it, a combatant tapped on it. */
export interface MapApi {
  startMove(combatantId: string, option: ActionOption, params: Record<string, unknown>): void;
  /** while set, tapping one of `ids` calls `onPick` (a form's target field); returns the undo */
  pickCombatant(ids: string[], onPick: (id: string) => void): () => void;
}
export const MapContext = createContext<MapApi | null>(null);
export const useMapApi = (): MapApi | null => useContext(MapContext);

/** The option's destination field, if it has one (a path or a position). */
export const destinationParam = (o: ActionOption) => (o.params ?? []).find((p) => p.kind === 'path' || p.kind === 'position');

function words(space: string, t: ReachTarget): string {
  if (space === 'zones') return t.label ?? 'there';
  const unit = space === 'hexes' ? 'hex' : 'square';
  const kind: GridKind = space === 'hexes' ? 'hexes' : 'squares';
  return `${isCell(t.to) ? cellName(kind, t.to) : JSON.stringify(t.to)}: ${t.steps} ${unit}${t.steps === 1 ? '' : space === 'hexes' ? 'es' : 's'}`;
}
function provokeWords(state: EncounterState, space: string, t: ReachTarget): string | null {
  if (!t.provokes) return null;
  const who = t.provokes.from.map((id) => nameOf(state, id)).join(', ');
  const where = space === 'zones' ? '' : t.provokes.at === 0 ? ' as you leave your starting ' + (space === 'hexes' ? 'hex' : 'square') : ` after step ${t.provokes.at}`;
  return `⚠ Provokes${where}: ${who} may react (${t.provokes.description}).`;
}

/** The GM sees every combatant's vitals as numbers. */
const allNumbers = (): boolean => true;

interface PanelProps {
  live: Live | null;
  state: EncounterState | null;
  version: number;
  ruleset: RulesetInfo | undefined;
  isMine: (id: string) => boolean;
  canCommand: (id: string) => boolean;
  gm: boolean;
  title: string;
}

/** The movement options of the selected token, when this viewer commands it. */
function useMoveOptions(p: PanelProps, selected: string | null): ActionOption[] {
  const { live, canCommand, version, state } = p;
  const space = p.ruleset?.space ?? null;
  const [moves, setMoves] = useState<ActionOption[]>([]);
  useEffect(() => {
    let on = true;
    if (!live || !selected || !canCommand(selected) || state?.status !== 'active' || !space) {
      setMoves([]);
      return;
    }
    live.actions(selected).then(
      (list) => on && setMoves(list.filter((o) => o.allowed && destinationParam(o))),
      () => on && setMoves([]),
    );
    return () => {
      on = false;
    };
  }, [live, selected, version, state?.status, space]);
  return moves;
}

/** A tap on a square, hex or zone that is not a reachable destination: why not (the server's rule). */
async function explainRefusal(live: Live, mv: MapMove, to: unknown): Promise<void> {
  const move = mv.move!;
  const a = move.answer!;
  const k = JSON.stringify(to);
  mv.setChosen(null);
  if (isCell(to)) mv.setRefusedAt(to);
  const refused = a.refused.find((x) => JSON.stringify(x.to) === k);
  if (refused) return mv.setNote({ kind: 'error', text: `Not there: ${refused.error.message}`, rule: refused.error.rule });
  const e = await askReach(live, move, to);
  const why = e.ok ? e.explain?.error : e.error;
  mv.setNote({ kind: 'error', text: `Not there: ${why?.message ?? `out of reach (more than ${a.maxSteps ?? '?'} steps).`}`, rule: why?.rule });
}

type Picker = { current: { ids: string[]; onPick: (id: string) => void } | null };

/** What the action forms ask of the map (MapContext). */
function useApi(start: MapMove['start'], setSelected: (id: string) => void, picker: Picker): MapApi {
  return useMemo<MapApi>(
    () => ({
      startMove(combatantId, option, params) {
        setSelected(combatantId);
        start(combatantId, option, params);
        document.querySelector('.map-panel')?.scrollIntoView({ block: 'nearest' });
      },
      pickCombatant(ids, onPick) {
        const pk = { ids, onPick };
        picker.current = pk;
        return () => {
          if (picker.current === pk) picker.current = null;
        };
      },
    }),
    [start],
  );
}

interface GmTapContext {
  live: Live;
  state: EncounterState | null;
  space: RulesetInfo['space'];
  selected: string | null;
  placing: boolean;
  editingWalls: boolean;
  setPlacing: (v: boolean) => void;
  setNote: (n: Note) => void;
}

/** The GM's tap without a move under way: a wall toggled, or the selected token placed. */
async function gmTap(g: GmTapContext, to: unknown): Promise<void> {
  const { live, state, space, selected, setNote } = g;
  if (g.editingWalls && state && space && space.kind !== 'zones' && isCell(to)) {
    const r = await live.send({ type: 'map.set', map: toggledWall(space.kind, state, to) });
    if (!r.ok) setNote({ kind: 'error', text: r.error.message, rule: r.error.rule });
    return;
  }
  if (selected && g.placing) {
    g.setPlacing(false);
    const r = await live.send({ type: 'combatant.place', combatantId: selected, position: to });
    setNote(r.ok ? { kind: 'ok', text: `✓ ${nameOf(state, selected)} placed (GM).` } : { kind: 'error', text: r.error.message, rule: r.error.rule });
  }
}

/**
 * The map with what a player or the GM does on it: select a token, pick a movement option, see
 * where it can go (the server's `reach`), tap a destination to see the path, its cost and any
 * provocation, tap again (or Confirm) to move. The GM also drags tokens (a logged placement).
 */
export function useMapPanel(p: PanelProps) {
  const { live, state, version, ruleset, gm } = p;
  const space = ruleset?.space ?? null;
  const [selected, setSelected] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);
  const [editingWalls, setEditingWalls] = useState(false);
  const picker = useRef<{ ids: string[]; onPick: (id: string) => void } | null>(null);
  const mv = useMapMove(live, state, version);
  const moves = useMoveOptions(p, selected);
  const { move, setNote } = mv;

  const api = useApi(mv.start, setSelected, picker);

  const onToken = (id: string) => {
    const pk = picker.current;
    if (pk && pk.ids.includes(id)) {
      pk.onPick(id);
      setNote({ kind: 'ok', text: `Target: ${nameOf(state, id)}.` });
      return;
    }
    const c = state?.combatants[id];
    if (move) {
      if (space?.kind !== 'zones' && isCell(c?.position)) return onCell(c.position);
      return;
    }
    setSelected(selected === id ? null : id);
    setNote(null);
    // the GM places a token that is not on the map yet with the next tap
    if (gm && selected !== id && c && (space?.kind === 'zones' ? !c.position : !isCell(c.position))) {
      setPlacing(true);
      setNote({ kind: 'info', text: space?.kind === 'zones' ? `Press "Place here" on a zone to place ${c.name}.` : `Tap a ${space?.kind === 'hexes' ? 'hex' : 'square'} to place ${c.name}.` });
    }
  };

  const onCell = async (to: unknown) => {
    mv.setRefusedAt(null);
    if (!live) return;
    if (!move?.answer) return gm ? gmTap({ live, state, space, selected, placing, editingWalls, setPlacing, setNote }, to) : undefined;
    const a = move.answer;
    const k = JSON.stringify(to);
    const t = a.reachable.find((x) => JSON.stringify(x.to) === k);
    if (!t) return explainRefusal(live, mv, to);
    if (mv.chosen && JSON.stringify(mv.chosen.to) === k) return mv.confirm(t);
    mv.setChosen(t);
    setNote({ kind: 'info', text: `${words(a.space, t)}.${t.provokes && state ? ' ' + provokeWords(state, a.space, t) : ''} Tap it again or press Confirm.` });
  };

  const gridKind = space && space.kind !== 'zones' ? space.kind : null;
  const onDrop =
    gm && gridKind
      ? async (id: string, to: Cell) => {
          if (!live) return;
          const r = await live.send({ type: 'combatant.place', combatantId: id, position: to });
          setNote(r.ok ? { kind: 'ok', text: `✓ ${nameOf(state, id)} placed at ${cellName(gridKind, to)} (GM placement, not a move by the rules).` } : { kind: 'error', text: r.error.message, rule: r.error.rule });
        }
      : undefined;

  if (!state || !space) return { api: null, element: null }; // no map, no map tools: forms ask in their own fields
  const highlight = state.reaction?.trigger.combatantId ?? null;
  const view: PanelView = { p, state, space, selected, moves, mv, placing, setPlacing, onCell, startMove: api.startMove };
  const element = (
    <section className="map-panel" aria-label={p.title} data-testid="map-panel">
      <BattleMap state={state} space={space} isMine={p.isMine} selected={selected} highlight={highlight} marks={{ reach: move?.answer ?? null, chosen: mv.chosen, refusedAt: mv.refusedAt }} onToken={onToken} onCell={(to) => void onCell(to)} onDrop={onDrop} walls={editingWalls} placing={gm && placing ? selected : null} title={p.title} display={displayOf(ruleset ? [ruleset] : [], state.ruleset)} numbers={gm ? allNumbers : p.isMine} />
      {gm && live && space.kind !== 'zones' ? <MapTools live={live} state={state} kind={space.kind} editingWalls={editingWalls} setEditingWalls={setEditingWalls} /> : null}
      <MapStatus v={view} />
    </section>
  );
  return { api, element };
}

/** What the status under the map shows. */
interface PanelView {
  p: PanelProps;
  state: EncounterState;
  space: NonNullable<RulesetInfo['space']>;
  selected: string | null;
  moves: ActionOption[];
  mv: MapMove;
  placing: boolean;
  setPlacing: (v: boolean) => void;
  onCell: (to: unknown) => Promise<void>;
  startMove: MapApi['startMove'];
}

/** The selected token and its movement options, or the GM's placement, or a hint. */
function Selection({ v }: { v: PanelView }) {
  const { p, state, space, moves, placing } = v;
  const sel = v.selected ? state.combatants[v.selected] : undefined;
  if (!sel) {
    return (
      <p className="muted">
        {p.canCommand === noOne
          ? 'Tap a token to see who it is.'
          : p.gm
            ? 'Tap a token to select it; drag it to place it (GM).'
            : state.clock.current && p.canCommand(state.clock.current)
              ? 'Your turn: tap your token to move it.'
              : 'Not your turn: the map follows the fight.'}
      </p>
    );
  }
  return (
    <>
      <p>
        Selected: <strong>{sel.name}</strong>
        {moves.length === 0 && p.canCommand(sel.id) && state.status === 'active' ? <span className="muted"> — no movement possible now</span> : null}
        {!p.canCommand(sel.id) ? <span className="muted"> — not yours to move</span> : null}
      </p>
      {moves.length > 0 ? (
        <div className="row wrap" role="group" aria-label={`Move ${sel.name}`}>
          {moves.map((o, i) => (
            <button key={i} type="button" className="action" onClick={() => v.startMove(sel.id, o, {})}>
              {o.label}
              {o.provokes ? <span className="tag tag-warn">! may provoke</span> : null}
            </button>
          ))}
        </div>
      ) : null}
      {p.gm ? (
        <button type="button" aria-pressed={placing} onClick={() => v.setPlacing(!placing)}>
          {placing ? `Tap a ${space.kind === 'zones' ? 'zone’s Place button' : space.kind === 'hexes' ? 'hex' : 'square'} to place ${sel.name} (GM)… (press to cancel)` : `Place ${sel.name} (GM)`}
        </button>
      ) : null}
    </>
  );
}

/** The move under way: who moves how, the destinations as a list, Confirm and Cancel. */
function MoveUnderWay({ v, move }: { v: PanelView; move: Move }) {
  const { mv, state } = v;
  return (
    <>
      <p>
        <strong>{nameOf(state, move.combatantId)}</strong>: {move.option.label}
        {move.answer?.maxSteps ? <span className="muted"> (up to {move.answer.maxSteps} steps)</span> : null}
      </p>
      <NoteLine note={mv.note} />
      {move.answer && move.answer.reachable.length > 0 ? <DestinationList answer={move.answer} state={state} chosen={mv.chosen} onChoose={(t) => void v.onCell(t.to)} /> : null}
      <div className="row">
        {mv.chosen ? (
          <button type="button" className="primary" disabled={mv.busy} onClick={() => void mv.confirm(mv.chosen!)}>
            {mv.busy ? 'Moving…' : `Confirm: ${move.option.label}`}
          </button>
        ) : null}
        <button type="button" onClick={mv.cancel}>
          Cancel move
        </button>
      </div>
    </>
  );
}

function NoteLine({ note }: { note: Note }) {
  if (!note) return null;
  return (
    <p className={note.kind === 'error' ? 'field-error' : note.kind === 'ok' ? 'ok' : 'map-note'} role={note.kind === 'error' ? 'alert' : 'status'} data-testid="map-note">
      {note.text}
      {note.rule ? <span className="rule"> ({note.rule})</span> : null}
    </p>
  );
}

function MapStatus({ v }: { v: PanelView }) {
  const { state, mv } = v;
  const highlight = state.reaction?.trigger.combatantId ?? null;
  return (
    <div className="map-status">
      {highlight && state.reaction ? (
        <p className="map-reaction" role="status">
          ⚡ Reaction: {state.reaction.trigger.description}
        </p>
      ) : null}
      {mv.move ? (
        <MoveUnderWay v={v} move={mv.move} />
      ) : (
        <>
          <Selection v={v} />
          <NoteLine note={mv.note} />
        </>
      )}
    </div>
  );
}

/** The same destinations as a list, for the keyboard and screen readers. */
function DestinationList({ answer, state, chosen, onChoose }: { answer: ReachOk; state: EncounterState; chosen: ReachTarget | null; onChoose: (t: ReachTarget) => void }) {
  const key = (t: ReachTarget) => JSON.stringify(t.to);
  return (
    <div className="field">
      <label htmlFor="map-destination">Or choose a destination</label>
      <select id="map-destination" value={chosen ? key(chosen) : ''} onChange={(e) => { const t = answer.reachable.find((x) => key(x) === e.target.value); if (t) onChoose(t); }}>
        <option value="">— {answer.reachable.length} possible —</option>
        {answer.reachable.slice(0, 400).map((t) => (
          <option key={key(t)} value={key(t)}>
            {words(answer.space, t)}
            {t.provokes ? ` — provokes (${t.provokes.from.map((id) => nameOf(state, id)).join(', ')})` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

/** `canCommand` for a spectator. */
export const noOne = (): boolean => false;

