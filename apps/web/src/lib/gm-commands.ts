/**
 * The GM's command form (`components/CommandForm.tsx`): which fields each command of a ruleset
 * asks for, in the game's words, and which commands are done with a form of their own instead.
 */
import { positionSchema } from './combatant-body.js';
import { commandFields, type CommandField } from './command-form.js';
import { displayOf } from './display.js';
import { hintsUnder } from './form-context.js';
import type { RulesetInfo } from './types.js';

/** Commands whose whole form is elsewhere (their stats or duration in the game's words): where to go. */
export const FORM_ELSEWHERE: Readonly<Record<string, string>> = {
  'combatant.add': 'Add a combatant (in Combatants): its stats, items and position in the game’s words.',
  'combatant.update': 'Edit on the combatant’s card (in Combatants).',
  'effect.apply': 'Conditions and effects (its duration in the ruleset’s units).',
};

/** Where a command is done instead of this form: a form of its own, or a pending ruling's card; else null. */
export function elsewhere(ruleset: RulesetInfo, type: string): string | null {
  if (FORM_ELSEWHERE[type]) return FORM_ELSEWHERE[type];
  const ruling = displayOf([ruleset], ruleset.id).rulings?.find((r) => r.command === type);
  return ruling ? `The “${ruling.title}” card (in Turn order), one for each ruling owed.` : null;
}

/**
 * The fields of the command `type` as the GM's form asks them: the schema's, with the ruleset's
 * hints (`commands.<type>.…`); a position (`combatant.place`) a field per coordinate or part of
 * the ruleset's position (`x`/`y`, `q`/`r`, a zone by its name), never JSON.
 */
export function gmCommandFields(ruleset: RulesetInfo, type: string): CommandField[] {
  const display = displayOf([ruleset], ruleset.id);
  const fields = commandFields(ruleset.commandInfo?.[type]?.schema, hintsUnder(display, `commands.${type}`));
  return fields.flatMap((f) => {
    if (f.name !== 'position' || !ruleset.position?.schema) return [f];
    const schema = { type: 'object', properties: { position: positionSchema(ruleset) }, required: f.required ? ['position'] : [] };
    return commandFields(schema, hintsUnder(display, '')).map((p) => ({ ...p, label: p.label.replace(/^Position · /, '') }));
  });
}
