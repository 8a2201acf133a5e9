/** The HTTP API (docs/protocol.md): every error is `{ error: { code, message } }`. */

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

export interface ApiOptions {
  token?: string | null;
  signal?: AbortSignal;
}

export async function api<T>(method: string, path: string, body?: unknown, opts: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal });
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
    const err = (data as { error?: { code?: string; message?: string; rule?: string } } | null)?.error;
    throw new ApiError(err?.code ?? `HTTP_${res.status}`, err?.message ?? `The server answered ${res.status} ${res.statusText}.`, res.status, err?.rule);
  }
  return data as T;
}
