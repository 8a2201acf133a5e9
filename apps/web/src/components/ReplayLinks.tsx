import { useState } from 'react';
import { api } from '../lib/api.js';
import { useAsync } from '../lib/useAsync.js';
import { ErrorMessage, Section } from './common.js';

interface LinkInfo {
  id: string;
  as: string;
  branch: number | null;
  revoked: boolean;
  expiresAt: string | null;
  createdAt: string;
}

const EXPIRY = [
  { hours: 0, label: 'Never' },
  { hours: 24, label: 'In a day' },
  { hours: 24 * 7, label: 'In a week' },
  { hours: 24 * 30, label: 'In 30 days' },
];

/** The link a token opens: the shared replay page, the token after `#` (never sent to a server log). */
function replayLink(token: string): string {
  return `${window.location.origin}/replay#${token}`;
}

function NewLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="token-box" data-testid="replay-link-new">
      <p>
        <strong>Anyone with this link can watch the replay</strong> (read-only; shown once: copy it now).
      </p>
      <div className="row">
        <input
          className="link-field"
          readOnly
          value={url}
          aria-label="Replay link"
          onFocus={(e) => e.target.select()}
          data-testid="replay-link-url"
        />
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard?.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? '✓ Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** The encounter's replay links, revoked ones too; Revoke on the others. */
function LinkList({ links, labelOf, revoke }: { links: LinkInfo[]; labelOf: (as: string) => string; revoke: (id: string) => void }) {
  if (links.length === 0) return null;
  return (
    <ul className="invite-list" data-testid="replay-link-list">
      {links.map((l) => (
        <li key={l.id} className="invite">
          <p>
            As {labelOf(l.as)}
            {l.branch !== null ? ` · branch ${l.branch}` : ''} · made {new Date(l.createdAt).toLocaleString()}
            {l.expiresAt ? ` · expires ${new Date(l.expiresAt).toLocaleString()}` : ''}
            {l.revoked ? <span className="tag"> revoked</span> : null}
          </p>
          {!l.revoked ? (
            <button type="button" onClick={() => revoke(l.id)} aria-label={`Revoke the link as ${labelOf(l.as)}`}>
              Revoke
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The GM's read-only replay links (docs/timeline.md, "Replay"): made for a viewer the GM picks (a
 * spectator unless the GM says otherwise; the GM's own view only when chosen), listed and revoked.
 */
export function ReplayLinks({
  encounterId,
  choices,
  branch,
}: {
  encounterId: string;
  choices: Array<{ as: string; label: string }>;
  branch: number | null;
}) {
  const base = `/encounters/${encodeURIComponent(encounterId)}/replay-links`;
  const links = useAsync(() => api<{ links: LinkInfo[] }>('GET', base), [base]);
  const [as, setAs] = useState('spectator');
  const [hours, setHours] = useState(0);
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const labelOf = (x: string) => choices.find((c) => c.as === x)?.label ?? x;
  const create = async () => {
    setError(null);
    try {
      const r = await api<LinkInfo & { token: string }>('POST', base, {
        as,
        ...(branch !== null ? { branch } : {}),
        ...(hours ? { expiresInHours: hours } : {}),
      });
      setMade(replayLink(r.token));
      links.reload();
    } catch (e) {
      setError(e);
    }
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await api('DELETE', `${base}/${encodeURIComponent(id)}`);
      links.reload();
    } catch (e) {
      setError(e);
    }
  };
  const list = links.data?.links ?? [];
  return (
    <Section title="Share a read-only replay" id="replay-links">
      <p className="muted">
        A link that shows this replay (the timeline chosen above) to anyone who has it, as the viewer you pick. Nobody can send anything
        with it; revoke it any time.
      </p>
      <div className="row">
        <label>
          Show it as{' '}
          <select value={as} onChange={(e) => setAs(e.target.value)} data-testid="replay-link-as">
            {[...choices.filter((c) => c.as !== 'gm'), ...choices.filter((c) => c.as === 'gm')].map((c) => (
              <option key={c.as} value={c.as}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires{' '}
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {EXPIRY.map((x) => (
              <option key={x.hours} value={x.hours}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="primary" onClick={() => void create()} data-testid="replay-link-create">
          Create link
        </button>
      </div>
      {as === 'gm' ? <p className="warn-text">⚠ The GM view shows everything: hidden combatants, secret stats and secret rolls.</p> : null}
      {made ? <NewLink url={made} /> : null}
      <ErrorMessage error={error ?? links.error} />
      <LinkList links={list} labelOf={labelOf} revoke={(id) => void revoke(id)} />
    </Section>
  );
}
