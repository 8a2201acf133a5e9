import { useState } from 'react';
import { ErrorMessage, Section } from '../components/common.js';
import { api } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { signedIn } from '../lib/session.js';

/** Sign in on this device with the one-time code another signed-in device shows (or its QR code's link, /device#CODE). */
export function DeviceSignIn({ code: fromLink }: { code: string }) {
  const [code, setCode] = useState(fromLink);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      signedIn(await api<{ accountId: string; sessionId: string; csrfToken: string }>('POST', '/sessions/device', { code: code.trim() }));
      history.replaceState(null, '', '/gm/device');
      navigate('/gm', true);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="narrow-page">
      <h1>Sign in with a code</h1>
      <Section title="Code from your other device">
        <p>
          On a device where you are signed in, open <strong>Account settings → Sign in another device</strong>. Type the code it shows, or
          scan its QR code.
        </p>
        <form onSubmit={(e) => (e.preventDefault(), void submit())}>
          <div className="field">
            <label htmlFor="device-code">Code</label>
            <input
              id="device-code"
              className="code-input"
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="XXXX-XXXX"
              maxLength={12}
              required
            />
          </div>
          <ErrorMessage error={error} />
          <button type="submit" className="primary" disabled={busy}>
            Sign in
          </button>
        </form>
      </Section>
      <p>
        <a href="/" onClick={(e) => (e.preventDefault(), navigate('/'))}>
          Back to Fray home
        </a>
      </p>
    </main>
  );
}
