import { useState } from 'react';
import { ErrorMessage } from '../../components/common.js';
import { api, ApiError, describeError } from '../../lib/api.js';
import type { RulesetDisplay } from '../../lib/display.js';
import type { LiveSnapshot } from '../../lib/live.js';
import { navigate } from '../../lib/router.js';
import type { EncounterState } from '../../lib/types.js';
import { wordsAt } from './Undo.js';

type Made = { id: string; name: string; version: number };
type Failed = { code: string; message: string };

/** A refusal of the fork in plain words (the server's reason, after what could not be done). */
function failure(e: unknown): Failed {
  const code = e instanceof ApiError ? e.code : 'UNAVAILABLE';
  return { code, message: `The new encounter could not be started. ${describeError(e).replace(/ \([A-Z_]+\)$/, '')}` };
}

/** What the chosen version is, in the game's words. */
function MomentWords({
  snap,
  state,
  display,
  version,
}: {
  snap: LiveSnapshot;
  state: EncounterState;
  display: RulesetDisplay;
  version: number;
}) {
  if (!Number.isInteger(version) || version < 0 || version > snap.version)
    return <p className="field-error">Choose a moment from 0 (the start) to {snap.version} (now).</p>;
  const words = wordsAt(snap, state, display, version);
  const when = version === snap.version ? 'Now' : version === 0 ? 'The very start' : `Moment ${version}`;
  return (
    <p className="muted" data-testid="fork-moment">
      {when}
      {words.length > 0 ? `, just after: ${words.join(' ')}` : '.'}
    </p>
  );
}

type FormProps = {
  encounterId: string;
  token: string;
  snap: LiveSnapshot;
  state: EncounterState;
  display: RulesetDisplay;
  done: (m: Made) => void;
  close: () => void;
};

/** POST /encounters/:id/fork, its progress and its refusal. */
function useFork({ encounterId, token, state, done }: FormProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Failed | null>(null);
  const fork = async (v: number, name: string) => {
    setBusy(true);
    setError(null);
    try {
      const body = { version: v, ...(name ? { name } : {}) };
      const made = await api<{ id: string; version?: number }>('POST', `/encounters/${encodeURIComponent(encounterId)}/fork`, body, {
        token,
      });
      done({ id: made.id, name: name || `${state.name} (from version ${v})`, version: made.version ?? v });
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, clearError: () => setError(null), fork };
}

/** The form: which moment, and the new encounter's name. */
function ForkForm(props: FormProps) {
  const { snap, state, display, close } = props;
  const [version, setVersion] = useState(String(snap.version));
  const [name, setName] = useState('');
  const { busy, error, clearError, fork } = useFork(props);
  const v = Number(version);
  const valid = Number.isInteger(v) && v >= 0 && v <= snap.version;
  return (
    <form
      className="card undo-confirm"
      aria-labelledby="fork-title"
      data-testid="fork-form"
      onSubmit={(e) => (e.preventDefault(), void fork(v, name.trim()))}
    >
      <p id="fork-title">
        <strong>Start a new encounter from this moment</strong>
      </p>
      <p className="muted">
        For a what-if, or next week’s fight: the same combatants, as they stood then, with fresh dice. This fight goes on unchanged; players
        need new invite links for the new one.
      </p>
      <label>
        Moment (0 is the start, {snap.version} is now){' '}
        <input
          type="number"
          min={0}
          max={snap.version}
          step={1}
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          data-testid="fork-version"
        />
      </label>
      <MomentWords snap={snap} state={state} display={display} version={v} />
      <label>
        Name (optional){' '}
        <input
          type="text"
          maxLength={120}
          value={name}
          placeholder={`${state.name} (from version ${valid ? v : snap.version})`}
          onChange={(e) => setName(e.target.value)}
          data-testid="fork-name"
        />
      </label>
      {error ? <ErrorMessage error={error} onDismiss={clearError} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={!valid || busy} data-testid="fork-yes">
          {busy ? 'Starting…' : 'Start the new encounter'}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * "Fork from here…" (docs/timeline.md, "Fork"): a new encounter whose state is this one's at a
 * chosen moment (default now), made by POST /encounters/:id/fork; then the GM opens its console
 * or stays here.
 */
export function ForkFrom(props: {
  encounterId: string;
  token: string;
  snap: LiveSnapshot;
  state: EncounterState;
  display: RulesetDisplay;
}) {
  const [open, setOpen] = useState(false);
  const [made, setMade] = useState<Made | null>(null);
  return (
    <div className="fork">
      <button type="button" onClick={() => (setOpen(!open), setMade(null))} aria-expanded={open} data-testid="fork">
        Fork from here…
      </button>
      {open ? <ForkForm {...props} done={(m) => (setOpen(false), setMade(m))} close={() => setOpen(false)} /> : null}
      {made ? (
        <div className="card undo-confirm" role="status" data-testid="fork-made">
          <p>
            ✓ New encounter <strong>{made.name}</strong> started from moment {made.version}.
          </p>
          <div className="row">
            <button
              type="button"
              className="primary"
              onClick={() => navigate(`/gm/e/${encodeURIComponent(made.id)}`)}
              data-testid="fork-open"
            >
              Open the new encounter
            </button>
            <button type="button" onClick={() => setMade(null)}>
              Stay here
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
