import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What the error handler learnt about a refused request, logged with its one line. */
interface Outcome {
  code: string;
  reason: string;
  /** an internal error, logged with its stack */
  err?: unknown;
}

const outcomes = new WeakMap<FastifyRequest, Outcome>();

/** Record why a request is refused (or failed); its one log line says so. */
export function noteOutcome(req: FastifyRequest, outcome: Outcome): void {
  outcomes.set(req, outcome);
}

/**
 * One log line per HTTP request, written when the response is sent: method, URL, status,
 * milliseconds and the client's address; a refusal (4xx) at warn with its code and reason, a failure (5xx) at error with the
 * error. Fastify's own two lines a request are off (`disableRequestLogging`). Routes registered
 * with `logLevel: 'warn'` (the web app's pages and files) write no line unless they fail.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    // ip: the client's address (a reverse proxy's X-Forwarded-For only with FRAY_TRUST_PROXY)
    const line = { method: req.method, url: req.url, status, ms: Math.round(reply.elapsedTime * 10) / 10, ip: req.ip };
    const outcome = outcomes.get(req);
    if (status >= 500)
      req.log.error({ ...line, ...(outcome ? { code: outcome.code, reason: outcome.reason, err: outcome.err } : {}) }, 'request failed');
    else if (status >= 400)
      req.log.warn({ ...line, ...(outcome ? { code: outcome.code, reason: outcome.reason } : {}) }, 'request refused');
    else req.log.info(line, 'request');
  });
}
