import { useState } from 'react';
import { Countdown, ErrorMessage, Section } from '../components/common.js';
import { CopyButton, QrCode } from '../components/share.js';
import { api } from '../lib/api.js';
import { addPasskey, passkeysSupported } from '../lib/passkeys.js';
import { useAsync } from '../lib/useAsync.js';

/** Account settings' lists: passkeys, the device code, sessions, API tokens (each a section). */

export function when(iso: string | null): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "Firefox on Android" from a user agent: enough to tell one's devices apart. */
export function deviceOf(ua: string | null): string {
  if (!ua) return 'Unknown device';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : /curl|node|undici/i.test(ua)
            ? 'A script'
            : 'A browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

function useAction(after: () => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      after();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, clear: () => setError(null) };
}

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function Passkeys({ onChange }: { onChange: () => void }) {
  const list = useAsync(() => api<{ passkeys: Passkey[] }>('GET', '/account/passkeys'), []);
  const [name, setName] = useState('');
  const act = useAction(() => (list.reload(), onChange()));
  const keys = list.data?.passkeys ?? [];
  return (
    <Section title="Passkeys" id="passkeys">
      <p className="muted small">
        A passkey signs you in with this device’s fingerprint, face or PIN: nothing to remember, nothing to steal.
      </p>
      {keys.length === 0 && !list.loading ? <p>No passkeys yet.</p> : null}
      <ul className="plain-list">
        {keys.map((k) => (
          <li key={k.id} data-testid="passkey-row">
            <span>
              <strong>{k.name}</strong>{' '}
              <span className="muted small">
                added {when(k.createdAt)}, last used {when(k.lastUsedAt)}
              </span>
            </span>
            <button
              type="button"
              className="danger"
              disabled={act.busy}
              onClick={() => void act.run(() => api('DELETE', `/account/passkeys/${encodeURIComponent(k.id)}`).then(() => undefined))}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {passkeysSupported() ? (
        <form
          className="row"
          onSubmit={(e) => (e.preventDefault(), void act.run(async () => (await addPasskey(name.trim() || undefined), setName(''))))}
        >
          <label className="sr-only" htmlFor="passkey-name">
            Passkey name
          </label>
          <input
            id="passkey-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Name (e.g. My phone)"
            maxLength={80}
          />
          <button type="submit" className="primary" disabled={act.busy}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p className="muted">This browser cannot use passkeys.</p>
      )}
      <ErrorMessage error={act.error ?? list.error} onDismiss={act.clear} />
    </Section>
  );
}

export function DeviceCode() {
  const [code, setCode] = useState<{ code: string; url: string; expiresAt: string } | null>(null);
  const act = useAction(() => undefined);
  const expired = code ? Date.parse(code.expiresAt) <= Date.now() : false;
  return (
    <Section title="Sign in another device" id="device">
      <p className="muted small">
        Show a one-time code, then scan it with the phone or tablet, or type the code at its Fray page under “Use a sign-in code”.
      </p>
      {code && !expired ? (
        <div className="device-code" data-testid="device-code">
          <QrCode text={code.url} label={`QR code to sign in: ${code.code}`} />
          <div>
            <p className="code-big" aria-label="Sign-in code">
              {code.code}
            </p>
            <p className="small">
              Good once, for <Countdown at={Date.parse(code.expiresAt)} label="Code expires" />.
            </p>
          </div>
        </div>
      ) : null}
      <button
        type="button"
        disabled={act.busy}
        onClick={() => void act.run(async () => setCode(await api('POST', '/account/device-codes')))}
      >
        {code ? 'Show a new code' : 'Show a sign-in code'}
      </button>
      <ErrorMessage error={act.error} onDismiss={act.clear} />
    </Section>
  );
}

interface SessionRow {
  id: string;
  method: string;
  userAgent: string | null;
  lastSeenAt: string;
  createdAt: string;
  current: boolean;
}

export function Sessions({ onSignedOut }: { onSignedOut: () => void }) {
  const list = useAsync(() => api<{ sessions: SessionRow[] }>('GET', '/sessions'), []);
  const act = useAction(() => list.reload());
  return (
    <Section title="Where you are signed in" id="sessions">
      <ul className="plain-list">
        {(list.data?.sessions ?? []).map((s) => (
          <li key={s.id} data-testid="session-row">
            <span>
              <strong>{deviceOf(s.userAgent)}</strong> {s.current ? <span className="badge">this device</span> : null}{' '}
              <span className="muted small">
                signed in {when(s.createdAt)} by {s.method}, last seen {when(s.lastSeenAt)}
              </span>
            </span>
            <button
              type="button"
              disabled={act.busy}
              onClick={() =>
                void act.run(async () => {
                  await api('DELETE', `/sessions/${encodeURIComponent(s.id)}`);
                  if (s.current) onSignedOut();
                })
              }
            >
              {s.current ? 'Sign out' : 'End'}
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="danger"
        disabled={act.busy}
        onClick={() => void act.run(async () => (await api('DELETE', '/sessions'), onSignedOut()))}
      >
        Sign out everywhere
      </button>
      <ErrorMessage error={act.error ?? list.error} onDismiss={act.clear} />
    </Section>
  );
}

interface TokenRow {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function ApiTokens() {
  const list = useAsync(() => api<{ tokens: TokenRow[] }>('GET', '/account/tokens'), []);
  const [name, setName] = useState('');
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const act = useAction(() => list.reload());
  return (
    <Section title="API tokens" id="tokens">
      <p className="muted small">
        For scripts: send <code>Authorization: Bearer &lt;token&gt;</code>. A token can run encounters but not change this account.
      </p>
      {made ? (
        <p className="token-box" data-testid="new-token">
          <strong>{made.name}</strong>: <code>{made.token}</code> <CopyButton text={made.token} label="Copy the new token" />
          <br />
          <span className="small">Copy it now: it is not shown again.</span>
        </p>
      ) : null}
      <ul className="plain-list">
        {(list.data?.tokens ?? []).map((t) => (
          <li key={t.id} data-testid="token-row">
            <span>
              <strong>{t.name}</strong>{' '}
              <span className="muted small">
                made {when(t.createdAt)}, last used {when(t.lastUsedAt)}
              </span>
            </span>
            <button
              type="button"
              className="danger"
              disabled={act.busy}
              onClick={() => void act.run(async () => (await api('DELETE', `/account/tokens/${encodeURIComponent(t.id)}`), setMade(null)))}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <form
        className="row"
        onSubmit={(e) => (
          e.preventDefault(),
          void act.run(async () => (setMade(await api('POST', '/account/tokens', { name: name.trim() })), setName('')))
        )}
      >
        <label className="sr-only" htmlFor="token-name">
          Token name
        </label>
        <input
          id="token-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Name (e.g. Initiative importer)"
          maxLength={80}
          required
        />
        <button type="submit" disabled={act.busy}>
          Create a token
        </button>
      </form>
      <ErrorMessage error={act.error ?? list.error} onDismiss={act.clear} />
    </Section>
  );
}
