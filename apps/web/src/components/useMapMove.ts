import { useCallback, useEffect, useRef, useState } from 'react';
import { nameOf } from '../lib/describe.js';
import type { Live } from '../lib/live.js';
import type { Cell } from '../lib/geometry.js';
import type { ActionOption, EncounterState } from '../lib/types.js';
import type { ReachOk, ReachTarget } from './map-tokens.js';

/** A movement option under way: where the server says it can go (`answer`), once it has said. */
export interface Move {
  combatantId: string;
  option: ActionOption;
  params: Record<string, unknown>;
  answer: ReachOk | null;
}
export type Note = { kind: 'info' | 'error' | 'ok'; text: string; rule?: string | undefined } | null;

/** The server's `reach` for a move: where it can go (with `to`: also why not there). */
export function askReach(live: Live, m: Move, to?: unknown) {
  const o = m.option;
  return live.reach({
    combatantId: m.combatantId,
    command: o.command,
    ...(o.action ? { action: o.action } : {}),
    ...(o.template ? { template: o.template } : {}),
    params: m.params,
    ...(to !== undefined ? { to } : {}),
  });
}

const tapHint = (a: ReachOk): string =>
  a.reachable.length
    ? `Tap a highlighted ${a.space === 'zones' ? 'zone or character' : a.space === 'hexes' ? 'hex' : 'square'} to see the path.`
    : 'Nowhere to go with this option now.';

/**
 * A move on the map: ask the server where the mover can go (`reach`), keep the chosen destination,
 * send the move at the version the answer was for (asking again when the map changed meanwhile).
 */
export function useMapMove(live: Live | null, state: EncounterState | null, version: number) {
  const [move, setMove] = useState<Move | null>(null);
  const [chosen, setChosen] = useState<ReachTarget | null>(null);
  const [refusedAt, setRefusedAt] = useState<Cell | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const versionRef = useRef(version);
  versionRef.current = version;
  /** bumped when a move starts, ends or is sent: a reach answer for an older one is dropped */
  const gen = useRef(0);
  const sending = useRef(false);

  const loadReach = useCallback(
    async (m: Move, keep?: ReachTarget | null) => {
      if (!live) return;
      const mine = gen.current;
      const a = await askReach(live, m);
      if (mine !== gen.current) return;
      if (!a.ok) {
        setMove(null);
        setNote({ kind: 'error', text: a.error.message, rule: a.error.rule });
        return;
      }
      setMove({ ...m, answer: a });
      const again = keep ? a.reachable.find((t) => JSON.stringify(t.to) === JSON.stringify(keep.to)) : undefined;
      setChosen(again ?? null);
      if (keep && !again)
        setNote({ kind: 'error', text: 'The map changed (someone moved): that destination is no longer reachable. Choose again.' });
      else if (!keep) setNote({ kind: 'info', text: tapHint(a) });
    },
    [live],
  );

  // A stale map re-syncs: when the state moves on, ask again where the mover can go.
  useEffect(() => {
    if (move?.answer && move.answer.version !== version && !sending.current) void loadReach(move, chosen);
    // a "done" line says what just happened; once the fight moves on it is old news
    else if (!move && note?.kind === 'ok' && !sending.current) setNote(null);
  }, [version]);

  const start = useCallback(
    (combatantId: string, option: ActionOption, params: Record<string, unknown>) => {
      gen.current += 1;
      setChosen(null);
      setRefusedAt(null);
      const m = { combatantId, option, params, answer: null };
      setMove(m);
      setNote({ kind: 'info', text: 'Asking the server where you can go…' });
      void loadReach(m);
    },
    [loadReach],
  );

  const cancel = () => {
    gen.current += 1;
    setMove(null);
    setChosen(null);
    setRefusedAt(null);
    setNote(null);
  };

  const r = { live, state, move, setMove, setChosen, setNote, setBusy, versionRef, gen, sending, loadReach };
  const confirm = makeConfirm(r);
  return { move, chosen, setChosen, refusedAt, setRefusedAt, note, setNote, busy, start, cancel, confirm };
}
export type MapMove = ReturnType<typeof useMapMove>;

interface MoveRefs {
  live: Live | null;
  state: EncounterState | null;
  move: Move | null;
  setMove: (m: Move | null) => void;
  setChosen: (t: ReachTarget | null) => void;
  setNote: (n: Note) => void;
  setBusy: (b: boolean) => void;
  versionRef: { current: number };
  gen: { current: number };
  sending: { current: boolean };
  loadReach: (m: Move, keep?: ReachTarget | null) => Promise<void>;
}

/** Confirm: send the move at the version the answer was for; ask again when the map changed meanwhile. */
function makeConfirm({ live, state, move, setMove, setChosen, setNote, setBusy, versionRef, gen, sending, loadReach }: MoveRefs) {
  return async (t: ReachTarget) => {
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
}
