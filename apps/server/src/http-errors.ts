import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError, NotOwnerError, toWireError } from './errors.js';
import { limiterKey, SessionEndedError } from './gm-auth.js';
import { noteOutcome } from './request-log.js';
import type { ServerContext } from './context.js';
import { clearSessionCookie } from './web-session.js';

/** Every error is { error: { code, message } } with its status, and one warn line with the reason; unknown routes 404; a rate limit per account (or address). */
export function registerErrorHandling(app: FastifyInstance, ctx: ServerContext): void {
  app.setErrorHandler((err, req, reply) => {
    let status: number;
    let code: string;
    let message: string;
    const fe = fieldsOf(err);
    if (hasZodFastifySchemaValidationErrors(err)) {
      status = 422;
      code = 'INVALID_REQUEST';
      message = err.message;
    } else if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      code = 'PAYLOAD_TOO_LARGE';
      message = `The body is larger than ${ctx.limits.maxHttpBodyBytes} bytes.`;
    } else if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      code = 'UNSUPPORTED_MEDIA_TYPE';
      message = 'Send application/json.';
    } else if (
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (fe.statusCode === 400 && err instanceof SyntaxError) ||
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
    ) {
      status = 400;
      code = 'INVALID_JSON';
      message = 'The body is not valid JSON.';
    } else {
      const w = toWireError(err);
      if (w.internal) {
        noteOutcome(req, { code: w.wire.code, reason: err instanceof Error ? err.message : String(err), err });
        return reply.status(500).send({ error: w.wire });
      }
      status = err instanceof ApiError ? err.status : statusOf(w.wire.code);
      code = w.wire.code;
      message = w.wire.message;
    }
    noteOutcome(req, { code, reason: message });
    if (err instanceof SessionEndedError) clearSessionCookie(reply, ctx.cookies);
    if (err instanceof ApiError && err.retryAfter !== undefined) void reply.header('retry-after', String(err.retryAfter));
    // NOT_OWNER carries the owner's URL (several processes, docs/scaling.md)
    if (err instanceof NotOwnerError) return reply.status(status).send({ error: err.toWire() });
    if (err instanceof ApiError && err.retryAfter !== undefined) return reply.status(status).send({ error: err.toWire() });
    return reply.status(status).send({ error: { code, message } });
  });
  app.setNotFoundHandler((req, reply) => {
    noteOutcome(req, { code: 'NOT_FOUND', reason: `no route ${req.method} ${req.url}` });
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}.` } });
  });

  // Per account (or per address without a token) rate limit.
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/docs')) return;
    if (!ctx.httpLimiter.take(limiterKey(req, ctx))) throw new ApiError('RATE_LIMITED', 'Too many requests; slow down.');
  });
}

/** The `code` and `statusCode` of a thrown fastify error (or nothing, when what was thrown is not an object). */
function fieldsOf(err: unknown): { code?: unknown; statusCode?: unknown } {
  return typeof err === 'object' && err !== null ? err : {};
}

function statusOf(code: string): number {
  return new ApiError(code, '').status;
}
