import { useEffect, useState } from 'react';
import { ActionPanel } from '../components/ActionPanel.js';
import { CommandForm } from '../components/CommandForm.js';
import { MapContext, noOne, useMapPanel } from '../components/MapPanel.js';
import { CombatantForm } from '../components/CombatantForm.js';
import { Invites } from '../components/Invites.js';
import { StoryLog } from '../components/Log.js';
import { DuplicateButton, QuickNpcs } from '../components/QuickNpcs.js';
import { AdjustVital } from '../components/Vitals.js';
import { PendingRulings } from '../components/Rulings.js';
import { CombatantCard, ConnectionBadge, Countdown, ErrorMessage, OfflineBanner, Section, TurnOrder } from '../components/common.js';
import { api } from '../lib/api.js';
import { formatDuration, nameOf } from '../lib/describe.js';
import { displayOf } from '../lib/display.js';
import type { CommandResult, Live } from '../lib/live.js';
import { navigate } from '../lib/router.js';
import { loadRulesets } from '../lib/rulesets.js';
import { SESSION_COOKIE, useGmSession } from '../lib/session.js';
import { ExportButton, encounterFileName } from '../components/Transfer.js';
import type { EncounterState, RulesetInfo, WireError } from '../lib/types.js';
import { useAsync } from '../lib/useAsync.js';
import { useLive } from '../lib/useLive.js';

type Outcome = { ok: true; text: string } | { ok: false; error: WireError } | null;

function useCommand(live: Live | null): [(cmd: Record<string, unknown>, text: string) => Promise<CommandResult | null>, Outcome, () => void] {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const send = async (cmd: Record<string, unknown>, text: string) => {
    if (!live) return null;
    setOutcome(null);
    const r = await live.send(cmd);
    setOutcome(r.ok ? { ok: true, text } : { ok: false, error: r.error });
    return r;
  };
  return [send, outcome, () => setOutcome(null)];
}

function OutcomeLine({ outcome, clear }: { outcome: Outcome; clear: () => void }) {
  if (!outcome) return null;
  if (!outcome.ok) return <ErrorMessage error={outcome.error} onDismiss={clear} />;
  return (
    <p className="ok" role="status">
      ✓ {outcome.text}
    </p>
  );
}

function EffectForm({ state, send }: { state: EncounterState; send: (cmd: Record<string, unknown>, text: string) => Promise<unknown> }) {
  const ids = Object.keys(state.combatants);
  const [target, setTarget] = useState(ids[0] ?? '');
  const [name, setName] = useState('');
  const [condition, setCondition] = useState(true);
  const [count, setCount] = useState('1');
  const [unit, setUnit] = useState('round');
  const [forever, setForever] = useState(false);
  const [gmOnly, setGmOnly] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  return (
    <form
      aria-label="Apply a condition or effect"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(count);
        if (!name.trim()) return setErr('Name the condition or effect.');
        if (!forever && (!Number.isInteger(n) || n < 1)) return setErr('The duration must be a whole number of at least 1.');
        if (!target) return setErr('Choose a target.');
        setErr(null);
        const cmd: Record<string, unknown> = { type: 'effect.apply', targetId: target, name: name.trim(), duration: forever ? null : { unit: unit.trim() || 'round', count: n } };
        if (condition) cmd.condition = name.trim().toLowerCase();
        if (gmOnly) cmd.gmOnly = true;
        void send(cmd, `${name.trim()} applied to ${nameOf(state, target)}.`);
      }}
    >
      <div className="grid3">
        <div className="field">
          <label htmlFor="fx-target">Target</label>
          <select id="fx-target" value={target} onChange={(e) => setTarget(e.target.value)}>
            {ids.map((id) => (
              <option key={id} value={id}>
                {nameOf(state, id)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="fx-name">Condition or effect</label>
          <input id="fx-name" value={name} onChange={(e) => setName(e.target.value)} list="fx-names" placeholder="stunned" />
          <datalist id="fx-names">
            {['stunned', 'prone', 'blinded', 'deafened', 'unconscious', 'grappled', 'poisoned'].map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="fx-count">Duration</label>
          <div className="row">
            <input id="fx-count" type="number" min={1} value={count} onChange={(e) => setCount(e.target.value)} disabled={forever} className="narrow" />
            <label htmlFor="fx-unit" className="sr-only">
              Duration unit
            </label>
            <input id="fx-unit" value={unit} onChange={(e) => setUnit(e.target.value)} list="fx-units" disabled={forever} className="narrow" />
            <datalist id="fx-units">
              {['round', 'turn', 'phase', 'segment', 'minute'].map((u) => (
                <option key={u} value={u} />
              ))}
            </datalist>
          </div>
        </div>
      </div>
      <div className="row">
        <label>
          <input type="checkbox" checked={forever} onChange={(e) => setForever(e.target.checked)} /> until removed
        </label>
        <label>
          <input type="checkbox" checked={condition} onChange={(e) => setCondition(e.target.checked)} /> is a named condition
        </label>
        <label>
          <input type="checkbox" checked={gmOnly} onChange={(e) => setGmOnly(e.target.checked)} /> GM only (secret)
        </label>
        <button type="submit">Apply</button>
      </div>
      {err ? (
        <p className="field-error" role="alert">
          ✕ {err}
        </p>
      ) : null}
    </form>
  );
}

function Rolls({ state, send }: { state: EncounterState; send: (cmd: Record<string, unknown>, text: string) => Promise<unknown> }) {
  const rolls = [...state.rolls].reverse();
  const [rollId, setRollId] = useState('');
  const [total, setTotal] = useState('');
  const [reason, setReason] = useState('');
  const [formula, setFormula] = useState('1d20');
  const [purpose, setPurpose] = useState('');
  // GM rolls are secret unless the GM says otherwise: a per-encounter option kept on the server
  // (`encounter.gmRolls`), so every device of the GM starts from it
  const serverSecret = (state.options as { gmRollsSecret?: unknown }).gmRollsSecret !== false;
  const [secret, setSecretState] = useState(serverSecret);
  useEffect(() => setSecretState(serverSecret), [serverSecret]);
  const setSecret = (v: boolean) => {
    setSecretState(v);
    void send({ type: 'encounter.gmRolls', secret: v }, v ? 'GM rolls are secret by default in this encounter.' : 'GM rolls are public by default in this encounter.');
  };
  const [err, setErr] = useState<string | null>(null);
  const chosen = rollId || rolls[0]?.id || '';
  return (
    <div>
      <form
        aria-label="Override a roll"
        onSubmit={(e) => {
          e.preventDefault();
          const n = Number(total);
          if (!chosen) return setErr('There is no roll to override yet.');
          if (total.trim() === '' || !Number.isInteger(n)) return setErr('The new total must be a whole number.');
          setErr(null);
          const cmd: Record<string, unknown> = { type: 'dice.override', rollId: chosen, total: n };
          if (reason.trim()) cmd.reason = reason.trim();
          void send(cmd, `Roll ${chosen} overridden to ${n}.`);
        }}
      >
        <div className="grid3">
          <div className="field">
            <label htmlFor="ov-roll">Recent roll</label>
            <select id="ov-roll" value={chosen} onChange={(e) => setRollId(e.target.value)}>
              {rolls.length === 0 ? <option value="">(no rolls yet)</option> : null}
              {rolls.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.id}: {r.purpose} — {r.formula} = {r.total}
                  {r.overridden ? ' (overridden)' : ''}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ov-total">New total</label>
            <input id="ov-total" type="number" value={total} onChange={(e) => setTotal(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="ov-reason">Reason (optional)</label>
            <input id="ov-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} />
          </div>
        </div>
        <button type="submit">Override roll</button>
      </form>
      <form
        aria-label="Roll dice"
        onSubmit={(e) => {
          e.preventDefault();
          if (!formula.trim() || !purpose.trim()) return setErr('Give a formula (e.g. 2d6+1) and what the roll is for.');
          setErr(null);
          void send({ type: 'dice.roll', formula: formula.trim(), purpose: purpose.trim(), ...(secret ? { secret: true } : {}) }, `Rolled ${formula.trim()}.`);
        }}
      >
        <div className="grid3">
          <div className="field">
            <label htmlFor="roll-formula">Formula</label>
            <input id="roll-formula" value={formula} onChange={(e) => setFormula(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="roll-purpose">For</label>
            <input id="roll-purpose" value={purpose} onChange={(e) => setPurpose(e.target.value)} placeholder="perception check" />
          </div>
          <div className="field field-boolean">
            <label htmlFor="roll-secret">Secret roll (GM only; the default in this encounter)</label>
            <input id="roll-secret" type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} />
          </div>
        </div>
        <button type="submit">Roll</button>
      </form>
      {err ? (
        <p className="field-error" role="alert">
          ✕ {err}
        </p>
      ) : null}
    </div>
  );
}

function TurnTimer({ live }: { live: Live }) {
  const [seconds, setSeconds] = useState('60');
  const [msg, setMsg] = useState<Outcome>(null);
  const set = async (v: number | null) => {
    const r = await live.setTurnTimer(v);
    setMsg(r.ok ? { ok: true, text: v === null ? 'Turn timer off.' : `Turns end by themselves after ${v} s.` } : { ok: false, error: r.error });
  };
  return (
    <form
      aria-label="Turn timer"
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(seconds);
        if (!Number.isInteger(n) || n < 5 || n > 3600) return setMsg({ ok: false, error: { code: 'INVALID_REQUEST', message: 'The turn timer is a whole number of seconds from 5 to 3600.' } });
        void set(n);
      }}
    >
      <label htmlFor="turn-timer">Turn timer (s)</label>
      <input id="turn-timer" className="narrow" type="number" min={5} max={3600} value={seconds} onChange={(e) => setSeconds(e.target.value)} />
      <button type="submit">Set</button>
      <button type="button" onClick={() => void set(null)}>
        Off
      </button>
      <OutcomeLine outcome={msg} clear={() => setMsg(null)} />
    </form>
  );
}

/** Any command of the ruleset (GM rulings, ruleset-specific GM tools), as JSON. */
function RawCommand({ commands, send }: { commands: string[]; send: (cmd: Record<string, unknown>, text: string) => Promise<unknown> }) {
  const [type, setType] = useState(commands[0] ?? '');
  const [body, setBody] = useState('{}');
  const [err, setErr] = useState<string | null>(null);
  return (
    <form
      aria-label="Send a ruleset command"
      onSubmit={(e) => {
        e.preventDefault();
        let fields: unknown;
        try {
          fields = JSON.parse(body || '{}');
        } catch {
          return setErr('The fields must be a JSON object, e.g. {"combatantId": "c1.1"}.');
        }
        if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return setErr('The fields must be a JSON object.');
        setErr(null);
        void send({ ...(fields as Record<string, unknown>), type }, `${type} sent.`);
      }}
    >
      <div className="grid2">
        <div className="field">
          <label htmlFor="raw-type">Command</label>
          <select id="raw-type" value={type} onChange={(e) => setType(e.target.value)}>
            {commands.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="raw-body">Fields (JSON)</label>
          <textarea id="raw-body" rows={2} value={body} onChange={(e) => setBody(e.target.value)} />
        </div>
      </div>
      <button type="submit">Send command</button>
      {err ? (
        <p className="field-error" role="alert">
          ✕ {err}
        </p>
      ) : null}
    </form>
  );
}

export function ReactionPanel({ state, deadlineAt, children }: { state: EncounterState; deadlineAt: number | null; children?: React.ReactNode }) {
  const w = state.reaction;
  if (!w) return null;
  return (
    <div className="reaction" role="region" aria-label="Reaction window" data-testid="reaction-window">
      <p>
        <strong>! Reaction window</strong> ({w.kind}) — {w.trigger.description}
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

/** The GM's console for one encounter. */
const everyone = (): boolean => true;

export function Console({ encounterId }: { encounterId: string }) {
  const gm = useGmSession();
  const token = gm.status === 'in' ? SESSION_COOKIE : null;
  const { live, snap } = useLive(token, encounterId);
  const rulesets = useAsync(() => loadRulesets(), []);
  const [send, outcome, clear] = useCommand(live);
  const [editing, setEditing] = useState<string | null>(null);
  const [actor, setActor] = useState<string>('');
  const [revealError, setRevealError] = useState<unknown>(null);
  const state = snap?.state ?? null;
  const map = useMapPanel({ live, state, version: snap?.version ?? -1, ruleset: rulesets.data?.find((r) => r.id === state?.ruleset), isMine: noOne, canCommand: everyone, gm: true, title: 'Battle map (GM view: hidden combatants shown)' });
  useEffect(() => {
    if (state?.clock.current) setActor(state.clock.current);
  }, [state?.clock.current]);
  if (token === null) {
    return (
      <main>
        <p>
          {gm.status === 'loading' ? 'Checking your sign-in…' : 'Sign in first.'} <a href="/">Home</a>
        </p>
      </main>
    );
  }
  if (snap?.fatal) {
    return (
      <main>
        <h1>Encounter unavailable</h1>
        <ErrorMessage error={snap.fatal} />
        <p>
          <a href="/gm" onClick={(e) => (e.preventDefault(), navigate('/gm'))}>
            Back to your encounters
          </a>
        </p>
      </main>
    );
  }
  if (!live || !snap || !state) {
    return (
      <main>
        <p role="status">Connecting to the encounter…</p>
      </main>
    );
  }
  const ruleset: RulesetInfo | undefined = rulesets.data?.find((r) => r.id === state.ruleset);
  const display = displayOf(rulesets.data, state.ruleset);
  const combatants = Object.values(state.combatants);
  const sides = [...new Set(combatants.map((c) => c.side))];
  const current = state.clock.current;
  const actingAs = actor && state.combatants[actor] ? actor : (current ?? combatants[0]?.id ?? '');
  return (
    <MapContext.Provider value={map.api}>
    <main className="console">
      <header className="topbar">
        <h1>
          <a href="/gm" onClick={(e) => (e.preventDefault(), navigate('/gm'))} aria-label="Back to your encounters">
            ←
          </a>{' '}
          {state.name} <span className="muted">· {ruleset?.name ?? state.ruleset} · GM</span>
        </h1>
        <ConnectionBadge status={snap.status} reconnects={snap.reconnects} onReconnect={() => live.reconnectNow()} />
      </header>
      <OfflineBanner status={snap.status} pending={snap.pending} settled={snap.settled} />
      <OutcomeLine outcome={outcome} clear={clear} />
      <div className="columns">
        <div className="col">
          {map.element}
          <Section title="Turn order" id="turns">
            <TurnOrder state={state} display={display} numbers={() => true} />
            <div className="row" data-testid="turn-controls">
              {state.status === 'setup' ? (
                <button type="button" className="primary" onClick={() => void send({ type: 'combat.start' }, 'Combat started.')}>
                  Start combat
                </button>
              ) : null}
              {state.status === 'active' && current ? (
                <button type="button" onClick={() => void send({ type: 'turn.end', combatantId: current }, `${nameOf(state, current)}'s turn ended.`)}>
                  End {nameOf(state, current)}'s turn
                </button>
              ) : null}
              {state.status !== 'ended' ? (
                <button type="button" className="danger" onClick={() => window.confirm('End this combat?') && void send({ type: 'combat.end' }, 'Combat ended.')}>
                  End combat
                </button>
              ) : null}
            </div>
            {snap.deadlines.turn ? (
              <p>
                {nameOf(state, snap.deadlines.turn.combatantId)}'s turn ends in <Countdown at={snap.deadlines.turn.at} label="Turn ends" />
              </p>
            ) : null}
            {state.status === 'active' ? <TurnTimer live={live} /> : null}
            <ReactionPanel state={state} deadlineAt={snap.deadlines.reaction?.at ?? null}>
              <button type="button" onClick={() => void send({ type: 'reaction.resolve' }, 'Reaction window resolved.')}>
                Resolve / skip the reaction window
              </button>
            </ReactionPanel>
            <PendingRulings display={display} state={state} send={send} />
          </Section>
          {state.status === 'active' && combatants.length > 0 ? (
            <Section title="Act for a combatant" id="act">
              <div className="field">
                <label htmlFor="act-as">Combatant</label>
                <select id="act-as" value={actingAs} onChange={(e) => setActor(e.target.value)}>
                  {combatants.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                      {c.id === current ? ' (acting)' : ''}
                      {c.controller ? ' — player' : ' — NPC'}
                    </option>
                  ))}
                </select>
              </div>
              {actingAs ? <ActionPanel live={live} state={state} version={snap.version} combatantId={actingAs} /> : null}
            </Section>
          ) : null}
          <Section title="Combatants" id="combatants">
            {combatants.length === 0 ? <p className="muted">No combatants yet.</p> : null}
            <ErrorMessage error={revealError} onDismiss={() => setRevealError(null)} />
            <div className="cards">
              {combatants.map((c) =>
                editing === c.id && ruleset ? (
                  <CombatantForm key={c.id} ruleset={ruleset} options={state.options} encounterId={encounterId} token={token} existing={c} sides={sides} onDone={() => setEditing(null)} />
                ) : (
                  <CombatantCard key={c.id} state={state} c={c} display={display}>
                    <AdjustVital display={display} state={state} c={c} send={send} />
                    <div className="row">
                      <button type="button" onClick={() => setEditing(c.id)} aria-label={`Edit ${c.name}`}>
                        Edit
                      </button>
                      <DuplicateButton c={c} state={state} encounterId={encounterId} token={token} onError={setRevealError} />
                      {c.hidden ? (
                        <button
                          type="button"
                          onClick={() =>
                            void api('PATCH', `/encounters/${encodeURIComponent(encounterId)}/combatants/${encodeURIComponent(c.id)}`, { hidden: false }, { token }).then(
                              () => undefined,
                              (e: unknown) => setRevealError(e),
                            )
                          }
                          aria-label={`Reveal ${c.name} to the players`}
                        >
                          Reveal
                        </button>
                      ) : null}
                      {state.effects
                        .filter((e) => e.targetId === c.id)
                        .map((e) => (
                          <button key={e.id} type="button" onClick={() => void send({ type: 'effect.remove', effectId: e.id }, `${e.name} removed.`)} aria-label={`Remove ${e.name} from ${c.name}`}>
                            Remove {e.condition ?? e.name} ({formatDuration(e.duration)})
                          </button>
                        ))}
                    </div>
                  </CombatantCard>
                ),
              )}
            </div>
          </Section>
          <Section title="Add a combatant" id="add">
            {ruleset ? <QuickNpcs ruleset={ruleset} display={display} state={state} encounterId={encounterId} token={token} /> : null}
            {/* folded away once combat starts (the GM opens it when needed) */}
            <details className="sub" open={state.status === 'setup'} key={state.status}>
              <summary>The full form: name, side and every stat</summary>
              {ruleset ? <CombatantForm key={combatants.length} ruleset={ruleset} options={state.options} encounterId={encounterId} token={token} sides={sides} onDone={() => undefined} /> : <ErrorMessage error={rulesets.error} />}
            </details>
          </Section>
        </div>
        <div className="col">
          <Section title="Invite links" id="invites">
            <Invites encounterId={encounterId} token={token} state={state} />
          </Section>
          <Section title="Move this encounter" id="export">
            <p className="muted">A file of this encounter (its log, snapshots and options; no invite links) that any Fray server imports.</p>
            <ExportButton path={`/encounters/${encodeURIComponent(encounterId)}/export`} name={encounterFileName(state.name)} token={token} label="Export encounter" />
          </Section>
          {combatants.length > 0 ? (
            <Section title="Conditions and effects" id="effects">
              <EffectForm state={state} send={send} />
            </Section>
          ) : null}
          <Section title="Dice" id="dice">
            <Rolls state={state} send={send} />
          </Section>
          {ruleset?.commandInfo ? (
            <Section title="GM tools and rulings (every command)" id="gm-commands">
              <CommandForm ruleset={ruleset} state={state} send={send} />
            </Section>
          ) : null}
          {ruleset?.commands && ruleset.commands.length > 0 ? (
            <Section title="Any command (GM rulings)" id="raw">
              <details>
                <summary>Send one of the ruleset’s commands by hand</summary>
                <RawCommand commands={ruleset.commands} send={send} />
              </details>
            </Section>
          ) : null}
          <Section title="Log" id="log">
            <StoryLog state={state} log={snap.log} display={display} reader={{ role: 'gm', mine: () => true }} />
          </Section>
        </div>
      </div>
    </main>
    </MapContext.Provider>
  );
}
