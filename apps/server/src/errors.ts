import { httpStatusFor, type WireError } from '@fray/protocol';

/** A typed refusal: `{ error: { code, message } }` with the status its code implies. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: string,
    message: string,
    status?: number,
    readonly rule?: string,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? httpStatusFor(code);
  }
  toWire(): WireError {
    return this.rule ? { code: this.code, message: this.message, rule: this.rule } : { code: this.code, message: this.message };
  }
}

/** Turn anything thrown into a wire error (unknown errors become INTERNAL). */
export function toWireError(e: unknown): { wire: WireError; internal: boolean } {
  if (e instanceof ApiError) return { wire: e.toWire(), internal: false };
  if (e instanceof Error && e.name === 'RuntimeError') {
    const code = (e as Error & { code: string }).code;
    return { wire: { code, message: e.message }, internal: false };
  }
  return { wire: { code: 'INTERNAL', message: 'Internal error.' }, internal: true };
}
