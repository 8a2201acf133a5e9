import { openEarly } from './lib/early.js';
import './styles/00-base.css';
import './styles/01-console.css';
import './styles/01b-console-cards.css';
import './styles/02-map.css';
import './styles/03-vitals.css';
import './styles/04-accounts.css';
import './styles/05-your-turn.css';
import './styles/06-token-vitals.css';
import './styles/07-turn-flow.css';
import './styles/08-replay.css';
import './styles/09-schema-rows.css';
import './polish.css';
import './forms.css';

// The entry: a player's or spectator's page connects at once (socket.io, join), while React and
// the screens (main.tsx, preloaded by index.html) download alongside: docs/web.md, "Size".
const m = /^\/(play|watch)\/([^/]+)\/?$/.exec(window.location.pathname);
const token = window.location.hash.replace(/^#/, '');
if (m && token) openEarly(token, decodeURIComponent(m[2]!));
void import('./main.js');
