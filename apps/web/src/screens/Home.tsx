import { useState } from 'react';
import { ErrorMessage, Section } from '../components/common.js';
import { api, ApiError } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { loadAccount, saveAccount, type Account } from '../lib/storage.js';

/** Sign up (a new GM account) or sign in (with an account token), or open an invite link. */
export function Home() {
  const [account, setAccount] = useState<Account | null>(() => loadAccount());
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [link, setLink] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const signUp = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = name.trim() ? { name: name.trim() } : {};
      const r = await api<{ accountId: string; token: string }>('POST', '/accounts', body);
      const a = { accountId: r.accountId, token: r.token, name: name.trim() || undefined };
      saveAccount(a);
      setAccount(a);
      navigate('/gm');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const t = token.trim();
      if (!t) throw new ApiError('INVALID_REQUEST', 'Paste your account token.', 0);
      await api('GET', '/encounters', undefined, { token: t });
      const a = { accountId: null, token: t };
      saveAccount(a);
      setAccount(a);
      navigate('/gm');
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? new ApiError('UNAUTHORIZED', 'That token is not a Fray account token.', 401) : e);
    } finally {
      setBusy(false);
    }
  };
  const openLink = () => {
    try {
      const u = new URL(link.trim(), window.location.origin);
      if (!/^\/(play|watch)\//.test(u.pathname) || !u.hash) throw new Error('bad');
      navigate(u.pathname + u.hash);
    } catch {
      setError(new ApiError('INVALID_LINK', 'That is not a Fray invite link (it looks like …/play/<encounter>#<token>).', 0));
    }
  };

  return (
    <main className="home">
      <h1>
        <span aria-hidden="true">⚔ </span>Fray
      </h1>
      <p className="lead">Real-time combat for tabletop role-playing games: the GM runs the fight, players act from their own devices, the rules are checked by the server.</p>
      <ErrorMessage error={error} onDismiss={() => setError(null)} />
      {account ? (
        <Section title="Game master">
          <p>You are signed in{account.name ? ` as ${account.name}` : ''}.</p>
          <div className="row">
            <a className="button primary" href="/gm" onClick={(e) => (e.preventDefault(), navigate('/gm'))}>
              Your encounters
            </a>
            <button type="button" onClick={() => (saveAccount(null), setAccount(null))}>
              Sign out
            </button>
          </div>
        </Section>
      ) : (
        <div className="grid2">
          <Section title="New game master">
            <form onSubmit={(e) => (e.preventDefault(), void signUp())}>
              <div className="field">
                <label htmlFor="signup-name">Your name (optional)</label>
                <input id="signup-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} autoComplete="nickname" />
              </div>
              <button type="submit" className="primary" disabled={busy}>
                Create a GM account
              </button>
              <p className="muted small">You get an account token, kept in this browser. Copy it from your encounters page to sign in elsewhere.</p>
            </form>
          </Section>
          <Section title="Sign in">
            <form onSubmit={(e) => (e.preventDefault(), void signIn())}>
              <div className="field">
                <label htmlFor="signin-token">Account token</label>
                <input id="signin-token" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="current-password" type="password" />
              </div>
              <button type="submit" disabled={busy}>
                Sign in
              </button>
            </form>
          </Section>
        </div>
      )}
      <Section title="Player or spectator">
        <form onSubmit={(e) => (e.preventDefault(), openLink())}>
          <div className="field">
            <label htmlFor="invite-link">Invite link from your GM</label>
            <input id="invite-link" value={link} onChange={(e) => setLink(e.target.value)} inputMode="url" />
          </div>
          <button type="submit">Join</button>
        </form>
      </Section>
    </main>
  );
}
