import { useState } from 'react';
import { ErrorMessage } from '../../components/common.js';
import { encounterFileName, ExportButton } from '../../components/Transfer.js';
import { api } from '../../lib/api.js';
import type { EncounterSummary } from '../../lib/types.js';

/**
 * The confirm of **Delete** in the GM's list (`DELETE /encounters/:id`): it names the encounter and
 * says what follows (its players are disconnected, it cannot be undone), offers a copy first, and
 * deletes it on **Delete for good**.
 */
export function DeleteConfirm({
  e,
  token,
  onDone,
  onCancel,
}: {
  e: EncounterSummary;
  token: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const titleId = `delete-title-${e.id}`;
  const remove = () => {
    setBusy(true);
    setError(null);
    api('DELETE', `/encounters/${encodeURIComponent(e.id)}`, undefined, { token }).then(
      () => (setBusy(false), onDone()),
      (err: unknown) => (setBusy(false), setError(err)),
    );
  };
  return (
    <div role="alertdialog" aria-labelledby={titleId} className="card delete-confirm" data-testid="delete-confirm">
      <p id={titleId}>
        <strong>{`Delete '${e.name}'?`}</strong> Players are disconnected; this cannot be undone.
      </p>
      <p className="muted">Its log, invites and replay links go with it. To keep a copy, export it first.</p>
      <div className="row">
        <button type="button" className="danger" onClick={remove} disabled={busy} data-testid="delete-yes">
          {busy ? 'Deleting…' : 'Delete for good'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy} autoFocus>
          Keep it
        </button>
        <ExportButton
          path={`/encounters/${encodeURIComponent(e.id)}/export`}
          name={encounterFileName(e.name)}
          token={token}
          label="Export a copy"
        />
      </div>
      <ErrorMessage error={error} />
    </div>
  );
}
