import type { ReactNode } from 'react';
import { PendingRulings } from '../../components/Rulings.js';
import { Countdown, Section, TurnOrder } from '../../components/common.js';
import { nameOf } from '../../lib/describe.js';
import { reactionName, type RulesetDisplay } from '../../lib/display.js';
import type { Live, LiveSnapshot } from '../../lib/live.js';
import type { EncounterState, RulesetInfo } from '../../lib/types.js';
import { TurnTimer } from './GmTools.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/** The open reaction window: what triggered it (in the ruleset's words), who may react, their answers. */
function ReactionPanel({
  state,
  ruleset,
  deadlineAt,
  children,
}: {
  state: EncounterState;
  ruleset: RulesetInfo | undefined;
  deadlineAt: number | null;
  children?: ReactNode;
}) {
  const w = state.reaction;
  if (!w) return null;
  return (
    <div className="reaction" role="region" aria-label="Reaction window" data-testid="reaction-window">
      <p>
        <strong>! Reaction window</strong> ({reactionName(ruleset, w.kind)}) — {w.trigger.description}
        {deadlineAt ? (
          <>
            {' '}
            <Countdown at={deadlineAt} label="Reaction window closes" />
          </>
        ) : null}
      </p>
      <ul>
        {w.eligible.map((id) => (
          <li key={id}>
            {nameOf(state, id)}: <strong>{w.responses[id] ?? 'pending'}</strong>
          </li>
        ))}
      </ul>
      {children}
    </div>
  );
}

function TurnControls({ state, send }: { state: EncounterState; send: Send }) {
  const current = state.clock.current;
  return (
    <div className="row" data-testid="turn-controls">
      {state.status === 'setup' ? (
        <button type="button" className="primary" onClick={() => void send({ type: 'combat.start' }, 'Combat started.')}>
          Start combat
        </button>
      ) : null}
      {state.status === 'active' && current ? (
        <button
          type="button"
          onClick={() => void send({ type: 'turn.end', combatantId: current }, `${nameOf(state, current)}'s turn ended.`)}
        >
          End {nameOf(state, current)}'s turn
        </button>
      ) : null}
      {/* ending a fight that has not begun means nothing to a GM: only once it has */}
      {state.status === 'active' ? (
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm('End this combat?') && void send({ type: 'combat.end' }, 'Combat ended.')}
        >
          End combat
        </button>
      ) : null}
    </div>
  );
}

/** The turn order and what moves it on: start, end a turn, the timer, the reaction window, the GM's rulings. */
export function TurnSection({
  live,
  snap,
  state,
  ruleset,
  display,
  send,
}: {
  live: Live;
  snap: LiveSnapshot;
  state: EncounterState;
  ruleset: RulesetInfo | undefined;
  display: RulesetDisplay;
  send: Send;
}) {
  return (
    <Section title="Turn order" id="turns">
      <TurnOrder state={state} display={display} numbers={() => true} />
      <TurnControls state={state} send={send} />
      {snap.deadlines.turn ? (
        <p>
          {nameOf(state, snap.deadlines.turn.combatantId)}'s turn ends in <Countdown at={snap.deadlines.turn.at} label="Turn ends" />
        </p>
      ) : null}
      {state.status === 'active' ? <TurnTimer live={live} /> : null}
      <ReactionPanel state={state} ruleset={ruleset} deadlineAt={snap.deadlines.reaction?.at ?? null}>
        <button type="button" onClick={() => void send({ type: 'reaction.resolve' }, 'Reaction window resolved.')}>
          Resolve / skip the reaction window
        </button>
      </ReactionPanel>
      <PendingRulings display={display} state={state} send={send} />
    </Section>
  );
}
