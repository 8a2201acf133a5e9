import { z } from 'zod';

export const actorSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('gm') }),
  z.object({ role: z.literal('player'), playerId: z.string().min(1).max(128) }),
  z.object({ role: z.literal('system') }),
]);

export const idSchema = z.string().min(1).max(64);

const TERM = String.raw`(?:\d*[dD]\d+(?:[kKdD][hHlL]\d+)?|\d+)`;
/** A dice formula as `dice.ts` reads it (`2d6+3`, `4d6kh3`, `d20-1`), as a pattern a form can check before sending. */
export const DICE_PATTERN = String.raw`^\s*[+-]?\s*${TERM}(?:\s*[+-]\s*${TERM})*\s*$`;

/**
 * A dice formula field of a ruleset's stats or options: checked by its pattern (the published
 * JSON Schema's `pattern`) and shown with an example (`examples`), e.g. `2d6+3`.
 */
export function diceFormulaSchema(example = '2d6+3', max = 64) {
  return z
    .string()
    .min(1)
    .max(max)
    .regex(new RegExp(DICE_PATTERN), `a dice formula such as ${example}`)
    .meta({ examples: [example] });
}

/** The envelope every command shares; handlers extend it with their own fields. */
export function commandSchema<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), by: actorSchema, ...shape }).strict();
}

export const durationSchema = z.object({ unit: z.string().min(1).max(32), count: z.number().int().min(1).max(10_000) });

export const itemSchema = z.object({
  id: idSchema,
  name: z.string().min(1).max(120),
  location: z.enum(['left-hand', 'right-hand', 'both-hands', 'carried', 'ground']),
  tags: z.array(z.string().max(64)).max(32).optional(),
  props: z.record(z.string(), z.unknown()).optional(),
});

export const newCombatantSchema = z.object({
  id: idSchema.optional(),
  name: z.string().min(1).max(120),
  side: z.string().min(1).max(64),
  controller: z.string().min(1).max(128).nullable().default(null),
  hidden: z.boolean().default(false),
  secretStats: z.array(z.string().max(64)).max(64).default([]),
  stats: z.record(z.string(), z.unknown()),
  position: z.unknown().optional(),
  items: z.array(itemSchema).max(100).default([]),
});
export type NewCombatant = z.infer<typeof newCombatantSchema>;

/** The core `effect.apply` command; a ruleset that overrides its handling reuses this schema. */
export const effectApplySchema = commandSchema('effect.apply', {
  targetId: idSchema.nullable(),
  sourceId: idSchema.nullable().default(null),
  name: z.string().min(1).max(120),
  condition: z.string().min(1).max(64).optional(),
  duration: durationSchema.nullable().default(null),
  gmOnly: z.boolean().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
