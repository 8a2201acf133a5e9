import { makeEffect, type Effect } from '@fray/engine';
import type { LCtx, LState } from '../state/index.js';

/** Durations: when an effect ends, as a marker in the turn order ("the position in turn order you originally occupied"). */

export type Marker =
  { at: 'turn-start' | 'turn-end'; round: number; anchor: string } | { at: 'round-end'; round: number } | { at: 'movement'; round: number };

/** the anchor meaning "the end of the action phase" */
export const END = '#end';

/**
 * "that countdown starts from the acting character's turn during the action phase, and ticks
 * down when it reaches the same place in turn order next round ... If a duration begins during
 * the movement phase, that countdown starts from the current movement phase, and ticks down at
 * the beginning of every movement phase."
 *
 * Units: round(s) / turn(s) (anchored to the acting character), start-of-turn and end-of-turn
 * (anchored to the effect's target: "the beginning or end of a certain character's turn"),
 * end-of-round, movement-phase(s), second(s) (5 seconds a round). Anything else lasts until removed.
 */
export function effectExpiry(state: LState, effect: Effect): Marker | null {
  const d = effect.duration;
  if (!d) return null;
  const { round, phase, current } = state.clock;
  const n = d.count;
  const unit = d.unit.toLowerCase().replace(/s$/, '');
  const rounds = unit === 'second' ? Math.ceil(n / 5) : n;
  const inTurn = phase === 'action' && current !== null;
  switch (unit) {
    case 'round':
    case 'turn':
    case 'second':
      return inTurn ? { at: 'turn-start', round: round + rounds, anchor: current } : { at: 'movement', round: round + rounds };
    case 'movement-phase':
      return { at: 'movement', round: round + n };
    case 'end-of-round':
      return { at: 'round-end', round: round + n - 1 };
    case 'start-of-turn':
    case 'end-of-turn': {
      const anchor = effect.targetId ?? current;
      if (!anchor) return { at: 'round-end', round: round + n - 1 };
      const c = state.combatants[anchor];
      // has the anchor's turn already begun this round?
      const begun = phase === 'action' && c !== undefined && c.data.turnRound === round;
      const ownTurnNow = current === anchor && phase === 'action';
      if (unit === 'start-of-turn') return { at: 'turn-start', anchor, round: round + n - 1 + (begun ? 1 : 0) };
      const done = begun && !ownTurnNow;
      return { at: 'turn-end', anchor, round: round + n - 1 + (done ? 1 : 0) };
    }
    default:
      return null;
  }
}

/** makeEffect reads only the ruleset's effectExpiry */
const EXPIRY = { effectExpiry };

/** A new effect whose `expires` follows the legends durations. */
export function newEffect(ctx: LCtx, init: Parameters<typeof makeEffect>[2]): Effect {
  return makeEffect(ctx, EXPIRY, init);
}

/** An effect's `expires` as effectExpiry made it. */
export function isMarker(m: unknown): m is Marker {
  return typeof m === 'object' && m !== null && 'at' in m && 'round' in m;
}
