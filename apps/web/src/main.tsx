import { Component, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { AccountSettings } from './screens/AccountSettings.js';
import { Console } from './screens/Console.js';
import { DeviceSignIn } from './screens/DeviceSignIn.js';
import { GmList } from './screens/GmList.js';
import { Home } from './screens/Home.js';
import { PlayerView } from './screens/PlayerView.js';
import { navigate, useRoute } from './lib/router.js';
import './style.css';

/** Never a blank page: whatever breaks while rendering is shown as a message. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
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
      return <GmList />;
    case 'account':
      return <AccountSettings />;
    case 'device':
      return <DeviceSignIn code={route.code} />;
    case 'console':
      return <Console key={route.encounterId} encounterId={route.encounterId} />;
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
