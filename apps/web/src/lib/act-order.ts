import { vitalsOf, type RulesetDisplay } from './display.js';
import type { Combatant, EncounterState } from './types.js';

/** One entry of the GM's *Act for* list. */
export interface ActEntry {
  c: Combatant;
  /** whose turn it is now */
  acting: boolean;
  /** out of the fight: its first vital with a maximum is spent (HP 0, STUN 0, the damage track full) */
  fallen: boolean;
  /** its place in the turn order (1-based), null when it has none */
  place: number | null;
}

/**
 * Whether a combatant is out of the fight, in the ruleset's own terms: the first of its vitals that
 * has a maximum (hit points, STUN, damage levels, wounds) has nothing left. Vitals without a
 * maximum (a fatigue count) and later ones (END, Mana) say nothing about it.
 */
export function isFallen(display: RulesetDisplay, state: EncounterState, c: Combatant): boolean {
  const first = vitalsOf(display, state, c, true).find((v) => v.max !== null && v.left !== null);
  return first !== undefined && first.left === 0;
}

/**
 * The GM's *Act for* list: whoever acts now first, then the turn order from there (the next to act
 * second), then those not in the order by side and name; the fallen last, in the same order.
 */
export function actOrder(display: RulesetDisplay, state: EncounterState): ActEntry[] {
  const { order, current } = state.clock;
  const start = current ? Math.max(0, order.indexOf(current)) : 0;
  // from whoever acts now, round the order
  const rank = (id: string): number => {
    const i = order.indexOf(id);
    return i < 0 ? order.length : (i - start + order.length) % order.length;
  };
  const entries = Object.values(state.combatants).map((c) => {
    const i = order.indexOf(c.id);
    return { c, acting: c.id === current, fallen: isFallen(display, state, c), place: i < 0 ? null : i + 1 };
  });
  return entries.sort(
    (a, b) =>
      Number(a.fallen) - Number(b.fallen) ||
      rank(a.c.id) - rank(b.c.id) ||
      a.c.side.localeCompare(b.c.side) ||
      a.c.name.localeCompare(b.c.name),
  );
}
