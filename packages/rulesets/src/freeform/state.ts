import { z } from 'zod';
import { diceFormulaSchema, type Combatant, type EncounterState } from '@fray/engine';
import { vitalName, type FreeformOptions } from './options.js';

/** The ruleset's own state: the number of turns begun (the clock itself is the engine's). */
export interface RS {
  turns: number;
}

export const statsSchema = z.object({
  hp: z.number().int().min(1).max(100_000).optional(),
  initiative: diceFormulaSchema('1d20+3').optional(),
  initiativeBonus: z.number().int().min(-100).max(100).optional(),
  vitals: z.record(vitalName, z.number().int().min(0).max(100_000)).optional(),
});
export type Stats = z.infer<typeof statsSchema>;

export const statDocs: Record<keyof Stats, string> = {
  hp: 'Maximum hit points; leave it out for a game without them.',
  initiative: 'Dice this combatant rolls for initiative instead of the option, e.g. "1d20+3" or "2d6".',
  initiativeBonus: 'Added to the initiative roll (a DEX modifier, a Speed rating).',
  vitals:
    'The maximum of each vital the encounter names (option "vitals"), e.g. Mana 10, Stress 6; a combatant without one has no such vital.',
};

/** Where a combatant stands: free text (a zone, a range band, "behind the bar"), or nowhere. */
export const positionSchema = z.string().min(1).max(80).nullable();

/**
 * Per combatant: its current HP and vitals (a vital by its GM-given name), its initiative, whether
 * it holds its turn, and the actions it took this turn.
 */
export interface Data {
  hp?: number;
  initiative: number | null;
  holding: boolean;
  actions: number;
  [vital: string]: number | boolean | null | undefined;
}

export type State = EncounterState<RS>;

export const initialState = (): RS => ({ turns: 0 });

export function initCombatant(stats: Stats, options: FreeformOptions): Data {
  const data: Data = { initiative: null, holding: false, actions: 0 };
  if (stats.hp !== undefined) data.hp = stats.hp;
  for (const name of options.vitals) {
    const max = stats.vitals?.[name];
    data[name] = options.risingVitals.includes(name) || max === undefined ? 0 : max;
  }
  return data;
}

/** A combatant's data as the ruleset keeps it. */
export function dataOf(c: Combatant): Data {
  return c.data as Data;
}

export function statsOf(c: Combatant): Stats {
  return c.stats as Stats;
}

/** The vitals a combatant has: `hp` when it has HP, and those of the encounter's own it has a maximum for. */
export function vitalsOf(c: Combatant, options: FreeformOptions): string[] {
  const d = dataOf(c);
  return [...(typeof d.hp === 'number' ? ['hp'] : []), ...options.vitals.filter((v) => typeof d[v] === 'number' && maxOf(c, v) !== null)];
}

/** A vital's maximum, or null when it has none. */
export function maxOf(c: Combatant, vital: string): number | null {
  const s = statsOf(c);
  if (vital === 'hp') return s.hp ?? null;
  return s.vitals?.[vital] ?? null;
}

export function optionsOf(state: EncounterState<unknown>): FreeformOptions {
  return state.options as FreeformOptions;
}
