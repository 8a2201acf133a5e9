import { useState } from 'react';
import { ActionPanel } from '../components/ActionPanel.js';
import { MapContext, noOne, useMapPanel } from '../components/MapPanel.js';
import { CombatantCard, ConnectionBadge, Countdown, ErrorMessage, GroupedStats, OfflineBanner, Section, TurnOrder } from '../components/common.js';
import { StoryLog } from '../components/Log.js';
import { Vitals } from '../components/Vitals.js';
import { nameOf } from '../lib/describe.js';
import { displayOf } from '../lib/display.js';
import { loadRulesets } from '../lib/rulesets.js';
import { useAsync } from '../lib/useAsync.js';
import type { WireError } from '../lib/types.js';
import { useLive } from '../lib/useLive.js';

function fatalText(e: WireError): string {
  if (['UNAUTHORIZED', 'FORBIDDEN'].includes(e.code)) return 'This invite link is not valid: it has expired, was revoked, or was mistyped. Ask your GM for a new one.';
  if (e.code === 'NOT_FOUND') return 'This encounter does not exist (any more). Ask your GM for a new link.';
  if (e.code === 'ENCOUNTER_ARCHIVED') return 'This encounter has been archived by the GM.';
  return e.message;
}

/** The player's view (my combatants and their actions) or, read-only, the spectator's. */
export function PlayerView({ encounterId, token, spectator }: { encounterId: string; token: string; spectator: boolean }) {
  const { live, snap } = useLive(token || null, encounterId);
  const [sent, setSent] = useState<{ ok: boolean; error?: WireError } | null>(null);
  const rulesets = useAsync(() => loadRulesets(), []);
  const mineOf = (id: string) => !spectator && snap?.playerId != null && snap.state?.combatants[id]?.controller === snap.playerId;
  const map = useMapPanel({ live, state: snap?.state ?? null, version: snap?.version ?? -1, ruleset: rulesets.data?.find((r) => r.id === snap?.state?.ruleset), isMine: mineOf, canCommand: spectator ? noOne : mineOf, gm: false, title: spectator ? 'Battle map' : 'Battle map: tap your token to move' });
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
  if (snap?.fatal) {
    return (
      <main className="narrow-page">
        <h1>Cannot join</h1>
        <div className="error" role="alert" data-testid="join-error">
          ⚠ {fatalText(snap.fatal)} <span className="muted">({snap.fatal.code}: {snap.fatal.message})</span>
        </div>
        <p>
          <a href="/">Fray home</a>
        </p>
      </main>
    );
  }
  const state = snap?.state;
  if (!live || !snap || !state) {
    return (
      <main className="narrow-page">
        <p role="status">Joining the encounter…</p>
      </main>
    );
  }
  const playerId = snap.playerId;
  const isMine = (id: string) => !spectator && playerId !== null && state.combatants[id]?.controller === playerId;
  const display = displayOf(rulesets.data, state.ruleset);
  const mine = Object.values(state.combatants).filter((c) => isMine(c.id));
  const others = Object.values(state.combatants).filter((c) => !isMine(c.id));
  const current = state.clock.current;
  const myTurn = current !== null && isMine(current);
  const w = state.reaction;
  const myReactors = w ? w.eligible.filter((id) => isMine(id) && w.responses[id] === 'pending') : [];
  return (
    <MapContext.Provider value={map.api}>
    <main className={`play${spectator ? ' spectate' : ''}`}>
      <header className="topbar">
        <h1>
          {state.name} <span className="muted">· {spectator ? 'spectator' : 'player'}</span>
        </h1>
        <ConnectionBadge status={snap.status} reconnects={snap.reconnects} onReconnect={() => live.reconnectNow()} />
      </header>
      <OfflineBanner status={snap.status} pending={snap.pending} settled={snap.settled} />
      <p className="clock-line" data-testid="clock-line">
        Round {state.clock.round}
        {state.clock.phase ? ` · ${state.clock.phase}` : ''} · {state.status === 'setup' ? 'waiting for the GM to start' : state.status === 'ended' ? 'combat over' : current ? `${nameOf(state, current)} acts` : 'between turns'}
      </p>
      {myTurn ? (
        <div className="banner banner-turn" role="status" data-testid="your-turn">
          ▶ Your turn: {nameOf(state, current)}
          {snap.deadlines.turn && snap.deadlines.turn.combatantId === current ? (
            <>
              {' '}
              — ends in <Countdown at={snap.deadlines.turn.at} label="Your turn ends" />
            </>
          ) : null}
        </div>
      ) : null}
      {w && myReactors.length > 0 ? (
        <section className="reaction prompt" role="alertdialog" aria-labelledby="react-h" data-testid="reaction-prompt">
          <h2 id="react-h">
            ! You may react{' '}
            {snap.deadlines.reaction ? <Countdown at={snap.deadlines.reaction.at} label="Time left to react" /> : null}
          </h2>
          <p>
            {w.trigger.description} ({w.kind})
          </p>
          {myReactors.map((id) => (
            <div key={id}>
              <h3>{nameOf(state, id)}</h3>
              <ActionPanel live={live} state={state} version={snap.version} combatantId={id} showBlocked={false} />
            </div>
          ))}
        </section>
      ) : w ? (
        <p className="muted" role="status">
          Waiting for reactions: {w.trigger.description}
        </p>
      ) : null}
      {map.element}
      {!spectator ? (
        <Section title={mine.length === 1 ? 'Your combatant' : 'Your combatants'} id="mine">
          {mine.length === 0 ? <p className="muted">No combatant is bound to this invite.</p> : null}
          {mine.map((c) => (
            <CombatantCard key={c.id} state={state} c={c} mine openData display={display}>
              {state.status === 'active' && !(w && myReactors.includes(c.id)) ? (
                <>
                  <h4>Actions</h4>
                  <ActionPanel live={live} state={state} version={snap.version} combatantId={c.id} />
                </>
              ) : null}
              {state.status === 'active' && current === c.id ? (
                <button
                  type="button"
                  className="primary end-turn"
                  onClick={async () => {
                    const r = await live.send({ type: 'turn.end', combatantId: c.id });
                    setSent(r.ok ? { ok: true } : { ok: false, error: r.error });
                  }}
                >
                  End my turn
                </button>
              ) : null}
            </CombatantCard>
          ))}
          {sent && !sent.ok ? <ErrorMessage error={sent.error} onDismiss={() => setSent(null)} /> : null}
        </Section>
      ) : null}
      <Section title="Turn order" id="turns">
        <TurnOrder state={state} mine={isMine} display={display} numbers={isMine} />
      </Section>
      <Section title={spectator ? 'Combatants' : 'Others'} id="others">
        {others.length === 0 ? <p className="muted">None visible.</p> : null}
        <ul className="others">
          {others.map((c) => {
            const fx = state.effects.filter((e) => e.targetId === c.id);
            return (
              <li key={c.id} data-testid={`other-${c.id}`}>
                <strong>{c.name}</strong> <span className="muted">({c.side})</span>
                {current === c.id ? <span className="tag tag-acting">acting</span> : null}
                {fx.length > 0 ? <span> — {fx.map((e) => e.condition ?? e.name).join(', ')}</span> : null}
                <Vitals display={display} state={state} c={c} numbers={false} />
                <details>
                  <summary>Stats</summary>
                  <GroupedStats display={display} values={c.stats as Record<string, unknown>} />
                </details>
              </li>
            );
          })}
        </ul>
      </Section>
      <Section title="What happened" id="log">
        <StoryLog state={state} log={snap.log} display={display} reader={{ role: spectator ? 'spectator' : 'player', mine: isMine }} />
      </Section>
    </main>
    </MapContext.Provider>
  );
}
