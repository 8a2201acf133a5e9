import { z } from 'zod';
import { commandsOf, type Ruleset } from '@fray/engine';
import type { RulesetInfo } from '@fray/protocol';

function jsonSchema(schema: z.ZodType): z.core.JSONSchema.BaseSchema {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return {};
  }
}

/** A command's fields as JSON Schema, without the envelope (`type`, `by`) the client never fills. */
function fieldsSchema(schema: z.ZodType): unknown {
  const js = jsonSchema(schema);
  if (js.properties) {
    delete js.properties['type'];
    delete js.properties['by'];
  }
  if (js.required) js.required = js.required.filter((k) => k !== 'type' && k !== 'by');
  return js;
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
    commandInfo: Object.fromEntries(
      Object.entries(commandsOf(r)).map(([type, spec]) => [
        type,
        { actor: spec.actor, reaction: spec.reaction === true, schema: fieldsSchema(spec.schema) },
      ]),
    ),
    space: r.space
      ? { kind: r.space.kind, ...(r.space.zones ? { zones: r.space.zones } : {}), ...(r.space.terrain ? { terrain: r.space.terrain } : {}) }
      : null,
    catalogue: r.catalogue,
    display: r.display ?? { vitals: [], statGroups: [], statLabels: {}, internal: [], dataLabels: {}, events: {} },
  };
}
