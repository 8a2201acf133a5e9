import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { StoryLog } from '../components/Log.js';
import { noOne, useMapPanel } from '../components/MapPanel.js';
import { ReplayLinks } from '../components/ReplayLinks.js';
import { ErrorMessage, Section, TurnOrder } from '../components/common.js';
import { nameOf } from '../lib/describe.js';
import { displayOf, phaseName, type RulesetDisplay } from '../lib/display.js';
import { frameAt, logUpTo, useReplay, type Replay as ReplayData, type ReplaySource } from '../lib/replay.js';
import { navigate } from '../lib/router.js';
import { loadRulesets } from '../lib/rulesets.js';
import { useGmSession } from '../lib/session.js';
import { api } from '../lib/api.js';
import type { RewindNote } from '../lib/rewinds.js';
import type { EncounterState } from '../lib/types.js';
import { useAsync } from '../lib/useAsync.js';

const SPEEDS = [0.5, 1, 2, 4, 8];

interface Choice {
  as: string;
  /** in the chooser */
  label: string;
  /** in the header: "as …" */
  short: string;
}

/** Who the replay shows the encounter as: the GM, a spectator, or each player (named by the combatants bound to them). */
function viewerChoices(r: ReplayData, state: EncounterState | null): Choice[] {
  const players = (r.meta?.players ?? []).map((p, i) => {
    const who = p.combatantIds.map((id) => r.names.get(id) ?? id).join(', ');
    return { as: p.playerId, label: `Player ${i + 1}${who ? `: ${who}` : ''}`, short: `player ${i + 1}${who ? ` (${who})` : ''}` };
  });
  const gm = { as: 'gm', label: 'GM (everything, hidden included)', short: 'the GM' };
  const spectator = { as: 'spectator', label: 'Spectator (what everyone sees)', short: 'a spectator' };
  const viewer = r.meta?.as ?? 'gm';
  if (viewer === 'gm' || viewer === 'spectator' || players.some((p) => p.as === viewer)) return [gm, ...players, spectator];
  // a shared link as a player: named by the combatants it controls
  const mine = Object.values(state?.combatants ?? {})
    .filter((c) => c.controller === viewer)
    .map((c) => c.name)
    .join(', ');
  return [gm, ...players, spectator, { as: viewer, label: 'Player', short: `a player${mine ? ` (${mine})` : ''}` }];
}

/** Play, pause, step and speed over versions `first` … `last` (only as far as loaded). */
function usePlayback(first: number, last: number, loadedTo: number) {
  const [version, setVersion] = useState(first);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const loaded = loadedTo >= 0;
  // within the versions of what is loaded (another viewer or branch may end sooner)
  useEffect(() => {
    if (loaded) setVersion((v) => Math.min(Math.max(first, v), last));
  }, [first, last, loaded]);
  useEffect(() => {
    if (!playing) return;
    if (version >= last) return setPlaying(false);
    if (version >= loadedTo) return; // waits for the next page
    const t = setTimeout(() => setVersion(version + 1), 1000 / speed);
    return () => clearTimeout(t);
  }, [playing, version, speed, last, loadedTo]);
  const go = (v: number) => setVersion(Math.max(first, Math.min(v, last, loadedTo)));
  return { version, go, playing, setPlaying, speed, setSpeed };
}
type Playback = ReturnType<typeof usePlayback>;

function Controls({ pb, first, last, loadedTo, step }: { pb: Playback; first: number; last: number; loadedTo: number; step: string }) {
  const { version, go, playing } = pb;
  return (
    <section className="panel replay-controls" aria-label="Replay controls" data-testid="replay-controls">
      <div className="row replay-buttons">
        <button type="button" onClick={() => go(first)} disabled={version <= first} aria-label="First version" title="First version">
          «
        </button>
        <button
          type="button"
          onClick={() => go(version - 1)}
          disabled={version <= first}

          title="Step back"
          data-testid="replay-back"
        >
          ‹ Back
        </button>
        <button
          type="button"
          className="primary replay-play"
          onClick={() => (version >= last ? (go(first), pb.setPlaying(true)) : pb.setPlaying(!playing))}
          data-testid="replay-play"
        >
          {playing ? '⏸ Pause' : version >= last ? '↻ Again' : '▶ Play'}
        </button>
        <button
          type="button"
          onClick={() => go(version + 1)}
          disabled={version >= Math.min(last, loadedTo)}

          title="Step forward"
          data-testid="replay-forward"
        >
          Next ›
        </button>
        <button type="button" onClick={() => go(last)} disabled={version >= last} aria-label="Last version" title="Last version">
          »
        </button>
      </div>
      <label className="replay-scrub">
        <span className="sr-only">Version</span>
        <input
          type="range"
          min={first}
          max={last}
          value={version}
          onChange={(e) => go(Number(e.target.value))}
          aria-valuetext={`Version ${version} of ${last}`}
          data-testid="replay-scrubber"
        />
      </label>
      <div className="row replay-where">
        <p role="status" data-testid="replay-version">
          <strong>
            Version {version} of {last}
          </strong>
          {step ? <span> · {step}</span> : null}
          {loadedTo < last ? <span className="muted"> · loading up to {loadedTo}…</span> : null}
        </p>
        <label className="replay-speed">
          Speed{' '}
          <select value={pb.speed} onChange={(e) => pb.setSpeed(Number(e.target.value))} data-testid="replay-speed">
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}

function clockWords(state: EncounterState, display: RulesetDisplay): string {
  const c = state.clock;
  const who =
    state.status === 'setup'
      ? 'setting up'
      : state.status === 'ended'
        ? 'combat over'
        : c.current
          ? `${nameOf(state, c.current)} acts`
          : 'between turns';
  return `Round ${c.round}${c.phase ? ` · ${phaseName(display, c.phase)}` : ''} · ${who}`;
}

/** The header: back to the console (the GM) and whose eyes the replay is through. */
function ReplayHeader({ source, name, viewerLabel }: { source: ReplaySource; name: string; viewerLabel: string }) {
  const back = source.kind === 'gm' ? `/gm/e/${encodeURIComponent(source.encounterId)}` : null;
  return (
    <header className="topbar">
      <h1>
        {back ? (
          <>
            <a href={back} onClick={(e) => (e.preventDefault(), navigate(back))} aria-label="Back to the console">
              ←
            </a>{' '}
          </>
        ) : null}
        Replay: {name} <span className="muted">· as {viewerLabel} · read-only</span>
      </h1>
    </header>
  );
}

/**
 * The GM's rewinds on the branch watched (`GET /encounters/:id/log`'s `rewinds`), up to the version
 * shown: the log says where the GM went back, as the console's does. Watched as someone else, a note
 * keeps its count and drops what it undid (the GM's reading of it may hold what they never saw).
 * A shared link has none (its holder reads no log).
 */
function useRewinds(source: ReplaySource, branch: number | null, viewer: string, version: number): RewindNote[] {
  const encounterId = source.kind === 'gm' ? source.encounterId : null;
  const read = useAsync(
    () =>
      encounterId === null
        ? Promise.resolve({ rewinds: [] })
        : api<{ rewinds: RewindNote[] }>(
            'GET',
            `/encounters/${encodeURIComponent(encounterId)}/log${branch === null ? '' : `?branch=${branch}`}`,
          ),
    [encounterId, branch],
  );
  return useMemo(
    () => (read.data?.rewinds ?? []).filter((n) => n.toVersion <= version).map((n) => (viewer === 'gm' ? n : { ...n, undone: [] })),
    [read.data, version, viewer],
  );
}

/**
 * A saved encounter's replay (docs/web.md, "Replay"): from its first version to its last, as the
 * GM, a player or a spectator saw it live; play, pause, step, scrub, at any speed, with the board
 * and the game-words log beside it (the current version's entry marked). The GM picks the viewer
 * and shares read-only links; a shared link shows the viewer the GM chose.
 */
function ReplayView({ source }: { source: ReplaySource }) {
  const [as, setAs] = useState('gm');
  const [branch, setBranch] = useState<number | null>(null);
  const r = useReplay(source, source.kind === 'gm' ? as : '', branch);
  const rulesets = useAsync(() => loadRulesets(), []);
  const meta = r.meta;
  const first = meta?.firstVersion ?? 0;
  const last = meta?.lastVersion ?? 0;
  const pb = usePlayback(first, last, r.loadedTo);
  const state = meta ? frameAt(r, pb.version) : null;
  const ruleset = rulesets.data?.find((x) => x.id === meta?.ruleset);
  const viewer = meta?.as ?? as;
  const mine = useMemo(
    () => (id: string) => viewer !== 'gm' && viewer !== 'spectator' && state?.combatants[id]?.controller === viewer,
    [viewer, state],
  );
  const map = useMapPanel({
    live: null,
    state,
    version: pb.version,
    ruleset,
    isMine: mine,
    canCommand: noOne,
    gm: false,
    title: 'Battle map',
  });
  const log = useMemo(() => logUpTo(r.log, pb.version), [r.log, pb.version]);
  const rewinds = useRewinds(source, branch, viewer, pb.version);
  const reader = useMemo(
    () => ({ role: viewer === 'gm' ? ('gm' as const) : viewer === 'spectator' ? ('spectator' as const) : ('player' as const), mine }),
    [viewer, mine],
  );
  if (r.error)
    return (
      <Page title="Replay unavailable">
        <ErrorMessage error={r.error} />
      </Page>
    );
  if (!meta || !state)
    return (
      <Page>
        <p role="status">Loading the replay…</p>
      </Page>
    );
  const choices = viewerChoices(r, state);
  const viewerLabel = choices.find((c) => c.as === viewer)?.short ?? viewer;
  const display = displayOf(rulesets.data, meta.ruleset);
  return (
    <main className="replay">
      <ReplayHeader source={source} name={meta.name} viewerLabel={viewerLabel} />
      {source.kind === 'gm' ? (
        <GmChoosers encounterId={source.encounterId} as={as} setAs={setAs} choices={choices} branch={branch} setBranch={setBranch} />
      ) : null}
      <Controls pb={pb} first={first} last={last} loadedTo={r.loadedTo} step={clockWords(state, display)} />
      <div className="replay-grid">
        <div className="replay-board">
          {map.element}
          <Section title="Turn order" id="turns">
            <TurnOrder state={state} mine={mine} display={display} numbers={viewer === 'gm' ? () => true : mine} />
          </Section>
        </div>
        <Section title="What happened" id="log">
          <StoryLog state={state} log={log} rewinds={rewinds} display={display} reader={reader} current={pb.version} onPick={pb.go} />
        </Section>
      </div>
      {source.kind === 'gm' ? <ReplayLinks encounterId={source.encounterId} choices={choices} branch={branch} /> : null}
    </main>
  );
}

function Page({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <main className="narrow-page">
      {title ? <h1>{title}</h1> : null}
      {children}
    </main>
  );
}

interface BranchInfo {
  branch: number;
  parent: number | null;
  baseVersion: number;
  lastVersion: number;
  live: boolean;
}

/** A branch of the timeline in words: the live one, or one the GM rewound away from. */
function branchLabel(b: BranchInfo): string {
  if (b.live) return b.parent === null ? 'As played (live)' : `Now (live): from version ${b.baseVersion} on`;
  return `Undone: branch ${b.branch}, to version ${b.lastVersion}`;
}

interface ChooserProps {
  encounterId: string;
  as: string;
  setAs: (as: string) => void;
  choices: Choice[];
  branch: number | null;
  setBranch: (b: number | null) => void;
}

/** The GM's choices: whose eyes, and (after a rewind) which branch of the timeline. */
function GmChoosers({ encounterId, as, setAs, choices, branch, setBranch }: ChooserProps) {
  const branches = useAsync(
    () => api<{ branches: BranchInfo[] }>('GET', `/encounters/${encodeURIComponent(encounterId)}/branches`),
    [encounterId],
  );
  const list = branches.data?.branches ?? [];
  return (
    <div className="row">
      <label>
        Watch as{' '}
        <select value={as} onChange={(e) => setAs(e.target.value)} data-testid="replay-viewer">
          {choices.map((c) => (
            <option key={c.as} value={c.as}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {list.length > 1 ? (
        <label>
          Timeline{' '}
          <select
            value={branch ?? ''}
            onChange={(e) => setBranch(e.target.value === '' ? null : Number(e.target.value))}
            data-testid="replay-branch"
          >
            {[...list].reverse().map((b) => (
              <option key={b.branch} value={b.live ? '' : b.branch}>
                {branchLabel(b)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}

/** The GM's replay of an encounter (`/gm/e/:id/replay`, signed in). */
export function GmReplay({ encounterId }: { encounterId: string }) {
  const gm = useGmSession();
  const source = useMemo<ReplaySource>(() => ({ kind: 'gm', encounterId }), [encounterId]);
  if (gm.status === 'loading')
    return (
      <Page>
        <p role="status">Checking your sign-in…</p>
      </Page>
    );
  if (gm.status !== 'in')
    return (
      <Page title="Sign in first">
        <p>
          A replay of your encounter needs you signed in. <a href="/">Sign in</a>
        </p>
      </Page>
    );
  return <ReplayView source={source} />;
}

/** A shared read-only replay (`/replay#<token>`): the viewer the GM chose, nothing to send. */
export function SharedReplay({ token }: { token: string }) {
  const source = useMemo<ReplaySource>(() => ({ kind: 'link', token }), [token]);
  if (!token)
    return (
      <Page title="Replay link incomplete">
        <div className="error" role="alert">
          ⚠ This link has no replay token (the part after <code>#</code>). Copy the whole link from your GM.
        </div>
      </Page>
    );
  return <ReplayView source={source} />;
}
