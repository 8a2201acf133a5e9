import { Component, lazy, StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Home } from './screens/Home.js';
import { PlayerView } from './screens/PlayerView.js';
import { navigate, useRoute } from './lib/router.js';

/** Never a blank page: whatever breaks while rendering is shown as a message. */
// The GM's screens (schema forms with ajv, QR codes) load on their own: a player's first load
// is the player view only (docs/web.md, "Size").
const Console = lazy(() => import('./screens/Console.js').then((m) => ({ default: m.Console })));
const GmList = lazy(() => import('./screens/GmList.js').then((m) => ({ default: m.GmList })));
const AccountSettings = lazy(() => import('./screens/AccountSettings.js').then((m) => ({ default: m.AccountSettings })));
const GmReplay = lazy(() => import('./screens/Replay.js').then((m) => ({ default: m.GmReplay })));
const SharedReplay = lazy(() => import('./screens/Replay.js').then((m) => ({ default: m.SharedReplay })));
const DeviceSignIn = lazy(() => import('./screens/DeviceSignIn.js').then((m) => ({ default: m.DeviceSignIn })));

function Loading() {
  return (
    <main className="narrow-page">
      <p role="status">Loading…</p>
    </main>
  );
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return (
        <main className="narrow-page">
          <h1>Something went wrong</h1>
          <div className="error" role="alert">
            ⚠ {this.state.error.message}
          </div>
          <p>
            <button type="button" onClick={() => window.location.reload()}>
              Reload the page
            </button>
          </p>
        </main>
      );
    }
    return this.props.children;
  }
}

function App() {
  const route = useRoute();
  switch (route.name) {
    case 'home':
      return <Home />;
    case 'gm':
      return (
        <Suspense fallback={<Loading />}>
          <GmList />
        </Suspense>
      );
    case 'account':
      return (
        <Suspense fallback={<Loading />}>
          <AccountSettings />
        </Suspense>
      );
    case 'device':
      return (
        <Suspense fallback={<Loading />}>
          <DeviceSignIn code={route.code} />
        </Suspense>
      );
    case 'console':
      return (
        <Suspense fallback={<Loading />}>
          <Console key={route.encounterId} encounterId={route.encounterId} />
        </Suspense>
      );
    case 'replay':
      return (
        <Suspense fallback={<Loading />}>
          <GmReplay key={route.encounterId} encounterId={route.encounterId} />
        </Suspense>
      );
    case 'shared-replay':
      return (
        <Suspense fallback={<Loading />}>
          <SharedReplay key={route.token} token={route.token} />
        </Suspense>
      );
    case 'play':
      return <PlayerView key={route.encounterId + route.token} encounterId={route.encounterId} token={route.token} spectator={false} />;
    case 'watch':
      return <PlayerView key={route.encounterId + route.token} encounterId={route.encounterId} token={route.token} spectator />;
    default:
      return (
        <main className="narrow-page">
          <h1>Not found</h1>
          <p>
            Nothing at <code>{route.path}</code>.{' '}
            <a href="/" onClick={(e) => (e.preventDefault(), navigate('/'))}>
              Fray home
            </a>
          </p>
        </main>
      );
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
