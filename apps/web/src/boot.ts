import { openEarly } from './lib/early.js';
import './style.css';
import './polish.css';
import './forms.css';

// The entry: a player's or spectator's page connects at once (socket.io, join), while React and
// the screens (main.tsx, preloaded by index.html) download alongside: docs/web.md, "Size".
const m = /^\/(play|watch)\/([^/]+)\/?$/.exec(window.location.pathname);
const token = window.location.hash.replace(/^#/, '');
if (m && token) openEarly(token, decodeURIComponent(m[2]!));
void import('./main.js');
