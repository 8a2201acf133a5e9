import { z } from 'zod';
import type { Ruleset } from '@fray/engine';

/** The fields of an object schema, looking through pipes, defaults, optionals and refinements; null when it has none. */
export function fieldsOf(schema: z.ZodType): string[] | null {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return fieldsOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return fieldsOf(schema.unwrap() as z.ZodType);
  return null;
}

/** Every option has a default (the empty options parse and give every field) and a doc. */
export function optionProblems(ruleset: Ruleset): string[] {
  const fields = fieldsOf(ruleset.optionsSchema);
  if (!fields) return ['optionsSchema is not an object schema'];
  const parsed = ruleset.optionsSchema.safeParse({});
  if (!parsed.success) return [`the empty options are refused: ${z.prettifyError(parsed.error)}`];
  const defaults = parsed.data as Record<string, unknown>;
  const out: string[] = [];
  for (const f of fields) {
    if (!Object.hasOwn(defaults, f) || defaults[f] === undefined) out.push(`option ${f} has no default`);
    if (!ruleset.optionDocs[f]?.trim()) out.push(`option ${f} has no doc in optionDocs`);
  }
  for (const d of Object.keys(ruleset.optionDocs)) if (!fields.includes(d)) out.push(`optionDocs documents ${d}, which is no option`);
  return out;
}

/** Every stat field has a doc. */
export function statProblems(ruleset: Ruleset): string[] {
  const fields = fieldsOf(ruleset.statsSchema);
  if (!fields) return ['statsSchema is not an object schema'];
  const docs = ruleset.statDocs ?? {};
  return fields.filter((f) => !docs[f]?.trim()).map((f) => `stat ${f} has no doc in statDocs`);
}

/** Every sample stat block passes the stats schema. */
export function sampleProblems(ruleset: Ruleset): string[] {
  const out: string[] = [];
  for (const s of ruleset.display?.samples ?? []) {
    const r = ruleset.statsSchema.safeParse(s.stats);
    if (!r.success) out.push(`sample ${s.name}: ${z.prettifyError(r.error)}`);
  }
  return out;
}
