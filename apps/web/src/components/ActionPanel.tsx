import { useEffect, useId, useState, type ReactNode } from 'react';
import type { Live } from '../lib/live.js';
import type { ActionOption, EncounterState, WireError } from '../lib/types.js';
import { ActionForm } from './actions/ActionForm.js';
import { BlockedActions, FlatActions, GroupedActions, type ListProps, type ListShape } from './actions/lists.js';
import { displayOf } from '../lib/display.js';
import { loadRulesets } from '../lib/rulesets.js';
import { useAsync } from '../lib/useAsync.js';
import { commandFor } from './actions/params.js';
import { ErrorMessage } from './common.js';
import { destinationParam, useMapApi } from './map-context.js';

/** The legal actions of a combatant, asked again at every version. */
function useActions(live: Live, combatantId: string, version: number): { actions: ActionOption[] | null; loadError: unknown } {
  const [actions, setActions] = useState<ActionOption[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  useEffect(() => {
    let live_ = true;
    live.actions(combatantId).then(
      (a) => {
        if (!live_) return;
        setActions(a);
        setLoadError(null);
      },
      (e: unknown) => live_ && setLoadError(e),
    );
    return () => {
      live_ = false;
    };
  }, [live, combatantId, version]);
  return { actions, loadError };
}

/** The ruleset's `display.actions` (GET /rulesets, loaded once a page): common actions, kinds in words. */
function useListShape(ruleset: string): ListShape {
  const rulesets = useAsync(() => loadRulesets(), []);
  const a = displayOf(rulesets.data, ruleset).actions;
  return { common: a?.common ?? [], kinds: a?.kinds ?? {} };
}

type Result = { ok: true; label: string } | { ok: false; error: WireError } | null;

interface PanelProps {
  live: Live;
  state: EncounterState;
  version: number;
  combatantId: string;
  showBlocked?: boolean;
  blockedOpen?: boolean;
  /** the "your turn" card: the possible actions grouped by kind (folded when many), with search */
  grouped?: boolean;
  /** a success is shown by the page instead (the panel may be gone by then: the turn passed) */
  onDone?: (label: string) => void;
  /** the your-turn card's End my turn bar, given the ruleset's own end-turn option (left out of the lists) */
  endBar?: (endTurn: ActionOption | undefined) => ReactNode;
}

function ResultLine({ result, clear, shownByPage }: { result: Result; clear: () => void; shownByPage: boolean }) {
  if (!result) return null;
  if (!result.ok) return <ErrorMessage error={result.error} onDismiss={clear} />;
  return shownByPage ? null : (
    <p className="ok" role="status">
      ✓ {result.label} done.
    </p>
  );
}

/** Running an action: at once, through its form, or on the map (a destination); the result line. */
function useRun(live: Live, combatantId: string, onDone: PanelProps['onDone']) {
  const [open, setOpen] = useState<number | null>(null);
  // a result belongs to who acted: when another combatant acts (the next NPC's turn), it is not shown
  const [held, setHeld] = useState<{ who: string; result: Result }>({ who: combatantId, result: null });
  const result = held.who === combatantId ? held.result : null;
  const setResult = (r: Result) => setHeld({ who: combatantId, result: r });
  const [busy, setBusy] = useState(false);
  const mapApi = useMapApi();
  useEffect(() => setOpen(null), [combatantId]);
  const run = async (a: ActionOption, i: number) => {
    setResult(null);
    const dest = mapApi ? destinationParam(a) : undefined;
    if (mapApi && dest && (a.params ?? []).every((p) => p === dest || p.optional)) return mapApi.startMove(combatantId, a, {});
    if ((a.params ?? []).length > 0) return setOpen(i);
    setBusy(true);
    const r = await live.send(commandFor(a, {}));
    setBusy(false);
    setResult(r.ok ? { ok: true, label: a.label } : r);
    if (r.ok) onDone?.(a.label);
  };
  return { open, setOpen, result, setResult, busy, run };
}

/** The ruleset's own "end the turn" option (`turn.end`), which the your-turn card shows as its End my turn bar. */
const isEndTurn = (a: ActionOption): boolean => a.command === 'turn.end';

/**
 * What one combatant may do now, from the server's `legalActions`: the allowed ones as buttons
 * with their cost, the blocked ones with the rule that blocks them, the parameters each needs.
 */
export function ActionPanel({
  live,
  state,
  version,
  combatantId,
  showBlocked = true,
  blockedOpen = false,
  grouped = false,
  onDone,
  endBar,
}: PanelProps) {
  const { actions: all, loadError } = useActions(live, combatantId, version);
  const { open, setOpen, result, setResult, busy, run } = useRun(live, combatantId, onDone);
  const shape = useListShape(state.ruleset);
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const name = state.combatants[combatantId]?.name ?? combatantId;
  if (loadError) return <ErrorMessage error={loadError} />;
  if (!all) return <p className="muted">Loading actions…</p>;
  // with an End my turn bar, the ruleset's end-turn option is that bar (one button, not two)
  const actions = endBar ? all.filter((a) => !isEndTurn(a)) : all;
  const allowed = actions.filter((a) => a.allowed);
  const many = allowed.length > 10;
  const needle = filter.trim().toLowerCase();
  const lists: ListProps = {
    actions,
    name,
    open,
    busy,
    run: (a, i) => void run(a, i),
    shape,
    shown: (a) => !needle || a.label.toLowerCase().includes(needle) || (a.kind ?? '').toLowerCase().includes(needle),
  };
  const form = open !== null ? actions[open] : undefined;
  const blockedList =
    showBlocked && actions.some((a) => !a.allowed) ? (
      <BlockedActions p={lists} combatantId={combatantId} open={blockedOpen} onShow={(error) => setResult({ ok: false, error })} />
    ) : null;
  return (
    <div className="actions" data-testid={`actions-${combatantId}`}>
      {allowed.length === 0 ? <p className="muted">{name} has no legal action right now.</p> : null}
      {open !== null && form ? (
        <ActionForm
          key={`${open}-${version}`}
          option={form}
          live={live}
          state={state}
          actorId={combatantId}
          onDone={(r) => {
            setOpen(null);
            if (r) setResult(r.ok ? { ok: true, label: form.label } : r);
            if (r?.ok) onDone?.(form.label);
          }}
        />
      ) : null}
      {/* where the form was, above the lists: a refusal is read where the player tapped, not under the End my turn bar */}
      <ResultLine result={result} clear={() => setResult(null)} shownByPage={onDone !== undefined} />
      {many ? (
        <div className="field">
          <label htmlFor={filterId}>Find an action ({allowed.length} possible)</label>
          <input
            id={filterId}
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="e.g. attack, move, minor"
          />
        </div>
      ) : null}
      {grouped ? <GroupedActions p={lists} many={many} needle={needle} blocked={blockedList} /> : null}
      <FlatActions p={lists} hidden={grouped} />
      {grouped ? null : blockedList}
      {endBar ? endBar(all.find(isEndTurn)) : null}
    </div>
  );
}
