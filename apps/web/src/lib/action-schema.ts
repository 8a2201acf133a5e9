/**
 * An action's parameters that the command takes as an object or a list of objects (a stance's
 * penalty `{ on, n }`, a readied action's trigger `{ event, by, description }`): asked as fields of
 * their own, built from the command's JSON Schema (`commandInfo`), never as typed text the server
 * would refuse.
 */
import { commandFields, type CommandField } from './command-form.js';
import { displayOf } from './display.js';
import { hintsUnder } from './form-context.js';
import type { ActionOption, RulesetInfo } from './types.js';

/** The option's parameters asked from the command's schema: name → its fields (`penalty.on`, `penalty.n`; a list's rows). */
export function schemaParams(ruleset: RulesetInfo | undefined, option: ActionOption): Map<string, CommandField[]> {
  const out = new Map<string, CommandField[]>();
  const schema = ruleset?.commandInfo?.[option.command]?.schema;
  if (!ruleset || !schema) return out;
  const all = commandFields(schema, hintsUnder(displayOf([ruleset], ruleset.id), `commands.${option.command}`));
  for (const p of option.params ?? []) {
    // a position or a path is the map's; a choice among options is the ruleset's own
    if (p.kind === 'position' || p.kind === 'path' || (p.options?.length ?? 0) > 0) continue;
    const parts = all.filter((f) => f.name.startsWith(`${p.name}.`));
    const rows = all.filter((f) => f.name === p.name && f.rows);
    const fields = parts.length > 0 ? parts : rows;
    if (fields.length === 0 || fields.some((f) => f.kind === 'json' && !f.rows)) continue;
    out.set(
      p.name,
      fields.map((f) => ({ ...f, required: f.required && !p.optional })),
    );
  }
  return out;
}
