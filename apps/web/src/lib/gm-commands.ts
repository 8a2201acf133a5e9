/**
 * The GM's command form (`components/CommandForm.tsx`): which fields each command of a ruleset
 * asks for, in the game's words, and which commands are done with a form of their own instead.
 */
import { positionSchema } from './combatant-body.js';
import { commandFields, type CommandField } from './command-form.js';
import { displayOf } from './display.js';
import { hintsUnder } from './form-context.js';
import { isRecord, isString } from './guards.js';
import { labelOf } from './labels.js';
import type { RulesetInfo } from './types.js';

/** The engine's own commands, as a GM says them. */
const TITLES: Readonly<Record<string, string>> = {
  'combat.start': 'Start combat',
  'combat.end': 'End combat',
  'combatant.add': 'Add a combatant',
  'combatant.adjust': 'Damage or heal',
  'combatant.place': 'Place a combatant',
  'combatant.remove': 'Remove a combatant',
  'combatant.setStat': 'Set a stat',
  'combatant.update': 'Edit a combatant',
  'dice.autoReveal': 'Reveal dice seeds by themselves',
  'dice.contribute': 'Add to the dice seed',
  'dice.force': 'Force the next roll',
  'dice.override': 'Change a roll',
  'dice.reveal': 'Reveal the dice seed',
  'dice.roll': 'Roll dice',
  'effect.apply': 'Apply a condition or effect',
  'effect.remove': 'Remove a condition or effect',
  'encounter.gmRolls': 'Secret GM rolls',
  'reaction.pass': 'Pass on a reaction',
  'reaction.resolve': 'Close the reaction window',
  'turn.end': 'End a turn',
};

/**
 * A command in words: the engine's own by `TITLES`, a ruleset's by the label of the catalogue
 * action of the same id (*Switch alternate effect*), else its name made readable (`defineZone` →
 * "Define zone").
 */
export function commandTitle(ruleset: RulesetInfo, type: string): string {
  const entry = ruleset.catalogue.find((e) => isRecord(e) && e.id === type);
  const label = isRecord(entry) && isString(entry.label) ? entry.label : undefined;
  return TITLES[type] ?? label ?? labelOf(type.replace(/[.-]/g, ' '));
}

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
