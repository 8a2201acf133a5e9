/** The HTTP API (docs/protocol.md): every error is `{ error: { code, message } }`. */
import { recordOf, textAt } from './guards.js';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly rule?: string,
  ) {
    super(message);
  }
}

/** A readable sentence for any failure (server error body, network failure, anything thrown). */
export function describeError(e: unknown): string {
  if (e instanceof ApiError) return `${e.message}${e.code ? ` (${e.code})` : ''}`;
  if (e instanceof TypeError) return 'The server cannot be reached. Check your connection and try again.';
  if (e instanceof Error) return e.message;
  return String(e);
}

/**
 * The session's CSRF token (docs/protocol.md): kept in this page's memory only, sent as
 * `x-csrf-token` on every state-changing request the session cookie signs in. Set by sign-in and
 * by `GET /session` (lib/session.ts).
 */
let csrfToken: string | null = null;
export function setCsrfToken(t: string | null): void {
  csrfToken = t;
}

export interface ApiOptions {
  token?: string | null;
  signal?: AbortSignal;
}

/** Called when the session cookie is refused (ended, expired): lib/session.ts marks the page signed out. */
let onSignedOut: ((e: ApiError) => void) | null = null;
export function onSessionRefused(fn: ((e: ApiError) => void) | null): void {
  onSignedOut = fn;
}

export async function api<T>(method: string, path: string, body?: unknown, opts: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  else if (csrfToken && method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrfToken;
  // same-origin: the browser sends the httpOnly session cookie; the page never sees it
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: opts.signal,
    credentials: 'same-origin',
  });
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const err = recordOf(recordOf(data).error);
    const e = new ApiError(
      textAt(err, 'code') ?? `HTTP_${res.status}`,
      textAt(err, 'message') ?? `The server answered ${res.status} ${res.statusText}.`,
      res.status,
      textAt(err, 'rule'),
    );
    if (!opts.token && (res.status === 401 || e.code === 'CSRF_FAILED')) onSignedOut?.(e);
    throw e;
  }
  return data as T;
}
