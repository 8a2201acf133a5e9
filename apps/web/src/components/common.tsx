import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { describeError } from '../lib/api.js';
import { formatDuration, nameOf, statEntriesText } from '../lib/describe.js';
import { emptyDisplay, groupedStats, phaseName, shownData, statusName, type RulesetDisplay } from '../lib/display.js';
import type { ConnStatus, PendingCommand, SettledCommand } from '../lib/live.js';
import { Vitals } from './Vitals.js';
import { isRecord, recordOf } from '../lib/guards.js';
import type { Combatant, EncounterState } from '../lib/types.js';

/** Pages for players and spectators: errors in plain words, the code and the rule only in the tooltip. */
export const PlainErrors = createContext(false);

export function ErrorMessage({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  const plain = useContext(PlainErrors);
  if (!error) return null;
  const w = recordOf(error);
  const text = typeof w.code === 'string' && typeof w.message === 'string' ? `${w.message}` : describeError(error);
  const rule = typeof w.rule === 'string' && w.rule ? w.rule : null;
  const code = typeof w.code === 'string' ? w.code : null;
  const detail = [rule ? `Rule: ${rule}` : '', code ? `(${code})` : ''].filter(Boolean).join(' ');
  return (
    <div className="error" role="alert" title={plain && detail ? detail : undefined}>
      {/* the message first, in words; the rule and the code after it, for a GM who looks it up (a player: in the tooltip) */}
      <strong>⚠</strong> {text}
      {rule && !plain ? <span className="rule"> Rule: {rule}</span> : null}
      {code && !plain ? <small className="muted"> ({code})</small> : null}
      {onDismiss ? (
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss error">
          ✕
        </button>
      ) : null}
    </div>
  );
}

const statusText: Record<ConnStatus, string> = {
  connecting: 'Connecting…',
  online: 'Live',
  offline: 'Connection lost — reconnecting…',
  restarting: 'Server restarting — reconnecting…',
  failed: 'Disconnected',
};

export function ConnectionBadge({ status, reconnects, onReconnect }: { status: ConnStatus; reconnects: number; onReconnect?: () => void }) {
  return (
    <span className={`conn conn-${status}`} role="status" aria-live="polite" data-testid="connection">
      <span aria-hidden="true">
        {status === 'online' ? '●' : status === 'offline' || status === 'restarting' ? '◌' : status === 'failed' ? '✕' : '…'}
      </span>{' '}
      {statusText[status]}
      {status === 'online' && reconnects > 0 ? <span className="muted"> (reconnected)</span> : null}
      {(status === 'offline' || status === 'restarting') && onReconnect ? (
        <button type="button" className="link" onClick={onReconnect}>
          retry now
        </button>
      ) : null}
    </span>
  );
}

/**
 * What the connection means now: a banner while it is down (a planned restart says so), the
 * commands waiting to be sent, and how the last of them ended once the connection came back.
 */
export function OfflineBanner({
  status,
  pending = [],
  settled = null,
}: {
  status: ConnStatus;
  pending?: PendingCommand[];
  settled?: SettledCommand | null;
}) {
  const down = status === 'offline' || status === 'restarting';
  return (
    <>
      {down ? (
        <div className="banner banner-offline" role="alert" data-testid="offline-banner">
          {status === 'restarting'
            ? 'The server is restarting (a planned restart). Reconnecting… What you see may be out of date; actions you send wait and are sent once it is back.'
            : 'Connection lost. Reconnecting… What you see may be out of date; actions you send are kept and sent once when the connection is back.'}
        </div>
      ) : null}
      {pending.length > 0 && down ? (
        <p className="pending" role="status" data-testid="pending-commands">
          ⏳ Waiting to send: {pending.map((p) => p.label).join(', ')}
        </p>
      ) : null}
      {settled && !down && pending.length === 0 ? (
        <p className={settled.ok ? 'ok' : 'error'} role="status" data-testid="settled-command">
          {settled.ok ? `✓ Applied: ${settled.label}` : `✕ Refused: ${settled.label} — ${settled.message ?? ''}`}
        </p>
      ) : null}
    </>
  );
}

export function Countdown({ at, label }: { at: number; label: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.ceil((at - now) / 1000));
  return (
    <span className="countdown" role="timer" aria-label={`${label}: ${left} seconds left`}>
      {left}s left
    </span>
  );
}

export function Section({ title, children, id, actions }: { title: string; children: ReactNode; id?: string; actions?: ReactNode }) {
  const hid = `h-${id ?? title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={hid} id={id}>
      <div className="panel-head">
        <h2 id={hid}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * The turn order with each combatant's vitals at a glance. `numbers(id)`: whether this viewer sees
 * that combatant's vitals as numbers (the GM: all; a player: their own).
 */
export function TurnOrder({
  state,
  mine,
  display = emptyDisplay,
  numbers,
}: {
  state: EncounterState;
  mine?: (id: string) => boolean;
  display?: RulesetDisplay;
  numbers?: (id: string) => boolean;
}) {
  const { clock } = state;
  return (
    <div className="turn-order" data-testid="turn-order">
      <p className="clock">
        <span data-testid="round">Round {clock.round}</span>
        {clock.phase ? (
          <span>
            {' '}
            · <strong data-testid="phase">{phaseName(display, clock.phase)}</strong>
          </span>
        ) : null}
        <span> · {statusName(state.status)}</span>
      </p>
      {clock.order.length === 0 ? (
        <p className="muted">{state.status === 'setup' ? 'Combat has not started.' : 'No turn order.'}</p>
      ) : (
        <ol>
          {clock.order.map((id) => {
            const acting = clock.current === id;
            return (
              <li key={id} className={acting ? 'acting' : undefined} aria-current={acting ? 'step' : undefined}>
                <span className="who">
                  {acting ? <span className="marker">▶ acting: </span> : null}
                  {nameOf(state, id)}
                  {mine?.(id) ? <span className="tag">you</span> : null}
                  {state.combatants[id]?.hidden ? <span className="tag tag-secret">hidden</span> : null}
                  {conditionTags(state, id)}
                </span>
                {state.combatants[id] ? (
                  <Vitals display={display} state={state} c={state.combatants[id]} numbers={numbers?.(id) ?? false} compact />
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

function conditionTags(state: EncounterState, id: string): ReactNode {
  const conds = state.effects.filter((e) => e.targetId === id && e.condition);
  return conds.map((e) => (
    <span key={e.id} className="tag tag-cond">
      {e.condition}
    </span>
  ));
}

function show(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) return v.join(', ');
  if (typeof v === 'object') {
    // a map of numbers or words (maxima by name): "Mana 10, Stress 6"
    const entries = Object.entries(v);
    if (!Array.isArray(v) && entries.every(([, x]) => typeof x !== 'object'))
      return entries.map(([k, x]) => `${k} ${String(x)}`).join(', ') || '—';
    return JSON.stringify(v);
  }
  return String(v);
}

/** Nested runtime data (budgets such as `turn.minors`) as flat `a.b` keys, arrays as lists. */
export function flatten(values: Record<string, unknown>, prefix = '', depth = 0): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(values)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isRecord(v) && depth < 2) out.push(...flatten(v, key, depth + 1));
    else out.push([key, Array.isArray(v) ? (v.length === 0 ? 'none' : v.every((x) => typeof x !== 'object') ? v.join(', ') : v) : v]);
  }
  return out;
}

/** Stats in the ruleset's groups and words. */
export function GroupedStats({
  display,
  values,
  secret = [],
}: {
  display: RulesetDisplay;
  values: Record<string, unknown>;
  secret?: string[];
}) {
  const groups = groupedStats(display, Object.fromEntries(Object.entries(values).filter(([, v]) => !(Array.isArray(v) && v.length === 0))));
  if (groups.length === 0) return <p className="muted">—</p>;
  return (
    <>
      {groups.map((g) => (
        <div key={g.label} className="stat-group">
          <h5>{g.label}</h5>
          <dl className="stats">
            {g.entries.map((e) => (
              <div key={e.key}>
                <dt>
                  {e.label}
                  {secret.includes(e.key) ? (
                    <span className="tag tag-secret" title="secret: only the GM and the controller see it">
                      secret
                    </span>
                  ) : null}
                </dt>
                <dd>{statEntriesText(display, e.key, e.value) ?? show(e.value)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </>
  );
}

/** The ruleset's per-turn state worth showing (internal fields never), in its words. */
export function TurnState({ display, data, options }: { display: RulesetDisplay; data: Record<string, unknown>; options?: unknown }) {
  const entries = shownData(display, flatten(data), options);
  if (entries.length === 0) return <p className="muted">—</p>;
  return (
    <dl className="stats" data-testid="turn-state">
      {entries.map((e) => (
        <div key={e.key}>
          <dt>{e.label}</dt>
          <dd>{show(e.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function EffectList({ state, combatantId }: { state: EncounterState; combatantId: string }) {
  const effects = state.effects.filter((e) => e.targetId === combatantId);
  if (effects.length === 0) return <p className="muted">No conditions.</p>;
  return (
    <ul className="effects">
      {effects.map((e) => (
        <li key={e.id}>
          <strong>{e.condition ?? e.name}</strong>
          {e.condition && e.name !== e.condition ? ` (${e.name})` : ''} — {formatDuration(e.duration)}
          {e.gmOnly ? <span className="tag tag-secret">GM only</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function CombatantCard({
  state,
  c,
  children,
  mine,
  openStats = false,
  openData = false,
  display = emptyDisplay,
  numbers = true,
}: {
  state: EncounterState;
  c: Combatant;
  children?: ReactNode;
  mine?: boolean;
  openStats?: boolean;
  openData?: boolean;
  display?: RulesetDisplay;
  /** the viewer sees the vitals as numbers (the GM, the controller) */
  numbers?: boolean;
}) {
  const acting = state.clock.current === c.id;
  return (
    <article className={`card${acting ? ' acting' : ''}`} aria-label={c.name} data-testid={`combatant-${c.id}`}>
      <header>
        <h3>
          {c.name} {acting ? <span className="tag tag-acting">acting</span> : null}
          {mine ? <span className="tag">yours</span> : null}
          {c.hidden ? <span className="tag tag-secret">hidden</span> : null}
        </h3>
        <span className="muted">side: {c.side}</span>
      </header>
      <Vitals display={display} state={state} c={c} numbers={numbers} full={mine} />
      <h4>Conditions &amp; effects</h4>
      <EffectList state={state} combatantId={c.id} />
      {children}
      <details className="sub" open={openStats}>
        <summary>Stats</summary>
        <GroupedStats display={display} values={c.stats} secret={c.secretStats} />
      </details>
      <details className="sub" open={openData}>
        <summary>This turn / round</summary>
        <TurnState display={display} data={recordOf(c.data)} options={state.options} />
      </details>
    </article>
  );
}
