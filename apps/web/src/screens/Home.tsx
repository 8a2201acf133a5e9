import { useState } from 'react';
import { ErrorMessage, Section } from '../components/common.js';
import { api, ApiError } from '../lib/api.js';
import { passkeysSupported, signInWithPasskey } from '../lib/passkeys.js';
import { navigate } from '../lib/router.js';
import { signedIn, signOut, useGmSession } from '../lib/session.js';

const PASSWORD_MIN = 10;

function Link({ to, children, className }: { to: string; children: React.ReactNode; className?: string }) {
  return (
    <a className={className} href={to} onClick={(e) => (e.preventDefault(), navigate(to))}>
      {children}
    </a>
  );
}

type Run = (fn: () => Promise<void>) => Promise<void>;

/** Sign in: a passkey first, a name and password second, or a code from another device. */
function SignIn({ run, busy }: { run: Run; busy: boolean }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const withPasskey = () =>
    run(async () => {
      signedIn(await signInWithPasskey<{ accountId: string; sessionId: string; csrfToken: string }>());
      navigate('/gm');
    });
  const withPassword = () =>
    run(async () => {
      signedIn(
        await api<{ accountId: string; sessionId: string; csrfToken: string }>('POST', '/sessions', { name: name.trim(), password }),
      );
      navigate('/gm');
    });
  return (
    <Section title="Sign in">
      {passkeysSupported() ? (
        <>
          <button type="button" className="primary wide" disabled={busy} onClick={() => void withPasskey()}>
            Sign in with a passkey
          </button>
          <p className="muted small or">or with your name and password</p>
        </>
      ) : null}
      <form onSubmit={(e) => (e.preventDefault(), void withPassword())}>
        <div className="field">
          <label htmlFor="signin-name">Name</label>
          <input
            id="signin-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="signin-password">Password</label>
          <input
            id="signin-password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            required
          />
        </div>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p className="small">
        Signed in on another device? <Link to="/gm/device">Use a sign-in code</Link>.
      </p>
    </Section>
  );
}

function SignUp({ run, busy }: { run: Run; busy: boolean }) {
  const [newName, setNewName] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const signUp = () =>
    run(async () => {
      if ([...newPassword].length < PASSWORD_MIN)
        throw new ApiError(
          'WEAK_PASSWORD',
          `Choose a password of at least ${PASSWORD_MIN} characters; a few words together are easy to remember.`,
          0,
        );
      signedIn(await api<{ accountId: string; csrfToken: string }>('POST', '/accounts', { name: newName.trim(), password: newPassword }));
      navigate('/gm');
    });
  return (
    <Section title="New game master">
      <form onSubmit={(e) => (e.preventDefault(), void signUp())}>
        <div className="field">
          <label htmlFor="signup-name">Choose a name</label>
          <input
            id="signup-name"
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            minLength={3}
            maxLength={32}
            pattern="[A-Za-z0-9][A-Za-z0-9._\-]{2,31}"
            required
            aria-describedby="signup-name-help"
          />
          <p id="signup-name-help" className="muted small">
            3 to 32 letters, digits, <code>.</code> <code>_</code> or <code>-</code>. You sign in with it.
          </p>
        </div>
        <div className="field">
          <label htmlFor="signup-password">Choose a password</label>
          <input
            id="signup-password"
            type="password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
            autoComplete="new-password"
            minLength={PASSWORD_MIN}
            required
            aria-describedby="signup-password-help"
          />
          <p id="signup-password-help" className="muted small">
            At least {PASSWORD_MIN} characters. You can add a passkey afterwards.
          </p>
        </div>
        <button type="submit" className="primary" disabled={busy}>
          Create a GM account
        </button>
      </form>
    </Section>
  );
}

/** An invite link pasted by a player or spectator. */
function JoinByLink({ onError }: { onError: (e: unknown) => void }) {
  const [link, setLink] = useState('');
  const openLink = () => {
    try {
      const u = new URL(link.trim(), window.location.origin);
      if (!/^\/(play|watch)\//.test(u.pathname) || !u.hash) throw new Error('bad');
      navigate(u.pathname + u.hash);
    } catch {
      onError(new ApiError('INVALID_LINK', 'That is not a Fray invite link (it looks like …/play/<encounter>#<token>).', 0));
    }
  };
  return (
    <Section title="Player or spectator">
      <form onSubmit={(e) => (e.preventDefault(), openLink())}>
        <div className="field">
          <label htmlFor="invite-link">Invite link from your GM</label>
          <input id="invite-link" value={link} onChange={(e) => setLink(e.target.value)} inputMode="url" />
        </div>
        <button type="submit">Join</button>
      </form>
    </Section>
  );
}

/** Sign in (a passkey first, a password second), sign up, a code from another device, or an invite link. */
export function Home() {
  const gm = useGmSession();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run: Run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="home">
      <h1>
        <span aria-hidden="true">⚔ </span>Fray
      </h1>
      <p className="lead">
        Real-time combat for tabletop role-playing games: the GM runs the fight, players act from their own devices, the rules are checked
        by the server.
      </p>
      <ErrorMessage error={error} onDismiss={() => setError(null)} />
      {gm.status === 'loading' ? <p className="muted">Checking your sign-in…</p> : null}
      {gm.status === 'in' ? (
        <Section title="Game master">
          <p>You are signed in.</p>
          <div className="row">
            <Link className="button primary" to="/gm">
              Your encounters
            </Link>
            <Link className="button" to="/gm/account">
              Account settings
            </Link>
            <button type="button" onClick={() => void run(signOut)}>
              Sign out
            </button>
          </div>
        </Section>
      ) : null}
      {gm.status === 'out' ? (
        <div className="grid2">
          <SignIn run={run} busy={busy} />
          <SignUp run={run} busy={busy} />
        </div>
      ) : null}
      <JoinByLink onError={setError} />
    </main>
  );
}
