import { Fragment, useState } from 'react';
import { navigate } from '../../lib/router.js';
import type { EncounterSummary, RulesetInfo } from '../../lib/types.js';
import { DeleteConfirm } from './DeleteEncounter.js';
import { EncounterName } from './EncounterName.js';

function ago(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((Date.now() - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

/** A link inside the app (the router, not a page load). */
function AppLink({ to, label, children, testId }: { to: string; label: string; children: string; testId?: string }) {
  return (
    <a className="button" href={to} onClick={(ev) => (ev.preventDefault(), navigate(to))} aria-label={label} data-testid={testId}>
      {children}
    </a>
  );
}

const COLUMNS = ['Name', 'Ruleset', 'Status', 'Round', 'Last activity'];

interface RowProps {
  e: EncounterSummary;
  rulesets: RulesetInfo[] | null;
  token: string;
  reload: () => void;
  asking: boolean;
  ask: () => void;
}

/** One encounter: its name (Rename), its summary, and Resume, Replay, Delete. */
function EncounterRow({ e, rulesets, token, reload, asking, ask }: RowProps) {
  const at = `/gm/e/${encodeURIComponent(e.id)}`;
  return (
    <tr data-testid="encounter-row">
      <td data-label="Name">
        <span className="cell">
          <EncounterName e={e} token={token} onDone={reload} />
        </span>
      </td>
      <td data-label="Ruleset">{rulesets?.find((r) => r.id === e.ruleset)?.name ?? e.ruleset}</td>
      <td data-label="Status">{e.status}</td>
      <td data-label="Round">{e.round}</td>
      <td data-label="Last activity">
        <time dateTime={e.updatedAt}>{ago(e.updatedAt)}</time>
      </td>
      <td className="encounter-actions">
        <AppLink to={at} label={`Resume ${e.name}`}>
          Resume ▶
        </AppLink>
        <AppLink to={`${at}/replay`} label={`Replay ${e.name}`} testId="replay-link">
          Replay
        </AppLink>
        <button type="button" className="danger" onClick={ask} disabled={asking} aria-label={`Delete ${e.name}`} data-testid="delete">
          Delete
        </button>
      </td>
    </tr>
  );
}

/** The saved encounters as a table (cards on a phone), each with Resume, Replay and Delete (its confirm in a row below it). */
export function EncounterTable({
  encounters,
  rulesets,
  token,
  reload,
}: {
  encounters: EncounterSummary[];
  rulesets: RulesetInfo[] | null;
  token: string;
  reload: () => void;
}) {
  const [asking, setAsking] = useState<string | null>(null);
  return (
    <div className="table-wrap">
      <table className="cards-on-phone encounter-list">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {encounters.map((e) => (
            <Fragment key={e.id}>
              <EncounterRow e={e} rulesets={rulesets} token={token} reload={reload} asking={asking === e.id} ask={() => setAsking(e.id)} />
              {asking === e.id ? (
                <tr className="confirm-row">
                  <td colSpan={COLUMNS.length + 1}>
                    <DeleteConfirm e={e} token={token} onDone={() => (setAsking(null), reload())} onCancel={() => setAsking(null)} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
