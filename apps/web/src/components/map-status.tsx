import { cellName, isCell, type GridKind } from '../lib/geometry.js';
import { nameOf } from '../lib/describe.js';
import type { ActionOption, EncounterState, RulesetInfo } from '../lib/types.js';
import { noOne, type MapApi, type PanelProps } from './map-context.js';
import type { ReachOk, ReachTarget } from './map-tokens.js';
import type { MapMove, Move, Note } from './useMapMove.js';

/** A destination in words: "C4: 3 squares", or the zone's name. */
export function words(space: string, t: ReachTarget): string {
  if (space === 'zones') return t.label ?? 'there';
  const unit = space === 'hexes' ? 'hex' : 'square';
  const kind: GridKind = space === 'hexes' ? 'hexes' : 'squares';
  return `${isCell(t.to) ? cellName(kind, t.to) : JSON.stringify(t.to)}: ${t.steps} ${unit}${t.steps === 1 ? '' : space === 'hexes' ? 'es' : 's'}`;
}
/** Who a move provokes and where, in words. */
export function provokeWords(state: EncounterState, space: string, t: ReachTarget): string | null {
  if (!t.provokes) return null;
  const who = t.provokes.from.map((id) => nameOf(state, id)).join(', ');
  const where =
    space === 'zones'
      ? ''
      : t.provokes.at === 0
        ? ' as you leave your starting ' + (space === 'hexes' ? 'hex' : 'square')
        : ` after step ${t.provokes.at}`;
  return `⚠ Provokes${where}: ${who} may react (${t.provokes.description}).`;
}

/** What the status under the map shows. */
export interface PanelView {
  p: PanelProps;
  state: EncounterState;
  space: NonNullable<RulesetInfo['space']>;
  selected: string | null;
  /** the selected token's movement options, blocked ones included (with the engine's reason) */
  moves: ActionOption[];
  mv: MapMove;
  placing: boolean;
  setPlacing: (v: boolean) => void;
  onCell: (to: unknown) => Promise<void>;
  startMove: MapApi['startMove'];
}

/** Whether a position puts a token on the map (a cell, a zone): not when missing or in words only. */
const placed = (position: unknown): boolean => typeof position === 'object' && position !== null;

/**
 * For the GM: who is not on the map yet (a quick add or a form without a position leaves them off),
 * and how to place them. Nothing when the ruleset has no map or everyone is placed.
 */
export function NotOnMapNote({ state, space }: { state: EncounterState; space: RulesetInfo['space'] | null | undefined }) {
  if (!space) return null;
  const off = Object.values(state.combatants).filter((c) => !placed(c.position));
  if (!off.length) return null;
  const where = space.kind === 'zones' ? 'a zone’s “Place … here” button' : space.kind === 'hexes' ? 'a hex' : 'a square';
  return (
    <p role="status" data-testid="not-on-map">
      Not on the map yet: {off.map((c) => c.name).join(', ')} — tap one under Not placed, then {where}.
    </p>
  );
}

/** The selected token and its movement options, or the GM's placement, or a hint. */
function Selection({ v }: { v: PanelView }) {
  const { p, state, space, placing } = v;
  const moves = v.moves.filter((o) => o.allowed);
  const why = v.moves.find((o) => !o.allowed && o.blocked)?.blocked?.message;
  const sel = v.selected ? state.combatants[v.selected] : undefined;
  if (!sel) {
    // a player whose token the GM has not placed yet: say so (no move, no reach until then)
    const unplaced = p.gm ? undefined : Object.values(state.combatants).find((c) => p.canCommand(c.id) && !placed(c.position));
    if (unplaced)
      return (
        <p className="muted" data-testid="not-placed-note">
          {unplaced.name}&apos;s token is not on the map yet: the GM places it. Until then {unplaced.name} cannot move, nor reach anyone in
          melee.
        </p>
      );
    if (p.gm && Object.values(state.combatants).some((c) => !placed(c.position))) return <NotOnMapNote state={state} space={space} />;
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
        {moves.length === 0 && p.canCommand(sel.id) && state.status === 'active' ? (
          <span className="muted"> — no movement possible now{why ? `: ${why}` : ''}</span>
        ) : null}
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
          {placing
            ? `Tap a ${space.kind === 'zones' ? 'zone’s Place button' : space.kind === 'hexes' ? 'hex' : 'square'} to place ${sel.name} (GM)… (press to cancel)`
            : `Place ${sel.name} (GM)`}
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
      {move.answer && move.answer.reachable.length > 0 ? (
        <DestinationList answer={move.answer} state={state} chosen={mv.chosen} onChoose={(t) => void v.onCell(t.to)} />
      ) : null}
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
    <p
      className={note.kind === 'error' ? 'field-error' : note.kind === 'ok' ? 'ok' : 'map-note'}
      role={note.kind === 'error' ? 'alert' : 'status'}
      data-testid="map-note"
    >
      {note.text}
      {note.rule ? <span className="rule"> ({note.rule})</span> : null}
    </p>
  );
}

export function MapStatus({ v }: { v: PanelView }) {
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
function DestinationList({
  answer,
  state,
  chosen,
  onChoose,
}: {
  answer: ReachOk;
  state: EncounterState;
  chosen: ReachTarget | null;
  onChoose: (t: ReachTarget) => void;
}) {
  const key = (t: ReachTarget) => JSON.stringify(t.to);
  return (
    <div className="field">
      <label htmlFor="map-destination">Or choose a destination</label>
      <select
        id="map-destination"
        value={chosen ? key(chosen) : ''}
        onChange={(e) => {
          const t = answer.reachable.find((x) => key(x) === e.target.value);
          if (t) onChoose(t);
        }}
      >
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
