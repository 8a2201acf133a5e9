import { z } from 'zod';
import { diceFormulaSchema } from '@fray/engine';

/** A vital the GM names for the encounter: a capital first letter keeps it apart from the ruleset's own fields. */
export const vitalName = z
  .string()
  .regex(/^[A-Z][A-Za-z0-9 ]{0,23}$/, 'a vital name starts with a capital letter (letters, digits, spaces; at most 24)');

/** The encounter's options: every field has a default (docs/rulesets/freeform.md, "Options"). */
export const optionsSchema = z.object({
  initiativeFormula: diceFormulaSchema('1d20').default('1d20'),
  conditionsTick: z.enum(['end-of-turn', 'start-of-turn']).default('end-of-turn'),
  vitals: z.array(vitalName).max(4).default([]),
  risingVitals: z.array(vitalName).max(4).default([]),
});

export type FreeformOptions = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof FreeformOptions, string> = {
  initiativeFormula:
    'The dice every combatant rolls for initiative when combat starts (a combatant\'s own "initiative" stat replaces it; its "initiativeBonus" is added). The GM may enter a value instead.',
  conditionsTick:
    "When a condition lasting turns counts down: at the end of its bearer's turn (the default) or at the start. Conditions lasting rounds count down at the end of each round.",
  vitals:
    'The encounter\'s own vitals besides HP, e.g. Stress, Mana, Sanity (up to 4). Give each combatant its maximum when you add it ("Max Mana"); one without a maximum has no such vital.',
  risingVitals: 'Which of those vitals start at 0 and rise toward their maximum (Stress); the others start full (Mana).',
};
