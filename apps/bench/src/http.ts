import { sleep } from './proc.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON request to a Fray server; a 429 (its rate limit) is waited out and sent again, `retry.tries` times at most. */
export async function http(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  retry = { tries: 200, waitMs: 50 },
): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status === 429 && attempt < retry.tries) {
      await sleep(retry.waitMs);
      continue;
    }
    const json: unknown = await res.json();
    if (res.status >= 300 || !isRecord(json)) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}

/** A string field of a server's reply (an id, a token); anything else stops the bench with the reply. */
export function text(reply: Record<string, unknown>, key: string): string {
  const v = reply[key];
  if (typeof v !== 'string') throw new Error(`the reply has no string ${key}: ${JSON.stringify(reply).slice(0, 300)}`);
  return v;
}
