import { useState } from 'react';
import { ErrorMessage, Section } from '../components/common.js';
import { api } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { markSignedOut, useGmSession } from '../lib/session.js';
import { useAsync } from '../lib/useAsync.js';
import { ApiTokens, DeviceCode, Passkeys, Sessions } from './AccountCredentials.js';

interface AccountInfo {
  accountId: string;
  name: string | null;
  signInName: string | null;
  hasPassword: boolean;
  hasToken: boolean;
  passkeys: number;
}

/** Setting or changing the password: the fields, and what sending them did. */
function usePasswordForm(account: AccountInfo, onChange: () => void) {
  const [name, setName] = useState('');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const body = {
        password: next,
        ...(account.hasPassword ? { currentPassword: current } : {}),
        ...(account.signInName ? {} : { name: name.trim() }),
      };
      const r = await api<{ sessionsEnded: number }>('PUT', '/account/password', body);
      setDone(
        `Password ${account.hasPassword ? 'changed' : 'set'}.${r.sessionsEnded ? ` ${r.sessionsEnded} other session${r.sessionsEnded === 1 ? ' was' : 's were'} signed out.` : ''}`,
      );
      setCurrent('');
      setNext('');
      onChange();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { name, setName, current, setCurrent, next, setNext, error, done, busy, submit };
}

function Password({ account, onChange }: { account: AccountInfo; onChange: () => void }) {
  const { name, setName, current, setCurrent, next, setNext, error, done, busy, submit } = usePasswordForm(account, onChange);
  return (
    <Section title={account.hasPassword ? 'Change your password' : 'Set a password'} id="password">
      {!account.signInName ? (
        <p>Choose a sign-in name and a password, and you can sign in on any device. Your encounters stay with this account.</p>
      ) : null}
      <form onSubmit={(e) => (e.preventDefault(), void submit())}>
        {account.signInName ? (
          <input type="text" autoComplete="username" value={account.signInName} readOnly hidden />
        ) : (
          <div className="field">
            <label htmlFor="pw-name">Sign-in name</label>
            <input
              id="pw-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
            />
          </div>
        )}
        {account.hasPassword ? (
          <div className="field">
            <label htmlFor="pw-current">Current password</label>
            <input
              id="pw-current"
              type="password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              autoComplete="current-password"
              required
            />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="pw-new">New password</label>
          <input
            id="pw-new"
            type="password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            autoComplete="new-password"
            minLength={10}
            required
          />
          <p className="muted small">At least 10 characters. Your other devices are signed out.</p>
        </div>
        <ErrorMessage error={error} />
        {done ? <p role="status">✓ {done}</p> : null}
        <button type="submit" disabled={busy}>
          {account.hasPassword ? 'Change password' : 'Set password'}
        </button>
      </form>
    </Section>
  );
}

/** Account settings: passkeys, password, the device code, sessions, API tokens. */
export function AccountSettings() {
  const gm = useGmSession();
  const account = useAsync(() => (gm.status === 'in' ? api<AccountInfo>('GET', '/account') : Promise.resolve(null)), [gm.status]);
  const signedOut = () => {
    markSignedOut();
    navigate('/');
  };
  if (gm.status !== 'in') {
    return (
      <main className="narrow-page">
        <h1>Account</h1>
        <p>{gm.status === 'loading' ? 'Checking your sign-in…' : 'You are not signed in.'}</p>
        <a href="/" onClick={(e) => (e.preventDefault(), navigate('/'))}>
          Fray home
        </a>
      </main>
    );
  }
  const a = account.data;
  return (
    <main className="narrow-page">
      <header className="topbar">
        <h1>Account</h1>
        <a className="button" href="/gm" onClick={(e) => (e.preventDefault(), navigate('/gm'))}>
          Your encounters
        </a>
      </header>
      <ErrorMessage error={account.error} />
      {a ? (
        <>
          <p>
            Signed in as <strong>{a.signInName ?? a.name ?? 'a GM'}</strong>
            {a.name && a.signInName && a.name.toLowerCase() !== a.signInName ? ` (${a.name})` : ''}.
          </p>
          {!a.hasPassword && a.passkeys === 0 ? (
            <p className="token-box" role="note">
              This account has no password or passkey yet: add one below to sign in on your other devices.
            </p>
          ) : null}
          <Passkeys onChange={account.reload} />
          <Password account={a} onChange={account.reload} />
        </>
      ) : null}
      <DeviceCode />
      <Sessions onSignedOut={signedOut} />
      <ApiTokens />
    </main>
  );
}
