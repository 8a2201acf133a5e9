import { useState } from 'react';
import { ErrorMessage } from '../../components/common.js';
import { api } from '../../lib/api.js';
import type { EncounterSummary } from '../../lib/types.js';

/** An encounter's name in the GM's list, with **Rename** (`PATCH /encounters/:id { name }`). */
export function EncounterName({ e, token, onDone }: { e: EncounterSummary; token: string; onDone: () => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(e.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!editing) {
    return (
      <>
        {e.name}{' '}
        <button type="button" className="link" onClick={() => (setName(e.name), setEditing(true))} aria-label={`Rename ${e.name}`}>
          Rename
        </button>
      </>
    );
  }
  const id = `rename-${e.id}`;
  return (
    <form
      className="row"
      aria-label={`Rename ${e.name}`}
      onSubmit={(ev) => {
        ev.preventDefault();
        if (!name.trim()) return setError(new Error('Give the encounter a name.'));
        setBusy(true);
        api('PATCH', `/encounters/${encodeURIComponent(e.id)}`, { name: name.trim() }, { token }).then(
          () => (setBusy(false), setEditing(false), onDone()),
          (err: unknown) => (setBusy(false), setError(err)),
        );
      }}
    >
      <label htmlFor={id} className="sr-only">
        New name for {e.name}
      </label>
      <input id={id} value={name} maxLength={120} onChange={(ev) => setName(ev.target.value)} autoFocus />
      <button type="submit" disabled={busy}>
        Save
      </button>
      <button type="button" onClick={() => (setEditing(false), setError(null))}>
        Cancel
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
