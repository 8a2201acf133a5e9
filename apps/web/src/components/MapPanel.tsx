import { useEffect, useMemo, useRef, useState } from 'react';
import { BattleMap } from './BattleMap.js';
import { destinationParam, type MapApi, type PanelProps } from './map-context.js';
import { MapStatus, provokeWords, words, type PanelView } from './map-status.js';
import { MapTools, toggledWall } from './MapTools.js';
import { cellName, isCell, type Cell } from '../lib/geometry.js';
import { nameOf } from '../lib/describe.js';
import type { Live } from '../lib/live.js';
import { displayOf } from '../lib/display.js';
import { askReach, useMapMove, type MapMove, type Note } from './useMapMove.js';
import type { ActionOption, EncounterState, RulesetInfo } from '../lib/types.js';

// what the pages and the action forms use with the map
export { MapContext, noOne } from './map-context.js';

/** The GM sees every combatant's vitals as numbers. */
const allNumbers = (): boolean => true;

/** The movement options of the selected token, when this viewer commands it (the blocked ones too: they say why not). */
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
      (list) => on && setMoves(list.filter((o) => destinationParam(o))),
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
  mv.setNote({
    kind: 'error',
    text: `Not there: ${why?.message ?? `out of reach (more than ${a.maxSteps ?? '?'} steps).`}`,
    rule: why?.rule,
  });
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
    setNote(
      r.ok
        ? { kind: 'ok', text: `✓ ${nameOf(state, selected)} placed (GM).` }
        : { kind: 'error', text: r.error.message, rule: r.error.rule },
    );
  }
}

/** The map's selection state: the selected token, the GM placing it, the GM editing walls. */
interface Taps {
  selected: string | null;
  setSelected: (id: string | null) => void;
  placing: boolean;
  setPlacing: (v: boolean) => void;
  editingWalls: boolean;
}

/** What a tap does: on a token (pick a target, select, or move onto it), on a cell or zone (a destination, or the GM's placement or wall). */
function useTapHandlers(p: PanelProps, mv: MapMove, t: Taps, picker: Picker) {
  const { live, state, gm } = p;
  const space = p.ruleset?.space ?? null;
  const { move, setNote } = mv;
  const { selected, placing } = t;
  const onCell = async (to: unknown) => {
    mv.setRefusedAt(null);
    if (!live) return;
    if (!move?.answer)
      return gm
        ? gmTap({ live, state, space, selected, placing, editingWalls: t.editingWalls, setPlacing: t.setPlacing, setNote }, to)
        : undefined;
    const a = move.answer;
    const k = JSON.stringify(to);
    const target = a.reachable.find((x) => JSON.stringify(x.to) === k);
    if (!target) return explainRefusal(live, mv, to);
    if (mv.chosen && JSON.stringify(mv.chosen.to) === k) return mv.confirm(target);
    mv.setChosen(target);
    setNote({
      kind: 'info',
      text: `${words(a.space, target)}.${target.provokes && state ? ' ' + provokeWords(state, a.space, target) : ''} Tap it again or press Confirm.`,
    });
  };
  const onToken = (id: string) => {
    const pk = picker.current;
    if (pk && pk.ids.includes(id)) {
      pk.onPick(id);
      setNote({ kind: 'ok', text: `Target: ${nameOf(state, id)}.` });
      return;
    }
    const c = state?.combatants[id];
    if (move) {
      if (space?.kind !== 'zones' && isCell(c?.position)) void onCell(c.position);
      return;
    }
    t.setSelected(selected === id ? null : id);
    setNote(null);
    // the GM places a token that is not on the map yet with the next tap
    if (gm && selected !== id && c && (space?.kind === 'zones' ? !c.position : !isCell(c.position))) {
      t.setPlacing(true);
      setNote({
        kind: 'info',
        text:
          space?.kind === 'zones'
            ? `Press "Place here" on a zone to place ${c.name}.`
            : `Tap a ${space?.kind === 'hexes' ? 'hex' : 'square'} to place ${c.name}.`,
      });
    }
  };
  const gridKind = space && space.kind !== 'zones' ? space.kind : null;
  const onDrop =
    gm && gridKind
      ? async (id: string, to: Cell) => {
          if (!live) return;
          const r = await live.send({ type: 'combatant.place', combatantId: id, position: to });
          setNote(
            r.ok
              ? { kind: 'ok', text: `✓ ${nameOf(state, id)} placed at ${cellName(gridKind, to)} (GM placement, not a move by the rules).` }
              : { kind: 'error', text: r.error.message, rule: r.error.rule },
          );
        }
      : undefined;
  return { onCell, onToken, onDrop };
}

/**
 * The map with what a player or the GM does on it: select a token, pick a movement option, see
 * where it can go (the server's `reach`), tap a destination to see the path, its cost and any
 * provocation, tap again (or Confirm) to move. The GM also drags tokens (a logged placement).
 */
export function useMapPanel(p: PanelProps) {
  const { live, state, ruleset, gm } = p;
  const space = ruleset?.space ?? null;
  const [selected, setSelected] = useState<string | null>(null);
  // an NPC's turn (the GM plays it): its token is selected, its moves on offer
  const current = state?.status === 'active' ? state.clock.current : null;
  const npcTurn = gm && current && !state?.combatants[current]?.controller ? current : null;
  useEffect(() => {
    if (npcTurn) setSelected(npcTurn);
  }, [npcTurn]);
  const [placing, setPlacing] = useState(false);
  const [editingWalls, setEditingWalls] = useState(false);
  const picker = useRef<{ ids: string[]; onPick: (id: string) => void } | null>(null);
  const mv = useMapMove(live, state, p.version);
  const moves = useMoveOptions(p, selected);
  const api = useApi(mv.start, setSelected, picker);
  const { onCell, onToken, onDrop } = useTapHandlers(p, mv, { selected, setSelected, placing, setPlacing, editingWalls }, picker);
  if (!state || !space) return { api: null, element: null }; // no map, no map tools: forms ask in their own fields
  const highlight = state.reaction?.trigger.combatantId ?? null;
  const view: PanelView = { p, state, space, selected, moves, mv, placing, setPlacing, onCell, startMove: api.startMove };
  const marks = { reach: mv.move?.answer ?? null, chosen: mv.chosen, refusedAt: mv.refusedAt };
  const element = (
    <section className="map-panel" aria-label={p.title} data-testid="map-panel">
      <BattleMap
        state={state}
        space={space}
        isMine={p.isMine}
        selected={selected}
        highlight={highlight}
        marks={marks}
        onToken={onToken}
        onCell={(to) => void onCell(to)}
        onDrop={onDrop}
        walls={editingWalls}
        placing={gm && placing ? selected : null}
        title={p.title}
        display={displayOf(ruleset ? [ruleset] : [], state.ruleset)}
        numbers={gm ? allNumbers : p.isMine}
      />
      {gm && live && space.kind !== 'zones' ? (
        <MapTools live={live} state={state} kind={space.kind} editingWalls={editingWalls} setEditingWalls={setEditingWalls} />
      ) : null}
      <MapStatus v={view} />
    </section>
  );
  return { api, element };
}
