import { z } from 'zod';

/** The errors on the wire: the server's own codes, the error body, and the HTTP status of a code. */

/** Error codes of the server itself (engine codes such as `NOT_YOUR_TURN` pass through as they are). */
export const serverErrorCodes = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INVALID_JSON',
  'INVALID_MESSAGE',
  'INVALID_REQUEST',
  'UNKNOWN_EVENT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'NOT_JOINED',
  'STALE_VERSION',
  'STALE_BRANCH',
  'UNKNOWN_VERSION',
  'UNKNOWN_BRANCH',
  'UNKNOWN_VIEWER',
  'COMMAND_ID_TAKEN',
  'CONFLICT',
  'ENCOUNTER_BUSY',
  'ENCOUNTER_ARCHIVED',
  'ENCOUNTER_DELETED',
  'NOT_OWNER',
  'UNAVAILABLE',
  'INTERNAL',
  'WRONG_CREDENTIALS',
  'SESSION_EXPIRED',
  'CSRF_FAILED',
  'NAME_TAKEN',
  'INVALID_NAME',
  'NAME_REQUIRED',
  'WEAK_PASSWORD',
  'LAST_SIGN_IN_METHOD',
  'WEBAUTHN_INVALID',
  'WEBAUTHN_CHALLENGE_INVALID',
  'PASSKEY_UNKNOWN',
  'DEVICE_CODE_INVALID',
  'DEVICE_CODE_USED',
  'DEVICE_CODE_EXPIRED',
] as const;
export type ServerErrorCode = (typeof serverErrorCodes)[number];

export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  rule: z.string().optional(),
  /** NOT_OWNER: the URL of the server process that runs the encounter (several processes) */
  ownerUrl: z.string().optional(),
  /** RATE_LIMITED by the sign-in backoff: seconds before trying again (also the Retry-After header) */
  retryAfter: z.number().optional(),
});
export type WireError = z.infer<typeof errorSchema>;

/** Every HTTP error body. */
export const errorBodySchema = z.object({ error: errorSchema }).meta({ id: 'Error' });

/** HTTP status for an error code (server or engine). */
export function httpStatusFor(code: ServerErrorCode | (string & {})): number {
  switch (code) {
    case 'UNAUTHORIZED':
    case 'WRONG_CREDENTIALS':
    case 'SESSION_EXPIRED':
    case 'PASSKEY_UNKNOWN':
    case 'DEVICE_CODE_INVALID':
    case 'DEVICE_CODE_USED':
    case 'DEVICE_CODE_EXPIRED':
      return 401;
    case 'FORBIDDEN':
    case 'NOT_AUTHORIZED':
    case 'CSRF_FAILED':
      return 403;
    case 'NOT_FOUND':
    case 'UNKNOWN_COMBATANT':
    case 'UNKNOWN_VERSION':
    case 'UNKNOWN_BRANCH':
    case 'UNKNOWN_VIEWER':
      return 404;
    case 'CONFLICT':
    case 'STALE_VERSION':
    case 'STALE_BRANCH':
    case 'COMMAND_ID_TAKEN':
    case 'ENCOUNTER_BUSY':
    case 'ENCOUNTER_ARCHIVED':
    case 'NOT_OWNER':
    case 'NAME_TAKEN':
    case 'LAST_SIGN_IN_METHOD':
      return 409;
    case 'ENCOUNTER_DELETED':
      return 410;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'RATE_LIMITED':
      return 429;
    case 'INVALID_JSON':
      return 400;
    case 'UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
    default:
      return 422;
  }
}
