/**
 * Which parameters of an action its command takes as an object or a list of objects (a stance's
 * penalty, a readied action's trigger): read from the command's JSON Schema without the form
 * machinery, so that a player's first load stays small; their fields come with the form's own
 * chunk (`components/actions/SchemaParts.tsx`).
 */
import { isRecord } from './guards.js';
import type { ActionOption, RulesetInfo } from './types.js';

/** The non-null branch of a nullable schema. */
function bare(s: unknown): unknown {
  const branches = isRecord(s) ? (s.anyOf ?? s.oneOf) : undefined;
  return Array.isArray(branches) ? (branches.find((b) => isRecord(b) && b.type !== 'null') ?? s) : s;
}

/** The names of the option's parameters asked from the command's schema (positions and paths stay the map's). */
export function partNames(ruleset: RulesetInfo | undefined, option: ActionOption): Set<string> {
  const schema = ruleset?.commandInfo?.[option.command]?.schema;
  const props = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const out = new Set<string>();
  for (const p of option.params ?? []) {
    if (p.kind === 'position' || p.kind === 'path' || (p.options?.length ?? 0) > 0) continue;
    const s = bare(props[p.name]);
    if (!isRecord(s)) continue;
    const object = s.type === 'object' && isRecord(s.properties);
    const rows = s.type === 'array' && isRecord(s.items) && s.items.type === 'object';
    // a pair (a trick's two resisting skills): a field each
    const pair = s.type === 'array' && Array.isArray(s.prefixItems);
    if (object || rows || pair) out.add(p.name);
  }
  return out;
}
