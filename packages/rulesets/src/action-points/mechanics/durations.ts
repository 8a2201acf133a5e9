import type { Effect } from '@fray/engine';
import { PHASES } from './phases.js';
import { initKey, optsOf, type S } from '../state.js';
import { keyBefore } from './order.js';

/**
 * Durations: "Effects that last a certain number of rounds end just before the same action phase and
 * initiative that they began on."
 */

/** A point in the round: phase and initiative. `init` null = the start of the phase. */
export interface Marker {
  round: number;
  phase: number;
  init: [number, number] | null;
}

export function nowMarker(s: S): Marker {
  const cur = s.clock.current ? s.combatants[s.clock.current] : undefined;
  return { round: s.rs.round, phase: s.rs.phaseIdx, init: cur && s.rs.cursor ? s.rs.cursor : null };
}

/** Has the clock reached the marker? ("end just before the same action phase and initiative that they began on") */
export function reached(now: Marker, m: Marker): boolean {
  if (now.round !== m.round) return now.round > m.round;
  if (now.phase !== m.phase) return now.phase > m.phase;
  if (m.init === null) return true;
  if (now.init === null) return false;
  return !keyBefore(now.init, m.init);
}

export function isMarker(x: unknown): x is Marker {
  return typeof x === 'object' && x !== null && 'round' in x && 'phase' in x && 'init' in x;
}

const ROUND_UNITS: Record<string, number> = {
  round: 1,
  rounds: 1,
  minute: 10,
  minutes: 10,
  'combat-turn': 10,
  'combat-turns': 10,
};

/** The expiry marker of an effect (durations in rounds, minutes or combat turns, and two special units). */
export function expiryOf(s: S, effect: Effect): Marker | null {
  if (!effect.duration) return null;
  const started = effect.startedAt;
  const phase = Math.max(
    0,
    PHASES.findIndex((p) => p === started.phase),
  );
  const starter = started.current ? s.combatants[started.current] : undefined;
  const unit = effect.duration.unit;
  const n = effect.duration.count;
  if (unit === 'end-of-round') return { round: started.round + n, phase: 0, init: null };
  if (unit === 'own-round-start') {
    const who = (effect.targetId && s.combatants[effect.targetId]) || starter;
    return { round: started.round + n, phase: 0, init: who ? initKey(who) : null };
  }
  const per = ROUND_UNITS[unit];
  if (per === undefined) return null;
  const rounds = unit.startsWith('combat-turn') ? n * optsOf(s).roundsPerCombatTurn : per * n;
  const init = starter ? (s.clock.current === starter.id && s.rs.cursor ? s.rs.cursor : initKey(starter)) : null;
  return { round: started.round + rounds, phase, init };
}
