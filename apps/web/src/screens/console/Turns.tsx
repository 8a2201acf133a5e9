import type { ReactNode } from 'react';
import { PendingRulings } from '../../components/Rulings.js';
import { Countdown, Section, TurnOrder } from '../../components/common.js';
import { nameOf } from '../../lib/describe.js';
import { reactionName, type RulesetDisplay } from '../../lib/display.js';
import type { Live, LiveSnapshot } from '../../lib/live.js';
import type { EncounterState, RulesetInfo } from '../../lib/types.js';
import { TurnTimer } from './GmTools.js';
import { NpcReactions, NpcTurn } from './GmTurn.js';
import { HarmAsks } from './Harm.js';

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

/** Before the fight: who is in it (the turn order is made when combat starts). */
function SetupRoster({ state }: { state: EncounterState }) {
  const all = Object.values(state.combatants);
  if (state.status !== 'setup' || all.length === 0) return null;
  return (
    <div data-testid="setup-roster">
      <p className="muted">In the fight ({all.length}); the turn order is made when combat starts:</p>
      <ul className="roster">
        {all.map((c) => (
          <li key={c.id}>
            {c.name} <span className="muted">({c.side})</span>
            {c.hidden ? <span className="tag tag-secret">hidden</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TurnControls({ state, send }: { state: EncounterState; send: Send }) {
  const current = state.clock.current;
  const empty = Object.keys(state.combatants).length === 0;
  return (
    <div className="row" data-testid="turn-controls">
      {state.status === 'setup' ? (
        <button
          type="button"
          className={empty ? undefined : 'primary'}
          disabled={empty}
          aria-describedby={empty ? 'start-why' : undefined}
          onClick={() => void send({ type: 'combat.start' }, 'Combat started.')}
        >
          Start combat
        </button>
      ) : null}
      {state.status === 'setup' && empty ? (
        <span className="muted" id="start-why">
          Add combatants first (below, or Quick NPCs).
        </span>
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
          onClick={() =>
            window.confirm('End this combat for everyone? The fight stops here (↶ Undo brings it back).') &&
            void send({ type: 'combat.end' }, 'Combat ended.')
          }
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
  encounterId,
}: {
  encounterId: string;
  live: Live;
  snap: LiveSnapshot;
  state: EncounterState;
  ruleset: RulesetInfo | undefined;
  display: RulesetDisplay;
  send: Send;
}) {
  return (
    <Section title="Turn order" id="turns">
      {/* first: the harm the rules left to the GM, then the NPC the GM plays now (the order below can be long) */}
      <HarmAsks display={display} state={state} log={snap.log} encounterId={encounterId} send={send} />
      <NpcTurn live={live} version={snap.version} state={state} />
      {/* End X's turn before the order (which can be long): in a phone's first screen */}
      {state.status === 'setup' ? null : <TurnControls state={state} send={send} />}
      <TurnOrder state={state} display={display} numbers={() => true} />
      <SetupRoster state={state} />
      {state.status === 'setup' ? <TurnControls state={state} send={send} /> : null}
      {snap.deadlines.turn ? (
        <p>
          {nameOf(state, snap.deadlines.turn.combatantId)}'s turn ends in <Countdown at={snap.deadlines.turn.at} label="Turn ends" />
        </p>
      ) : null}
      {state.status === 'active' ? <TurnTimer live={live} /> : null}
      <ReactionPanel state={state} ruleset={ruleset} deadlineAt={snap.deadlines.reaction?.at ?? null}>
        <NpcReactions live={live} version={snap.version} state={state} />
        <button type="button" onClick={() => void send({ type: 'reaction.resolve' }, 'Reaction window resolved.')}>
          Resolve / skip the reaction window
        </button>
      </ReactionPanel>
      <PendingRulings display={display} state={state} send={send} />
    </Section>
  );
}
