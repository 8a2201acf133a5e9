import { ActionPanel } from '../../components/ActionPanel.js';
import { nameOf } from '../../lib/describe.js';
import type { Live } from '../../lib/live.js';
import type { EncounterState } from '../../lib/types.js';

/** Combatants no player controls: the GM plays them. */
const gmPlays = (state: EncounterState, id: string): boolean => Boolean(state.combatants[id]) && !state.combatants[id]?.controller;

/** The GM's combatants that may still answer the open reaction window. */
const npcReactors = (state: EncounterState): string[] => {
  const w = state.reaction;
  return w ? w.eligible.filter((id) => gmPlays(state, id) && w.responses[id] === 'pending') : [];
};

/** The NPC whose turn the first screen shows (none while one of the GM's combatants answers a reaction). */
const npcActing = (state: EncounterState): string | null => {
  const current = state.clock.current;
  return state.status === 'active' && current && gmPlays(state, current) && npcReactors(state).length === 0 ? current : null;
};

/** Whether a combatant's actions are already in the first screen (its NPC turn, or its reaction in the window). */
export const actionsAtTop = (state: EncounterState, id: string): boolean => npcActing(state) === id || npcReactors(state).includes(id);

/**
 * An NPC's turn, in the console's first screen (beside the map and the turn order): its possible
 * actions, so the GM plays it without scrolling (*Act for a combatant* then points here).
 */
export function NpcTurn({ live, version, state }: { live: Live; version: number; state: EncounterState }) {
  // while one of the GM's combatants answers a reaction, its reaction choices are in the window instead
  const current = npcActing(state);
  if (!current) return null;
  return (
    <section className="npc-turn" aria-labelledby="npc-turn-h" data-testid="npc-turn">
      <h3 id="npc-turn-h">▶ {nameOf(state, current)}'s turn (you play it)</h3>
      <ActionPanel live={live} state={state} version={version} combatantId={current} showBlocked={false} />
    </section>
  );
}

/** In the reaction window: the reaction choices of each of the GM's combatants that may still answer (as a player's prompt shows them). */
export function NpcReactions({ live, version, state }: { live: Live; version: number; state: EncounterState }) {
  const ids = npcReactors(state);
  return (
    <>
      {ids.map((id) => (
        <div key={id} className="npc-reaction" data-testid={`npc-reaction-${id}`}>
          <h4>{nameOf(state, id)} may react</h4>
          <ActionPanel live={live} state={state} version={version} combatantId={id} showBlocked={false} />
        </div>
      ))}
    </>
  );
}
