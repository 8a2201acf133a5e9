import { httpStatusFor, type WireError } from '@fray/protocol';

/** A typed refusal: `{ error: { code, message } }` with the status its code implies. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: string,
    message: string,
    status?: number,
    readonly rule?: string,
    /** RATE_LIMITED: seconds before trying again (the body's `retryAfter` and the Retry-After header) */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? httpStatusFor(code);
  }
  toWire(): WireError {
    return {
      code: this.code,
      message: this.message,
      ...(this.rule ? { rule: this.rule } : {}),
      ...(this.retryAfter !== undefined ? { retryAfter: this.retryAfter } : {}),
    };
  }
}

/** Turn anything thrown into a wire error (unknown errors become INTERNAL). */
export function toWireError(e: unknown): { wire: WireError; internal: boolean } {
  if (e instanceof ApiError) return { wire: e.toWire(), internal: false };
  if (e instanceof Error && e.name === 'RuntimeError' && 'code' in e && typeof e.code === 'string') {
    return { wire: { code: e.code, message: e.message }, internal: false };
  }
  // the database is down or unreachable (@fray/store's StoreUnavailableError): nothing was
  // written; a typed refusal the client retries, not an internal error
  if (e instanceof Error && 'code' in e && e.code === 'STORE_UNAVAILABLE') {
    return {
      wire: { code: 'UNAVAILABLE', message: 'The database is unavailable; nothing was changed. Try again shortly.' },
      internal: false,
    };
  }
  return { wire: { code: 'INTERNAL', message: 'Internal error.' }, internal: true };
}

/**
 * The encounter is live on another process (it holds the lease): connect to `ownerUrl`, the URL
 * that process advertises (FRAY_PUBLIC_URL), and join there.
 */
export class NotOwnerError extends ApiError {
  constructor(
    readonly encounterId: string,
    readonly ownerUrl: string,
  ) {
    super('NOT_OWNER', `Encounter "${encounterId}" is live on another server process; connect to ${ownerUrl} and join there.`, 409);
  }
  override toWire(): WireError & { ownerUrl: string } {
    return { code: this.code, message: this.message, ownerUrl: this.ownerUrl };
  }
}
