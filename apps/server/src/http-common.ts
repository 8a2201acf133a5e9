import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { errorBodySchema } from '@fray/protocol';

/** What the HTTP routes share: their security requirements, path parameters, error bodies and new ids. */

/** A route for a GM token (account or API token). */
export const bearer = [{ bearer: [] }];
/** A route for a signed-in GM: the session cookie or a bearer token. */
export const signedIn: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }];
/** The path's `:id` (an encounter, session, token...). */
export const idParams = z.object({ id: z.string().min(1).max(64) });

/** The error bodies of the account routes (accounts, sessions, API tokens, device codes, passkeys). */
export const accountErrors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** A new id: the prefix and 16 hex digits, e.g. `ses_3f2a…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}
