import type { z } from 'zod';

/** "a whole number", "text"… for zod's expected types */
const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}` : `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** One issue of the stats in plain words, naming the field. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.map(String).join('.');
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const want = TYPE_WORDS[issue.expected ?? ''] ?? issue.expected ?? 'another type';
      return value === undefined ? `${field} is missing (${want})` : `${field} must be ${want}, not ${received(value)}`;
    }
    case 'too_small':
      return `${field} must be at least ${String(issue.minimum)}${issue.inclusive === false ? ' (exclusive)' : ''}, not ${received(value)}`;
    case 'too_big':
      return `${field} must be at most ${String(issue.maximum)}${issue.inclusive === false ? ' (exclusive)' : ''}, not ${received(value)}`;
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      return `${keys.length === 1 ? 'unknown stat' : 'unknown stats'} ${keys.map((k) => `"${field ? `${field}.` : ''}${k}"`).join(', ')}`;
    }
    default:
      return field ? `${field}: ${issue.message}` : issue.message;
  }
}

/** The keys of an object schema: the required ones, then the optional ones (those with a default or optional). */
export function statKeys(schema: z.ZodType): { required: string[]; optional: string[] } | null {
  const shape: unknown = 'shape' in schema ? schema.shape : undefined;
  if (!shape || typeof shape !== 'object') return null;
  const required: string[] = [];
  const optional: string[] = [];
  // an object schema's shape: its fields' schemas
  for (const [k, s] of Object.entries(shape as Record<string, z.ZodType>)) (s.safeParse(undefined).success ? optional : required).push(k);
  return { required, optional };
}

/**
 * A stats error a newcomer can act on: each wrong field by name in plain words (missing, the wrong
 * type, out of range, unknown), a near miss of a stat's name pointed out, and the keys the ruleset
 * expects, required first.
 */
export function statsErrorMessage(rulesetId: string, schema: z.ZodType, error: z.ZodError, input: unknown): string {
  const keys = statKeys(schema);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return `The stats of a ${rulesetId} combatant must be an object${keys ? ` with the keys ${keys.required.join(', ')}` : ''}, not ${received(input)}.`;
  }
  const problems = error.issues.map((issue) => describeIssue(issue, input));
  const all = keys ? [...keys.required, ...keys.optional] : [];
  // a key given in the wrong case ("dex" for "DEX"): say which one was meant
  const hints = Object.keys(input)
    .filter((k) => !all.includes(k))
    .map((k) => [k, all.find((a) => a.toLowerCase() === k.toLowerCase())] as const)
    .filter(([, meant]) => meant !== undefined)
    .map(([k, meant]) => `"${k}" should be written "${meant}"`);
  const expected = keys
    ? ` Expected keys: ${keys.required.join(', ')}${keys.required.length ? ' (required)' : ''}${keys.optional.length ? `; ${keys.optional.join(', ')} (optional)` : ''}.`
    : '';
  return `Invalid ${rulesetId} stats: ${[...problems, ...hints].join('; ')}.${expected} GET /rulesets describes each stat.`;
}
