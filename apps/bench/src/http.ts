import { sleep } from './proc.js';

/** A JSON request to a Fray server; a 429 (its rate limit) is waited out and sent again, `retry.tries` times at most. */
export async function http(url: string, method: string, path: string, body?: unknown, token?: string, retry = { tries: 200, waitMs: 50 }): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status === 429 && attempt < retry.tries) {
      await sleep(retry.waitMs);
      continue;
    }
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}
