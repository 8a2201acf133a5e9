import { CommandForm } from '../components/CommandForm.js';
import { Invites } from '../components/Invites.js';
import { StoryLog } from '../components/Log.js';
import { MapContext, noOne, useMapPanel } from '../components/MapPanel.js';
import { OutcomeLine, useCommand } from '../components/Outcome.js';
import { ExportButton, encounterFileName } from '../components/Transfer.js';
import { VerifyDice } from '../components/VerifyDice.js';
import { ConnectionBadge, ErrorMessage, OfflineBanner } from '../components/common.js';
import { displayOf } from '../lib/display.js';
import type { Live, LiveSnapshot } from '../lib/live.js';
import { navigate } from '../lib/router.js';
import { loadRulesets } from '../lib/rulesets.js';
import { SESSION_COOKIE, useGmSession } from '../lib/session.js';
import type { EncounterState } from '../lib/types.js';
import { useAsync } from '../lib/useAsync.js';
import { useLive } from '../lib/useLive.js';
import { ActSection, AddSection, CombatantsSection, type GmScope } from './console/Combatants.js';
import { Dice } from './console/Dice.js';
import { EffectForm } from './console/EffectForm.js';
import { Fold } from './console/Fold.js';
import { ForkFrom } from './console/Fork.js';
import { TurnSection } from './console/Turns.js';
import { UndoLast } from './console/Undo.js';

const everyone = (): boolean => true;
const back = (e: React.MouseEvent) => (e.preventDefault(), navigate('/gm'));

/** Invite links: open while the encounter is set up, folded away once combat starts (the GM opens them when needed). */
function InvitesSection({ encounterId, token, state }: { encounterId: string; token: string; state: EncounterState }) {
  return (
    <Fold title="Invite links" id="invites" phoneOpen={state.status === 'setup'}>
      <details className="sub" open={state.status === 'setup'} key={state.status} data-testid="invites-details">
        <summary>Invite players and spectators</summary>
        <Invites encounterId={encounterId} token={token} state={state} />
      </details>
    </Fold>
  );
}

/** The right-hand column: conditions, dice, the GM's tools, invites, export, the log. */
function SideColumn({ g, snap, live }: { g: GmScope; snap: LiveSnapshot; live: Live }) {
  const { state, ruleset, send, encounterId, token } = g;
  return (
    <div className="col">
      {Object.keys(state.combatants).length > 0 ? (
        <Fold title="Conditions and effects" id="effects">
          <EffectForm state={state} send={send} display={g.display} />
        </Fold>
      ) : null}
      <Fold title="Dice" id="dice">
        <Dice state={state} send={send} />
      </Fold>
      <Fold title="Verify the dice" id="verify-dice">
        <VerifyDice live={live} state={state} />
      </Fold>
      {ruleset?.commandInfo ? (
        <Fold title="GM tools and rulings (every command)" id="gm-commands">
          <CommandForm ruleset={ruleset} state={state} send={send} />
        </Fold>
      ) : null}
      <InvitesSection encounterId={encounterId} token={token} state={state} />
      <Fold title="Move this encounter" id="export">
        <p className="muted">A file of this encounter (its log, snapshots and options; no invite links) that any Fray server imports.</p>
        <ExportButton
          path={`/encounters/${encodeURIComponent(encounterId)}/export`}
          name={encounterFileName(state.name)}
          token={token}
          label="Export encounter"
        />
      </Fold>
      <Fold title="Log" id="log">
        <StoryLog state={state} log={snap.log} rewinds={snap.rewinds} display={g.display} reader={{ role: 'gm', mine: () => true }} />
      </Fold>
    </div>
  );
}

function ConsoleHeader({ g, snap, live }: { g: GmScope; snap: LiveSnapshot; live: Live }) {
  const { state, ruleset, display } = g;
  return (
    <header className="topbar">
      <h1>
        <a href="/gm" onClick={back} aria-label="Back to your encounters">
          ←
        </a>{' '}
        {state.name} <span className="muted">· {ruleset?.name ?? state.ruleset} · GM</span>
      </h1>
      <div className="timeline-tools">
        <UndoLast live={live} snap={snap} state={state} display={display} />
        <ForkFrom encounterId={g.encounterId} token={g.token} snap={snap} state={state} display={display} />
      </div>
      <ConnectionBadge status={snap.status} reconnects={snap.reconnects} onReconnect={() => live.reconnectNow()} />
    </header>
  );
}

/** Not joined (yet): signing in, the encounter unavailable, or connecting. */
function NotJoined({ signedIn, checking, fatal }: { signedIn: boolean; checking: boolean; fatal: LiveSnapshot['fatal'] | undefined }) {
  if (!signedIn) {
    return (
      <main>
        <p>
          {checking ? 'Checking your sign-in…' : 'Sign in first.'} <a href="/">Home</a>
        </p>
      </main>
    );
  }
  if (fatal) {
    return (
      <main>
        <h1>Encounter unavailable</h1>
        <ErrorMessage error={fatal} />
        <p>
          <a href="/gm" onClick={back}>
            Back to your encounters
          </a>
        </p>
      </main>
    );
  }
  return (
    <main>
      <p role="status">Connecting to the encounter…</p>
    </main>
  );
}

/**
 * The GM's console for one encounter. On a desktop the turn order sits at the top left, next to
 * the map (on a phone, under it); below, the combatants, and beside them the GM's tools, with the
 * invite links folded away once combat starts.
 */
export function Console({ encounterId }: { encounterId: string }) {
  const gm = useGmSession();
  const token = gm.status === 'in' ? SESSION_COOKIE : null;
  const { live, snap } = useLive(token, encounterId);
  const rulesets = useAsync(() => loadRulesets(), []);
  const [send, outcome, clear] = useCommand(live);
  const state = snap?.state ?? null;
  const ruleset = rulesets.data?.find((r) => r.id === state?.ruleset);
  const map = useMapPanel({
    live,
    state,
    version: snap?.version ?? -1,
    ruleset,
    isMine: noOne,
    canCommand: everyone,
    gm: true,
    title: 'Battle map (GM view: hidden combatants shown)',
  });
  if (token === null || snap?.fatal || !live || !snap || !state)
    return <NotJoined signedIn={token !== null} checking={gm.status === 'loading'} fatal={snap?.fatal} />;
  const g: GmScope = { state, ruleset, display: displayOf(rulesets.data, state.ruleset), encounterId, token, send };
  const acting = state.status === 'active' && Object.keys(state.combatants).length > 0;
  const act = acting ? <ActSection live={live} version={snap.version} state={state} display={g.display} /> : null;
  const add = <AddSection g={g} rulesetsError={rulesets.error} />;
  const beside = acting ? act : add;
  return (
    <MapContext.Provider value={map.api}>
      <main className="console">
        <ConsoleHeader g={g} snap={snap} live={live} />
        <OfflineBanner status={snap.status} pending={snap.pending} settled={snap.settled} />
        <OutcomeLine outcome={outcome} clear={clear} />
        <div className={`console-top${map.element ? '' : ' no-map'}`}>
          {map.element ? <div className="console-map">{map.element}</div> : null}
          <TurnSection live={live} snap={snap} state={state} ruleset={ruleset} display={g.display} send={send} encounterId={encounterId} />
          {/* no map: acting (in combat) or adding combatants (in setup) takes the map's place beside the turn order */}
          {map.element ? null : <div className="console-beside">{beside}</div>}
        </div>
        <div className="columns">
          <div className="col">
            {map.element ? act : null}
            <CombatantsSection g={g} />
            {map.element || acting ? add : null}
          </div>
          <SideColumn g={g} snap={snap} live={live} />
        </div>
      </main>
    </MapContext.Provider>
  );
}
