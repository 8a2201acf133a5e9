import { useState } from 'react';
import { api } from '../lib/api.js';
import { nameOf } from '../lib/describe.js';
import { inviteLink } from '../lib/router.js';
import { isRecord, isString } from '../lib/guards.js';
import type { CreateInviteReply, EncounterDetail, EncounterState, InviteInfo } from '../lib/types.js';
import { useAsync } from '../lib/useAsync.js';
import { ErrorMessage } from './common.js';
import { CopyButton, QrCode } from './share.js';

/** Tokens this tab has seen (made or shown again): the server keeps only their hashes. */
interface Known {
  id: string;
  token: string;
}
const key = (id: string) => `fray.invites.${id}`;
function loadKnown(encounterId: string): Known[] {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(key(encounterId)) ?? '[]');
    return Array.isArray(v)
      ? v.flatMap((k: unknown) => (isRecord(k) && isString(k.id) && isString(k.token) ? [{ id: k.id, token: k.token }] : []))
      : [];
  } catch {
    return [];
  }
}

/** One open invite: its link and QR code when this tab knows the token; a new link; revoke. */
function InviteItem({
  inv,
  state,
  encounterId,
  token,
  reissue,
  revoke,
}: {
  inv: InviteInfo;
  state: EncounterState;
  encounterId: string;
  token: string | undefined;
  reissue: () => void;
  revoke: () => void;
}) {
  const who = inv.role === 'player' ? `Player: ${inv.combatantIds.map((id) => nameOf(state, id)).join(', ')}` : 'Spectator';
  const link = token ? inviteLink(inv.role, encounterId, token) : null;
  return (
    <li className="invite" data-testid={`invite-${inv.role}`} data-invite={inv.id}>
      <p>
        <strong>{who}</strong>
      </p>
      {link ? (
        <>
          <div className="row">
            <input
              readOnly
              value={link}
              aria-label={`${who} invite link`}
              className="link-field"
              data-testid="invite-link"
              onFocus={(e) => e.target.select()}
            />
            <CopyButton text={link} label={`Copy ${who} invite link`} />
          </div>
          <details>
            <summary>QR code</summary>
            <QrCode text={link} label={`QR code of the ${who} invite link`} />
          </details>
        </>
      ) : (
        <p className="muted">The link was shown in another browser or tab (only its fingerprint is kept).</p>
      )}
      <div className="row">
        <button
          type="button"
          onClick={reissue}
          aria-label={`${link ? 'New link' : 'Show link again'}: ${who} (a new link; the old one stops working)`}
        >
          {link ? 'New link' : 'Show link again'}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm(`Revoke the invite (${who})? A page open on it is disconnected.`) && revoke()}
          aria-label={`Revoke the ${who} invite`}
        >
          Revoke
        </button>
      </div>
    </li>
  );
}

/** The encounter's invites (GET /encounters/:id) and the tokens this tab knows; create, reissue, revoke. */
function useInvites(encounterId: string, token: string) {
  const [known, setKnown] = useState<Known[]>(() => loadKnown(encounterId));
  const [error, setError] = useState<unknown>(null);
  const [n, setN] = useState(0);
  const detail = useAsync(
    () => api<EncounterDetail>('GET', `/encounters/${encodeURIComponent(encounterId)}`, undefined, { token }),
    [encounterId, token, n],
  );
  const remember = (k: Known) => {
    const next = [...known.filter((x) => x.id !== k.id), k];
    sessionStorage.setItem(key(encounterId), JSON.stringify(next));
    setKnown(next);
    setN((x) => x + 1);
  };
  const call = async (f: () => Promise<void>) => {
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e);
    }
  };
  const base = `/encounters/${encodeURIComponent(encounterId)}/invites`;
  /** a new invite; `then` once it is made */
  const create = (body: { role: 'player'; combatantIds: string[] } | { role: 'spectator' }, then: () => void) =>
    call(async () => {
      remember(await api<CreateInviteReply>('POST', base, body, { token }));
      then();
    });
  const reissue = (id: string) =>
    call(async () => remember(await api<CreateInviteReply>('POST', `${base}/${encodeURIComponent(id)}/reissue`, undefined, { token })));
  const revoke = (id: string) =>
    call(async () => {
      await api('DELETE', `${base}/${encodeURIComponent(id)}`, undefined, { token });
      setN((x) => x + 1);
    });
  return { known, error: error ?? detail.error, invites: detail.data?.invites ?? [], create, reissue, revoke };
}

/**
 * Every invite of the encounter, from the server (so from any browser): its link and QR code when
 * this tab knows the token; **Show link again** issues a new token for the same player (the old
 * link stops working); **Revoke** ends it (a page open on it is disconnected).
 */
export function Invites({ encounterId, token, state }: { encounterId: string; token: string; state: EncounterState }) {
  const inv = useInvites(encounterId, token);
  const [chosen, setChosen] = useState<string[]>([]);
  const open = inv.invites.filter((i) => !i.revoked);
  const revoked = inv.invites.filter((i) => i.revoked).length;
  return (
    <div className="invites">
      <form onSubmit={(e) => (e.preventDefault(), void inv.create({ role: 'player', combatantIds: chosen }, () => setChosen([])))}>
        <fieldset className="checks">
          <legend>Player invite: the combatants this player controls</legend>
          {Object.values(state.combatants).map((c) => (
            <label key={c.id}>
              <input
                type="checkbox"
                checked={chosen.includes(c.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id))}
              />{' '}
              {c.name}
              {c.controller ? <span className="muted"> (has a player)</span> : null}
            </label>
          ))}
        </fieldset>
        <div className="row">
          <button type="submit" disabled={chosen.length === 0}>
            Create player invite
          </button>
          <button type="button" onClick={() => void inv.create({ role: 'spectator' }, () => setChosen([]))}>
            Create spectator invite
          </button>
        </div>
      </form>
      <ErrorMessage error={inv.error} />
      <ul className="invite-list">
        {open.map((i) => (
          <InviteItem
            key={i.id}
            inv={i}
            state={state}
            encounterId={encounterId}
            token={inv.known.find((k) => k.id === i.id)?.token}
            reissue={() => void inv.reissue(i.id)}
            revoke={() => void inv.revoke(i.id)}
          />
        ))}
      </ul>
      {revoked ? (
        <p className="muted">
          {revoked} revoked or replaced invite{revoked === 1 ? '' : 's'}.
        </p>
      ) : null}
    </div>
  );
}
