import type { Ctx, EngineEvent } from '@fray/engine';
import type { FreeformOptions } from './options.js';
import { dataOf, type RS, type State } from './state.js';

/** Where a condition's duration counts down, and how many boundaries are left. */
export interface Expiry {
  at: 'turn-start' | 'turn-end' | 'round-end';
  left: number;
}

/** Every event of freeform's own. */
export type FreeformEvent =
  | { type: 'freeform.initiative'; combatantId: string; value: number; rolled: boolean }
  | { type: 'freeform.tie-broken'; combatantId: string; roll: number }
  | { type: 'freeform.round-started'; round: number }
  | { type: 'freeform.turn-started'; combatantId: string; round: number }
  | { type: 'freeform.turn-ended'; combatantId: string }
  | {
      type: 'freeform.acted';
      combatantId: string;
      kind: 'attack' | 'cast' | 'other';
      description: string;
      targetId: string | null;
      rolled: boolean;
      total: number | null;
      formula: string | null;
    }
  | { type: 'freeform.delayed'; combatantId: string }
  | { type: 'freeform.resumed'; combatantId: string; afterId: string | null }
  | { type: 'freeform.vital-changed'; combatantId: string; vital: string; label: string; amount: number; change: string; value: number }
  | { type: 'freeform.condition-ticked'; effectId: string; left: number; gmOnly?: true };

/** Emit one of freeform's events. */
export function emit(ctx: Ctx<RS, FreeformOptions>, event: FreeformEvent): void {
  ctx.emit(event);
}

/** Apply one of freeform's events to the draft; false when it is not one. */
export function evolve(draft: State, event: EngineEvent): boolean {
  if (!event.type.startsWith('freeform.')) return false;
  // the engine hands over freeform's events as it stored them: the ones `emit` typed
  const e = event as FreeformEvent;
  switch (e.type) {
    case 'freeform.initiative':
      dataOf(draft.combatants[e.combatantId]!).initiative = e.value;
      return true;
    case 'freeform.turn-started': {
      const d = dataOf(draft.combatants[e.combatantId]!);
      d.actions = 0;
      d.holding = false;
      draft.rs.turns += 1;
      return true;
    }
    case 'freeform.acted':
      dataOf(draft.combatants[e.combatantId]!).actions += 1;
      return true;
    case 'freeform.delayed':
      dataOf(draft.combatants[e.combatantId]!).holding = true;
      return true;
    case 'freeform.resumed':
      dataOf(draft.combatants[e.combatantId]!).holding = false;
      return true;
    case 'freeform.vital-changed':
      dataOf(draft.combatants[e.combatantId]!)[e.vital] = e.value;
      return true;
    case 'freeform.condition-ticked': {
      const effect = draft.effects.find((x) => x.id === e.effectId);
      if (effect) effect.expires = { ...(effect.expires as Expiry), left: e.left };
      return true;
    }
    case 'freeform.tie-broken':
    case 'freeform.round-started':
    case 'freeform.turn-ended':
      return true;
  }
}
