import { ApiError } from './errors.js';
import type { ServerContext } from './context.js';

/** The refusal of anything aimed at a deleted encounter: its id, an invite to it. */
export function deletedError(encounterId: string): ApiError {
  return new ApiError('ENCOUNTER_DELETED', `The GM deleted this encounter ("${encounterId}"); it cannot be joined or changed.`);
}

/**
 * NOT_FOUND for an encounter that is gone: ENCOUNTER_DELETED when it was deleted (for a GM: by
 * this GM; another GM's deleted encounter stays unknown), else the error as it was.
 */
export async function whyMissing(ctx: ServerContext, encounterId: string, error: unknown, accountId?: string): Promise<unknown> {
  const stone = await ctx.store.deletions?.deletedEncounter(encounterId).catch(() => null);
  return stone && (accountId === undefined || stone.accountId === accountId) ? deletedError(encounterId) : error;
}
