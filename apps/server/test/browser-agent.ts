/**
 * A browser as the server sees one, for tests over real HTTP: it keeps the cookies the server
 * sets, sends them back with its own Origin, and sends the session's CSRF token on every
 * state-changing request (unless told not to).
 */
export class Agent {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;
  setCookies: string[] = [];

  constructor(
    readonly url: string,
    readonly origin: string = url,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async req(
    method: string,
    path: string,
    body?: unknown,
    opts: { csrf?: boolean; origin?: string | null; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...opts.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    const origin = opts.origin === undefined ? this.origin : opts.origin;
    if (origin) headers.origin = origin;
    if (opts.csrf !== false && this.csrfToken && method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    const res = await fetch(this.url + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    this.setCookies = res.headers.getSetCookie();
    for (const c of this.setCookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c) || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const data = (text ? JSON.parse(text) : null) as Record<string, unknown> & {
      error?: { code: string; message: string; retryAfter?: number };
    };
    if (data && typeof data.csrfToken === 'string') this.csrfToken = data.csrfToken;
    return { status: res.status, body: data, headers: res.headers };
  }

  /** A new account with a password, signed in. */
  async signUp(name: string, password: string) {
    const r = await this.req('POST', '/accounts', { name, password });
    if (r.status !== 201) throw new Error(`sign-up: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { accountId: string; csrfToken: string };
  }

  async signIn(name: string, password: string) {
    return this.req('POST', '/sessions', { name, password });
  }

  session(): string | undefined {
    return this.cookies.get('fray_session');
  }
}
