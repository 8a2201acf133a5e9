import { useState } from 'react';
import { ActionPanel } from '../components/ActionPanel.js';
import { MapContext, noOne, useMapPanel } from '../components/MapPanel.js';
import {
  CombatantCard,
  ConnectionBadge,
  Countdown,
  ErrorMessage,
  GroupedStats,
  OfflineBanner,
  PlainErrors,
  Section,
  TurnOrder,
} from '../components/common.js';
import { StoryLog } from '../components/Log.js';
import { VerifyDice } from '../components/VerifyDice.js';
import { Vitals } from '../components/Vitals.js';
import { nameOf } from '../lib/describe.js';
import { displayOf, phaseName, reactionName, type RulesetDisplay } from '../lib/display.js';
import type { Live, LiveSnapshot } from '../lib/live.js';
import { loadRulesets } from '../lib/rulesets.js';
import { useAsync } from '../lib/useAsync.js';
import type { ActionOption, EncounterState, RulesetInfo, WireError } from '../lib/types.js';
import { useLive } from '../lib/useLive.js';
import { waitingFor } from '../lib/turn-flow.js';
import { FightOver, OwnResult, PhaseHint, UpNext, useTurnCue, WaitingNote } from './player/TurnNews.js';

function fatalText(e: WireError): string {
  if (['UNAUTHORIZED', 'FORBIDDEN'].includes(e.code))
    return 'This invite link is not valid: it has expired, was revoked, or was mistyped. Ask your GM for a new one.';
  if (e.code === 'NOT_FOUND') return 'This encounter does not exist (any more). Ask your GM for a new link.';
  if (e.code === 'ENCOUNTER_ARCHIVED') return 'This encounter has been archived by the GM.';
  if (e.code === 'ENCOUNTER_DELETED') return 'The GM deleted this encounter. Nothing of it is kept; ask your GM for a new link.';
  return e.message;
}

/** Not joined (yet): a link without its token, a refused join, or joining. */
function NotJoined({ token, fatal }: { token: string; fatal: WireError | null | undefined }) {
  if (!token) {
    return (
      <main className="narrow-page">
        <h1>Invite link incomplete</h1>
        <div className="error" role="alert">
          ⚠ This link has no invite token (the part after <code>#</code>). Copy the whole link from your GM.
        </div>
      </main>
    );
  }
  if (fatal) {
    return (
      <main className="narrow-page">
        <h1>{fatal.code === 'ENCOUNTER_DELETED' ? 'Encounter deleted' : 'Cannot join'}</h1>
        <div className="error" role="alert" data-testid="join-error">
          ⚠ {fatalText(fatal)}{' '}
          <span className="muted">
            ({fatal.code}: {fatal.message})
          </span>
        </div>
        <p>
          <a href="/">Fray home</a>
        </p>
      </main>
    );
  }
  return (
    <main className="narrow-page">
      <p role="status">Joining the encounter…</p>
    </main>
  );
}

/** What this page sees of the encounter, for its parts. */
interface Seat {
  live: Live;
  snap: LiveSnapshot;
  state: EncounterState;
  display: RulesetDisplay;
  isMine: (id: string) => boolean;
  /** my combatants that may react in the open window and have not answered */
  myReactors: string[];
}

/** The page shows what a command did (`OwnResult`, from `snap.lastOwn`), not the action panel. */
const shownByPage = (): void => undefined;

function ClockLine({ state, display }: { state: EncounterState; display: RulesetDisplay }) {
  const current = state.clock.current;
  return (
    <p className="clock-line" data-testid="clock-line">
      Round {state.clock.round}
      {state.clock.phase ? ` · ${phaseName(display, state.clock.phase)}` : ''} ·{' '}
      {state.status === 'setup'
        ? 'waiting for the GM to start'
        : state.status === 'ended'
          ? 'combat over'
          : current
            ? `${nameOf(state, current)} acts`
            : 'between turns'}
    </p>
  );
}

/** Whether the ruleset's end-turn option says no more than "end the turn" (else its words are shown under the button). */
const plainEnd = (label: string): boolean => /^end (my |your )?turn$/i.test(label.trim());

/** The bar at the bottom of the your-turn card: End my turn (the ruleset's own end-turn option, in its words when they say more). */
function EndTurnBar({ p, current, option }: { p: Seat; current: string; option: ActionOption | undefined }) {
  const [sent, setSent] = useState<{ ok: boolean; error?: WireError } | null>(null);
  const [busy, setBusy] = useState(false);
  // the server refuses to end a turn while a reaction window is open: say why instead
  const blocked = waitingFor(p.display, p.state, p.isMine).blocks ? 'You can end your turn once the reactions are settled.' : null;
  return (
    <>
      <div className="end-turn-bar">
        {blocked ? (
          <p className="muted end-turn-why" id="end-turn-why">
            {blocked}
          </p>
        ) : null}
        <button
          type="button"
          className="primary end-turn"
          disabled={busy || blocked !== null}
          aria-describedby={blocked ? 'end-turn-why' : undefined}
          onClick={async () => {
            setBusy(true);
            const r = await p.live.send({ type: 'turn.end', combatantId: current, label: 'End my turn' });
            setBusy(false);
            setSent(r.ok ? { ok: true } : { ok: false, error: r.error });
          }}
        >
          {busy ? 'Ending your turn…' : 'End my turn'}
          {option && !plainEnd(option.label) ? <small className="end-turn-note">{option.label}</small> : null}
        </button>
      </div>
      {sent && !sent.ok ? <ErrorMessage error={sent.error} onDismiss={() => setSent(null)} /> : null}
    </>
  );
}

/** My combatant's turn: its vitals, its actions (unless it is answering a reaction), End my turn. */
function YourTurnCard({ p, current }: { p: Seat; current: string }) {
  const { live, snap, state } = p;
  const acting = state.status === 'active' && !(state.reaction && p.myReactors.includes(current));
  const bar = (option: ActionOption | undefined) => <EndTurnBar p={p} current={current} option={option} />;
  return (
    <section className="your-turn-card" aria-labelledby="your-turn-h" data-testid="your-turn-card">
      <div className="banner banner-turn" role="status" data-testid="your-turn">
        <h2 id="your-turn-h">▶ Your turn: {nameOf(state, current)}</h2>
        {snap.deadlines.turn && snap.deadlines.turn.combatantId === current ? (
          <>
            {' '}
            — ends in <Countdown at={snap.deadlines.turn.at} label="Your turn ends" />
          </>
        ) : null}
        <Vitals display={p.display} state={state} c={state.combatants[current]!} numbers />
      </div>
      <PhaseHint state={state} display={p.display} />
      <OwnResult snap={snap} state={state} display={p.display} mine={p.isMine} inCard />
      <WaitingNote state={state} display={p.display} mine={p.isMine} />
      {acting ? (
        <ActionPanel live={live} state={state} version={snap.version} combatantId={current} grouped onDone={shownByPage} endBar={bar} />
      ) : null}
      {state.status === 'active' && !acting ? bar(undefined) : null}
    </section>
  );
}

/** The open reaction window: a prompt when one of mine may react (what triggered it, in the ruleset's words), else a line. */
function ReactionPrompt({ p, ruleset }: { p: Seat; ruleset: RulesetInfo | undefined }) {
  const { live, snap, state, myReactors } = p;
  const w = state.reaction;
  if (!w) return null;
  // on my turn the your-turn card says what it waits for
  if (myReactors.length === 0 && state.clock.current !== null && p.isMine(state.clock.current)) return null;
  if (myReactors.length === 0) {
    return (
      <p className="muted" role="status">
        Waiting for reactions: {w.trigger.description}
      </p>
    );
  }
  return (
    <section className="reaction prompt" role="alertdialog" aria-labelledby="react-h" data-testid="reaction-prompt">
      <h2 id="react-h">
        ! You may react {snap.deadlines.reaction ? <Countdown at={snap.deadlines.reaction.at} label="Time left to react" /> : null}
      </h2>
      <p>
        {w.trigger.description} ({reactionName(ruleset, w.kind)})
      </p>
      {myReactors.map((id) => (
        <div key={id}>
          <h3>{nameOf(state, id)}</h3>
          <ActionPanel live={live} state={state} version={snap.version} combatantId={id} showBlocked={false} />
        </div>
      ))}
    </section>
  );
}

function MineSection({ p, myTurn }: { p: Seat; myTurn: boolean }) {
  const { live, snap, state } = p;
  const mine = Object.values(state.combatants).filter((c) => p.isMine(c.id));
  const current = state.clock.current;
  return (
    <Section title={mine.length === 1 ? 'Your combatant' : 'Your combatants'} id="mine">
      {mine.length === 0 ? <p className="muted">No combatant is bound to this invite.</p> : null}
      {mine.map((c) => (
        <CombatantCard key={c.id} state={state} c={c} mine openData={!myTurn} display={p.display}>
          {/* the acting one's actions are in the your-turn card above */}
          {state.status === 'active' && current !== c.id && !(state.reaction && p.myReactors.includes(c.id)) ? (
            <>
              <h4>Actions</h4>
              <ActionPanel live={live} state={state} version={snap.version} combatantId={c.id} onDone={shownByPage} />
            </>
          ) : null}
        </CombatantCard>
      ))}
    </Section>
  );
}

function OthersSection({ p, spectator }: { p: Seat; spectator: boolean }) {
  const { state } = p;
  const others = Object.values(state.combatants).filter((c) => !p.isMine(c.id));
  return (
    <Section title={spectator ? 'Combatants' : 'Others'} id="others">
      {others.length === 0 ? <p className="muted">None visible.</p> : null}
      <ul className="others">
        {others.map((c) => {
          const fx = state.effects.filter((e) => e.targetId === c.id);
          return (
            <li key={c.id} data-testid={`other-${c.id}`}>
              <strong>{c.name}</strong> <span className="muted">({c.side})</span>
              {state.clock.current === c.id ? <span className="tag tag-acting">acting</span> : null}
              {fx.length > 0 ? <span> — {fx.map((e) => e.condition ?? e.name).join(', ')}</span> : null}
              <Vitals display={p.display} state={state} c={c} numbers={false} />
              <details>
                <summary>Stats</summary>
                <GroupedStats display={p.display} values={c.stats} />
              </details>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/** The player's view (my combatants and their actions) or, read-only, the spectator's. */
export function PlayerView({ encounterId, token, spectator }: { encounterId: string; token: string; spectator: boolean }) {
  const { live, snap } = useLive(token || null, encounterId);
  const rulesets = useAsync(() => loadRulesets(), []);
  const mineOf = (id: string) => !spectator && snap?.playerId != null && snap.state?.combatants[id]?.controller === snap.playerId;
  const ruleset = rulesets.data?.find((r) => r.id === snap?.state?.ruleset);
  const map = useMapPanel({
    live,
    state: snap?.state ?? null,
    version: snap?.version ?? -1,
    ruleset,
    isMine: mineOf,
    canCommand: spectator ? noOne : mineOf,
    gm: false,
    title: spectator ? 'Battle map' : 'Battle map: tap your token to move',
  });
  const acting = snap?.state?.status === 'active' ? snap.state.clock.current : null;
  useTurnCue(acting !== null && mineOf(acting), acting ? nameOf(snap?.state ?? null, acting) : null);
  const state = snap?.state;
  if (!token || snap?.fatal || !live || !snap || !state) return <NotJoined token={token} fatal={snap?.fatal} />;
  const playerId = snap.playerId;
  const isMine = (id: string) => !spectator && playerId !== null && state.combatants[id]?.controller === playerId;
  const current = state.clock.current;
  const myTurn = current !== null && isMine(current);
  const w = state.reaction;
  const myReactors = w ? w.eligible.filter((id) => isMine(id) && w.responses[id] === 'pending') : [];
  const p: Seat = { live, snap, state, display: displayOf(rulesets.data, state.ruleset), isMine, myReactors };
  return (
    <PlainErrors.Provider value>
      <MapContext.Provider value={map.api}>
        <main className={`play${spectator ? ' spectate' : ''}`}>
          <header className="topbar">
            <h1>
              {state.name} <span className="muted">· {spectator ? 'spectator' : 'player'}</span>
            </h1>
            <ConnectionBadge status={snap.status} reconnects={snap.reconnects} onReconnect={() => live.reconnectNow()} />
          </header>
          <OfflineBanner status={snap.status} pending={snap.pending} settled={snap.settled} />
          <ClockLine state={state} display={p.display} />
          <FightOver state={state} display={p.display} numbers={isMine} />
          {myTurn && current ? <YourTurnCard p={p} current={current} /> : null}
          {!myTurn && !spectator ? <OwnResult snap={snap} state={state} display={p.display} mine={isMine} inCard={false} /> : null}
          {!myTurn && !spectator ? <UpNext state={state} mine={isMine} /> : null}
          {!myTurn && !spectator ? <WaitingNote state={state} display={p.display} mine={isMine} rulingsOnly /> : null}
          <ReactionPrompt p={p} ruleset={ruleset} />
          {map.element}
          {!spectator ? <MineSection p={p} myTurn={myTurn} /> : null}
          <Section title="Turn order" id="turns">
            <TurnOrder state={state} mine={isMine} display={p.display} numbers={isMine} />
          </Section>
          <OthersSection p={p} spectator={spectator} />
          <Section title="What happened" id="log">
            <StoryLog
              state={state}
              log={snap.log}
              rewinds={snap.rewinds}
              display={p.display}
              reader={{ role: spectator ? 'spectator' : 'player', mine: isMine }}
            />
          </Section>
          {!spectator ? (
            <Section title="Verify the dice" id="verify-dice">
              <VerifyDice live={live} state={state} />
            </Section>
          ) : null}
        </main>
      </MapContext.Provider>
    </PlainErrors.Provider>
  );
}
