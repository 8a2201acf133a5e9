import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { BattleMap, type ReachOk, type ReachTarget } from './BattleMap.js';
import { MapTools, toggledWall } from './MapTools.js';
import { cellKey, cellName, isCell, type Cell, type GridKind } from '../lib/geometry.js';
import { nameOf } from '../lib/describe.js';
import type { Live } from '../lib/live.js';
import type { RulesetDisplay } from '../lib/display.js';
import type { ActionOption, EncounterState, RulesetInfo, WireError } from '../lib/types.js';

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

interface Move {
  combatantId: string;
  option: ActionOption;
  params: Record<string, unknown>;
  answer: ReachOk | null;
}
type Note = { kind: 'info' | 'error' | 'ok'; text: string; rule?: string | undefined } | null;

function words(space: string, t: ReachTarget): string {
  if (space === 'zones') return t.label ?? 'there';
  const unit = space === 'hexes' ? 'hex' : 'square';
  return `${cellName(space as GridKind, t.to as Cell)}: ${t.steps} ${unit}${t.steps === 1 ? '' : space === 'hexes' ? 'es' : 's'}`;
}
function provokeWords(state: EncounterState, space: string, t: ReachTarget): string | null {
  if (!t.provokes) return null;
  const who = t.provokes.from.map((id) => nameOf(state, id)).join(', ');
  const where = space === 'zones' ? '' : t.provokes.at === 0 ? ' as you leave your starting ' + (space === 'hexes' ? 'hex' : 'square') : ` after step ${t.provokes.at}`;
  return `⚠ Provokes${where}: ${who} may react (${t.provokes.description}).`;
}

/**
 * The map with what a player or the GM does on it: select a token, pick a movement option, see
 * where it can go (the server's `reach`), tap a destination to see the path, its cost and any
 * provocation, tap again (or Confirm) to move. The GM also drags tokens (a logged placement).
 */
/** The GM sees every combatant's vitals as numbers. */
const allNumbers = (): boolean => true;

export function useMapPanel({ live, state, version, ruleset, isMine, canCommand, gm, title }: { live: Live | null; state: EncounterState | null; version: number; ruleset: RulesetInfo | undefined; isMine: (id: string) => boolean; canCommand: (id: string) => boolean; gm: boolean; title: string }) {
  const space = ruleset?.space ?? null;
  const [selected, setSelected] = useState<string | null>(null);
  const [moves, setMoves] = useState<ActionOption[]>([]);
  const [move, setMove] = useState<Move | null>(null);
  const [chosen, setChosen] = useState<ReachTarget | null>(null);
  const [refusedAt, setRefusedAt] = useState<Cell | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<{ ids: string[]; onPick: (id: string) => void } | null>(null);
  const versionRef = useRef(version);
  versionRef.current = version;
  /** bumped when a move starts, ends or is sent: a reach answer for an older one is dropped */
  const gen = useRef(0);
  const sending = useRef(false);

  const loadReach = useCallback(
    async (m: Move, keep?: ReachTarget | null) => {
      const o = m.option;
      if (!live) return;
      const mine = gen.current;
      const a = await live.reach({ combatantId: m.combatantId, command: o.command, ...(o.action ? { action: o.action } : {}), ...(o.template ? { template: o.template } : {}), params: m.params });
      if (mine !== gen.current) return;
      if (!a.ok) {
        setMove(null);
        setNote({ kind: 'error', text: a.error.message, rule: (a.error as WireError).rule });
        return;
      }
      setMove({ ...m, answer: a });
      const again = keep ? a.reachable.find((t) => JSON.stringify(t.to) === JSON.stringify(keep.to)) : undefined;
      setChosen(again ?? null);
      if (keep && !again) setNote({ kind: 'error', text: 'The map changed (someone moved): that destination is no longer reachable. Choose again.' });
      else if (!keep) setNote({ kind: 'info', text: a.reachable.length ? `Tap a highlighted ${a.space === 'zones' ? 'zone or character' : a.space === 'hexes' ? 'hex' : 'square'} to see the path.` : 'Nowhere to go with this option now.' });
    },
    [live],
  );

  // A stale map re-syncs: when the state moves on, ask again where the mover can go.
  useEffect(() => {
    if (move?.answer && move.answer.version !== version && !sending.current) void loadReach(move, chosen);
    // a "done" line says what just happened; once the fight moves on it is old news
    else if (!move && note?.kind === 'ok' && !sending.current) setNote(null);
  }, [version]);

  // The movement options of the selected token, when this viewer commands it.
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

  const api = useMemo<MapApi>(
    () => ({
      startMove(combatantId, option, params) {
        gen.current += 1;
        setSelected(combatantId);
        setChosen(null);
        setRefusedAt(null);
        const m = { combatantId, option, params, answer: null };
        setMove(m);
        setNote({ kind: 'info', text: 'Asking the server where you can go…' });
        void loadReach(m);
        document.querySelector('.map-panel')?.scrollIntoView({ block: 'nearest' });
      },
      pickCombatant(ids, onPick) {
        const p = { ids, onPick };
        picker.current = p;
        return () => {
          if (picker.current === p) picker.current = null;
        };
      },
    }),
    [loadReach],
  );

  const cancel = () => {
    gen.current += 1;
    setMove(null);
    setChosen(null);
    setRefusedAt(null);
    setNote(null);
  };

  const confirm = async (t: ReachTarget) => {
    if (!move?.answer || !live) return;
    const a = move.answer;
    if (a.version !== versionRef.current) {
      setNote({ kind: 'info', text: 'The map changed since: checking the path again…' });
      void loadReach(move, t);
      return;
    }
    const o = move.option;
    const value = a.paramKind === 'path' ? t.path : t.to;
    setBusy(true);
    sending.current = true;
    gen.current += 1;
    const r = await live.send({ ...move.params, ...(o.template ?? {}), [a.param]: value, type: o.command }, undefined, a.version);
    sending.current = false;
    setBusy(false);
    if (r.ok) {
      setMove(null);
      setChosen(null);
      setNote({ kind: 'ok', text: `✓ ${nameOf(state, move.combatantId)}: ${o.label} — done.` });
    } else if (r.error.code === 'STALE_VERSION') {
      setNote({ kind: 'info', text: 'Someone acted first: the map is updated; check the path and confirm again.' });
      await live.resyncNow();
      void loadReach(move, t);
    } else setNote({ kind: 'error', text: r.error.message, rule: r.error.rule });
  };

  const onToken = (id: string) => {
    const p = picker.current;
    if (p && p.ids.includes(id)) {
      p.onPick(id);
      setNote({ kind: 'ok', text: `Target: ${nameOf(state, id)}.` });
      return;
    }
    if (move) {
      const c = state?.combatants[id];
      const at = c?.position;
      if (space?.kind !== 'zones' && isCell(at)) return onCell(at);
      return;
    }
    setSelected(selected === id ? null : id);
    setNote(null);
    // the GM places a token that is not on the map yet with the next tap
    const c = state?.combatants[id];
    if (gm && selected !== id && c && (space?.kind === 'zones' ? !c.position : !isCell(c.position))) {
      setPlacing(true);
      setNote({ kind: 'info', text: space?.kind === 'zones' ? `Press "Place here" on a zone to place ${c.name}.` : `Tap a ${space?.kind === 'hexes' ? 'hex' : 'square'} to place ${c.name}.` });
    }
  };

  const onCell = async (to: unknown) => {
    setRefusedAt(null);
    if (!live) return;
    if (!move?.answer) {
      if (gm && editingWalls && state && space && space.kind !== 'zones' && isCell(to)) {
        const r = await live.send({ type: 'map.set', map: toggledWall(space.kind, state, to) });
        if (!r.ok) setNote({ kind: 'error', text: r.error.message, rule: r.error.rule });
        return;
      }
      if (gm && selected && placing) {
        setPlacing(false);
        const r = await live.send({ type: 'combatant.place', combatantId: selected, position: to });
        setNote(r.ok ? { kind: 'ok', text: `✓ ${nameOf(state, selected)} placed (GM).` } : { kind: 'error', text: r.error.message, rule: r.error.rule });
      }
      return;
    }
    const a = move.answer;
    const k = JSON.stringify(to);
    const t = a.reachable.find((x) => JSON.stringify(x.to) === k);
    if (t) {
      if (chosen && JSON.stringify(chosen.to) === k) return confirm(t);
      setChosen(t);
      setNote({ kind: 'info', text: `${words(a.space, t)}.${t.provokes && state ? ' ' + provokeWords(state, a.space, t) : ''} Tap it again or press Confirm.` });
      return;
    }
    setChosen(null);
    if (isCell(to)) setRefusedAt(to);
    const refused = a.refused.find((x) => JSON.stringify(x.to) === k);
    if (refused) return setNote({ kind: 'error', text: `Not there: ${refused.error.message}`, rule: refused.error.rule });
    const o = move.option;
    const e = await live.reach({ combatantId: move.combatantId, command: o.command, ...(o.action ? { action: o.action } : {}), ...(o.template ? { template: o.template } : {}), params: move.params, to });
    const why = e.ok ? e.explain?.error : e.error;
    setNote({ kind: 'error', text: `Not there: ${why?.message ?? `out of reach (more than ${a.maxSteps ?? '?'} steps).`}`, rule: (why as WireError | undefined)?.rule });
  };

  const [placing, setPlacing] = useState(false);
  const [editingWalls, setEditingWalls] = useState(false);
  const onDrop = gm
    ? async (id: string, to: Cell) => {
        if (!live) return;
        const r = await live.send({ type: 'combatant.place', combatantId: id, position: to });
        setNote(r.ok ? { kind: 'ok', text: `✓ ${nameOf(state, id)} placed at ${cellName(space!.kind as GridKind, to)} (GM placement, not a move by the rules).` } : { kind: 'error', text: r.error.message, rule: r.error.rule });
      }
    : undefined;

  if (!state || !space) return { api: null, element: null }; // no map, no map tools: forms ask in their own fields
  const highlight = state.reaction?.trigger.combatantId ?? null;
  const sel = selected ? state.combatants[selected] : undefined;
  const element = space ? (
    <section className="map-panel" aria-label={title} data-testid="map-panel">
      <BattleMap state={state} space={space} isMine={isMine} selected={selected} highlight={highlight} marks={{ reach: move?.answer ?? null, chosen, refusedAt }} onToken={onToken} onCell={(to) => void onCell(to)} onDrop={onDrop} walls={editingWalls} placing={gm && placing ? selected : null} title={title} display={ruleset?.display as RulesetDisplay | undefined} numbers={gm ? allNumbers : isMine} />
      {gm && live && space.kind !== 'zones' ? <MapTools live={live} state={state} kind={space.kind} editingWalls={editingWalls} setEditingWalls={setEditingWalls} /> : null}
      <div className="map-status">
        {highlight && state.reaction ? (
          <p className="map-reaction" role="status">
            ⚡ Reaction: {state.reaction.trigger.description}
          </p>
        ) : null}
        {sel && !move ? (
          <p>
            Selected: <strong>{sel.name}</strong>
            {moves.length === 0 && canCommand(sel.id) && state.status === 'active' ? <span className="muted"> — no movement possible now</span> : null}
            {!canCommand(sel.id) ? <span className="muted"> — not yours to move</span> : null}
          </p>
        ) : null}
        {sel && !move && moves.length > 0 ? (
          <div className="row wrap" role="group" aria-label={`Move ${sel.name}`}>
            {moves.map((o, i) => (
              <button key={i} type="button" className="action" onClick={() => api.startMove(sel.id, o, {})}>
                {o.label}
                {o.provokes ? <span className="tag tag-warn">! may provoke</span> : null}
              </button>
            ))}
          </div>
        ) : null}
        {gm && sel && !move ? (
          <button type="button" aria-pressed={placing} onClick={() => setPlacing(!placing)}>
            {placing ? `Tap a ${space.kind === 'zones' ? 'zone’s Place button' : space.kind === 'hexes' ? 'hex' : 'square'} to place ${sel.name} (GM)… (press to cancel)` : `Place ${sel.name} (GM)`}
          </button>
        ) : null}
        {!sel && !move ? (
          <p className="muted">
            {canCommand === noOne
              ? 'Tap a token to see who it is.'
              : gm
                ? 'Tap a token to select it; drag it to place it (GM).'
                : state.clock.current && canCommand(state.clock.current)
                  ? 'Your turn: tap your token to move it.'
                  : 'Not your turn: the map follows the fight.'}
          </p>
        ) : null}
        {move ? (
          <p>
            <strong>{nameOf(state, move.combatantId)}</strong>: {move.option.label}
            {move.answer?.maxSteps ? <span className="muted"> (up to {move.answer.maxSteps} steps)</span> : null}
          </p>
        ) : null}
        {note ? (
          <p className={note.kind === 'error' ? 'field-error' : note.kind === 'ok' ? 'ok' : 'map-note'} role={note.kind === 'error' ? 'alert' : 'status'} data-testid="map-note">
            {note.text}
            {note.rule ? <span className="rule"> ({note.rule})</span> : null}
          </p>
        ) : null}
        {move?.answer && move.answer.reachable.length > 0 ? (
          <DestinationList answer={move.answer} state={state} chosen={chosen} onChoose={(t) => void onCell(t.to)} />
        ) : null}
        {move ? (
          <div className="row">
            {chosen ? (
              <button type="button" className="primary" disabled={busy} onClick={() => void confirm(chosen)}>
                {busy ? 'Moving…' : `Confirm: ${move.option.label}`}
              </button>
            ) : null}
            <button type="button" onClick={cancel}>
              Cancel move
            </button>
          </div>
        ) : null}
      </div>
    </section>
  ) : null;
  return { api, element };
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
export const cellKeyOf = cellKey;
