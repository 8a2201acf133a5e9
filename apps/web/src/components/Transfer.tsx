import { useState } from 'react';
import { api, describeError } from '../lib/api.js';

/**
 * Moving encounters between servers (docs/hosting.md): download one encounter or the whole
 * account as a file, and import such a file here. The server checks a file by replaying it.
 */

function download(data: unknown, name: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const slug = (s: string): string =>
  s
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'encounter';

/** "Export" button: the file of one encounter (log, snapshots, options; never invite links). */
export function ExportButton({ path, name, token, label }: { path: string; name: string; token: string | null; label: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="row">
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          api<unknown>('GET', path, undefined, { token })
            .then((file) => download(file, name))
            .catch((e: unknown) => setError(describeError(e)))
            .finally(() => setBusy(false));
        }}
      >
        {busy ? 'Exporting…' : label}
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </span>
  );
}

export const encounterFileName = (name: string): string => `${slug(name)}.fray-encounter.json`;

/** Import an encounter or account file: each encounter becomes a new one of this account. */
export function ImportFile({ token, onDone }: { token: string | null; onDone: () => void }) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <label className="row">
      <span>Import an encounter or account file</span>
      <input
        type="file"
        accept="application/json,.json"
        onChange={(ev) => {
          const file = ev.target.files?.[0];
          ev.target.value = '';
          if (!file) return;
          setStatus('Importing…');
          file
            .text()
            .then((text) => {
              let body: unknown;
              try {
                body = JSON.parse(text);
              } catch {
                throw new Error(`${file.name} is not a Fray export (not JSON, or cut short).`);
              }
              return api<{ encounters: Array<{ name: string }> }>('POST', '/encounters/import', body, { token });
            })
            .then((r) => {
              setStatus(`Imported ${r.encounters.map((e) => e.name).join(', ')}.`);
              onDone();
            })
            .catch((e: unknown) => setStatus(describeError(e)));
        }}
      />
      {status ? <span role="status">{status}</span> : null}
    </label>
  );
}
