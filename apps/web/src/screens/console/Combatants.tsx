import { useEffect, useState } from 'react';
import { ActionPanel } from '../../components/ActionPanel.js';
import { CombatantForm } from '../../components/CombatantForm.js';
import { DuplicateButton, QuickNpcs } from '../../components/QuickNpcs.js';
import { NotOnMapNote } from '../../components/map-status.js';
import { AdjustVital, Vitals } from '../../components/Vitals.js';
import { actOrder, type ActEntry } from '../../lib/act-order.js';
import { CombatantCard, ErrorMessage, Section } from '../../components/common.js';
import { api } from '../../lib/api.js';
import { formatDuration, nameOf } from '../../lib/describe.js';
import type { RulesetDisplay } from '../../lib/display.js';
import type { Live } from '../../lib/live.js';
import type { Combatant, EncounterState, RulesetInfo } from '../../lib/types.js';
import { Fold } from './Fold.js';
import { actionsAtTop } from './GmTurn.js';

type Send = (cmd: Record<string, unknown>, text: string) => Promise<unknown>;

/** What the GM's console knows of the encounter, for its sections. */
export interface GmScope {
  state: EncounterState;
  ruleset: RulesetInfo | undefined;
  display: RulesetDisplay;
  encounterId: string;
  token: string;
  send: Send;
}

/** One choice of the *Act for* list: whose turn it is, the side, NPC or player, hidden, fallen. */
function ActChoice({
  e,
  display,
  state,
  checked,
  onPick,
}: {
  e: ActEntry;
  display: RulesetDisplay;
  state: EncounterState;
  checked: boolean;
  onPick: () => void;
}) {
  const { c } = e;
  const cls = `act-choice${e.acting ? ' acting' : ''}${e.fallen ? ' fallen' : ''}${checked ? ' picked' : ''}`;
  return (
    <label className={cls} data-testid={`act-${c.id}`}>
      <input type="radio" name="act-as" value={c.id} checked={checked} onChange={onPick} />
      <span className="act-name">
        {e.acting ? <span className="marker">▶ </span> : null}
        {c.name}
      </span>
      <span className="tag">{c.side}</span>
      <span className="tag">{c.controller ? 'player' : 'NPC'}</span>
      {e.acting ? <span className="tag tag-acting">acting now</span> : null}
      {c.hidden ? <span className="tag tag-secret">hidden</span> : null}
      {e.fallen ? <span className="tag tag-warn">fallen</span> : null}
      <Vitals display={display} state={state} c={c} numbers compact />
    </label>
  );
}

/**
 * The GM acts for any combatant (a player's or an NPC): the one acting now unless another is
 * chosen. The list follows the turn order from whoever acts now, the fallen last and dimmed.
 */
export function ActSection({
  live,
  version,
  state,
  display,
}: {
  live: Live;
  version: number;
  state: EncounterState;
  display: RulesetDisplay;
}) {
  const current = state.clock.current;
  const [actor, setActor] = useState(current ?? '');
  // a new turn: act for the one acting now
  useEffect(() => {
    if (current) setActor(current);
  }, [current]);
  const entries = actOrder(display, state);
  const actingAs = actor && state.combatants[actor] ? actor : (current ?? entries[0]?.c.id ?? '');
  return (
    <Section title="Act for a combatant" id="act">
      <fieldset className="act-list" data-testid="act-list">
        <legend>Who acts (the turn order from now; fallen last)</legend>
        {entries.map((e) => (
          <ActChoice key={e.c.id} e={e} display={display} state={state} checked={e.c.id === actingAs} onPick={() => setActor(e.c.id)} />
        ))}
      </fieldset>
      {actingAs && actionsAtTop(state, actingAs) ? (
        <p className="muted">{nameOf(state, actingAs)}'s actions are at the top, in the turn order section.</p>
      ) : actingAs ? (
        <ActionPanel live={live} state={state} version={version} combatantId={actingAs} />
      ) : null}
    </Section>
  );
}

function CardButtons({ g, c, onEdit, onError }: { g: GmScope; c: Combatant; onEdit: () => void; onError: (e: unknown) => void }) {
  const { state, encounterId, token, send } = g;
  const path = `/encounters/${encodeURIComponent(encounterId)}/combatants/${encodeURIComponent(c.id)}`;
  const reveal = () => void api('PATCH', path, { hidden: false }, { token }).then(() => undefined, onError);
  const remove = () =>
    window.confirm(`Remove ${c.name} from this encounter?`) &&
    void api('DELETE', path, undefined, { token }).then(() => undefined, onError);
  return (
    <div className="row">
      <button type="button" onClick={onEdit} aria-label={`Edit ${c.name}`}>
        Edit
      </button>
      <DuplicateButton c={c} state={state} encounterId={encounterId} token={token} onError={onError} />
      {c.hidden ? (
        <button type="button" onClick={reveal} aria-label={`Reveal ${c.name} to the players`}>
          Reveal
        </button>
      ) : null}
      {state.effects
        .filter((e) => e.targetId === c.id)
        .map((e) => (
          <button
            key={e.id}
            type="button"
            onClick={() => void send({ type: 'effect.remove', effectId: e.id }, `${e.name} removed.`)}
            aria-label={`Remove ${e.name} from ${c.name}`}
          >
            Remove {e.condition ?? e.name} ({formatDuration(e.duration)})
          </button>
        ))}
      <button type="button" className="danger" onClick={remove} aria-label={`Remove ${c.name} from the encounter`}>
        Remove
      </button>
    </div>
  );
}

/** Every combatant as a card: vitals to adjust, edit, duplicate, reveal, remove an effect, remove the combatant. */
export function CombatantsSection({ g }: { g: GmScope }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [revealError, setRevealError] = useState<unknown>(null);
  const { state, ruleset, display } = g;
  const combatants = Object.values(state.combatants);
  const sides = [...new Set(combatants.map((c) => c.side))];
  return (
    <Fold title="Combatants" id="combatants">
      {combatants.length === 0 ? <p className="muted">No combatants yet.</p> : null}
      <ErrorMessage error={revealError} onDismiss={() => setRevealError(null)} />
      <div className="cards">
        {combatants.map((c) =>
          editing === c.id && ruleset ? (
            <CombatantForm
              key={c.id}
              ruleset={ruleset}
              options={state.options}
              encounterId={g.encounterId}
              token={g.token}
              existing={c}
              sides={sides}
              onDone={() => setEditing(null)}
              state={state}
              send={g.send}
            />
          ) : (
            <CombatantCard key={c.id} state={state} c={c} display={display}>
              <AdjustVital display={display} state={state} c={c} send={g.send} />
              <CardButtons g={g} c={c} onEdit={() => setEditing(c.id)} onError={setRevealError} />
            </CombatantCard>
          ),
        )}
      </div>
    </Fold>
  );
}

/** Quick NPCs, and the full form (folded away once combat starts; the GM opens it when needed). */
export function AddSection({ g, rulesetsError }: { g: GmScope; rulesetsError: unknown }) {
  const { state, ruleset } = g;
  const combatants = Object.values(state.combatants);
  const sides = [...new Set(combatants.map((c) => c.side))];
  return (
    <Fold title="Add a combatant" id="add" phoneOpen={state.status === 'setup'}>
      {ruleset ? <QuickNpcs ruleset={ruleset} display={g.display} state={state} encounterId={g.encounterId} token={g.token} /> : null}
      <NotOnMapNote state={state} space={ruleset?.space} />
      <details className="sub" open={state.status === 'setup'} key={state.status}>
        <summary>The full form: name, side and every stat</summary>
        {ruleset ? (
          <CombatantForm
            key={combatants.length}
            ruleset={ruleset}
            options={state.options}
            encounterId={g.encounterId}
            token={g.token}
            sides={sides}
            onDone={() => undefined}
            state={state}
            send={g.send}
          />
        ) : (
          <ErrorMessage error={rulesetsError} />
        )}
      </details>
    </Fold>
  );
}
