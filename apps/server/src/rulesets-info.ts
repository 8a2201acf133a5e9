import { z } from 'zod';
import { commandsOf, type Ruleset } from '@fray/engine';
import type { RulesetInfo } from '@fray/protocol';

function jsonSchema(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return {};
  }
}

/** What a browser needs to build forms for a ruleset: options (defaults, docs), stats, actions. */
export function rulesetInfo(r: Ruleset): RulesetInfo {
  let defaults: unknown = {};
  try {
    defaults = r.optionsSchema.parse({});
  } catch {
    defaults = {};
  }
  return {
    id: r.id,
    name: r.name,
    summary: r.summary,
    options: { schema: jsonSchema(r.optionsSchema), defaults, docs: r.optionDocs },
    stats: { schema: jsonSchema(r.statsSchema), docs: r.statDocs ?? {} },
    position: { schema: jsonSchema(r.positionSchema) },
    commands: Object.keys(commandsOf(r)).sort(),
    catalogue: r.catalogue,
    display: r.display ?? { vitals: [], statGroups: [], statLabels: {}, internal: [], dataLabels: {}, events: {} },
  };
}
