import { z } from 'zod';
import { hexSchema } from '../state/index.js';

/** A zod enum of ids computed from the table (at least one). */
export function enumOf(ids: readonly string[]) {
  const [first, ...rest] = ids;
  if (first === undefined) throw new Error('enumOf: no ids');
  return z.enum([first, ...rest]);
}

export const path = z.array(hexSchema).min(1).max(200);
export const mod = z.number().int().min(-30).max(30);
/** What a command may say about its provocation (see checkProvokeRuling). */
export const provokeFields = {
  skill: z.string().min(1).max(64).optional(),
  negated: z.boolean().optional(),
  provokes: z.boolean().optional(),
};
