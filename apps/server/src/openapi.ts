import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorBodySchema } from '@fray/protocol';

/**
 * The OpenAPI document (GET /docs/json, the UI at /docs): every route's responses, each error with
 * its body (`#/components/schemas/Error`, from the zod schema's `id`), the web app's pages left out
 * (they are registered hidden). Validated and turned into types by test/openapi.test.ts.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fray',
        description:
          'Authoritative real-time combat server for tabletop RPGs. Live play is over socket.io: see docs/protocol.md. Every error is `{ "error": { "code", "message" } }` with the status below; `code` is the one to branch on.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: "A GM account's token or API token, or, for /metrics, FRAY_METRICS_TOKEN",
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'fray_session',
            description:
              'The browser session (`__Host-fray_session` over https); state-changing requests also send its CSRF token as x-csrf-token',
          },
        },
      },
    },
    transform: withDescribedResponses,
    // the shared schemas (`.meta({ id })`, e.g. Error) into components.schemas, where the $refs point
    transformObject: jsonSchemaTransformObject,
  });
  // the UI's pages and files, like the web app's, log nothing unless they fail
  await app.register(swaggerUi, { routePrefix: '/docs', logLevel: 'warn' });
}

/** What each error status means, for a route that lists the status without saying so. */
const STATUS_WORDS: Record<number, string> = {
  400: 'INVALID_JSON: the body is not valid JSON.',
  401: 'UNAUTHORIZED: no token or session, or an unknown, expired or revoked one.',
  403: 'FORBIDDEN: not allowed for this account, token or invite (the message says why).',
  404: 'NOT_FOUND: the thing named in the path does not exist (the message names it).',
  409: 'CONFLICT: the state does not allow it now (the message says why).',
  413: 'PAYLOAD_TOO_LARGE: the body is larger than the limit.',
  415: 'UNSUPPORTED_MEDIA_TYPE: send application/json.',
  422: 'INVALID_REQUEST: the input does not fit the schema (the message names the field), or a rule refused it.',
  429: 'RATE_LIMITED: too many requests; wait (Retry-After when given) and retry.',
  500: 'INTERNAL: an unexpected failure (logged with its stack); nothing was changed.',
  503: 'UNAVAILABLE: the database is unavailable or this process is shutting down; retry shortly.',
};

const errorRef = { $ref: '#/components/schemas/Error' };
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/**
 * fastify-type-provider-zod's transform, then every response described: a success without its own
 * description gets the route's summary, an error its status's meaning; and every route lists what
 * any route can answer (429 from the rate limit, 500), with the Error body.
 */
function withDescribedResponses(input: Parameters<typeof jsonSchemaTransform>[0]): ReturnType<typeof jsonSchemaTransform> {
  const out = jsonSchemaTransform(input);
  const schema = out.schema;
  if (!isRecord(schema) || ('hide' in schema && schema.hide)) return out;
  const summary = 'summary' in schema && typeof schema.summary === 'string' ? schema.summary : undefined;
  const response: Record<string, unknown> = isRecord(schema.response) ? schema.response : {};
  schema.response = response;
  for (const [status, r] of Object.entries(response)) {
    if (!isRecord(r) || r.description) continue;
    r.description = Number(status) >= 400 ? (STATUS_WORDS[Number(status)] ?? 'An error.') : (summary ?? 'Success.');
  }
  for (const status of [429, 500]) {
    response[status] ??= { description: STATUS_WORDS[status]!, content: { 'application/json': { schema: errorRef } } };
  }
  return out;
}

const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(description, errorBodySchema);

/** Every route can be rate limited, fail inside, or find its database down. */
const always = {
  429: error('RATE_LIMITED: too many requests from this account or address; wait a second and retry.'),
  500: error('INTERNAL: an unexpected failure (logged with its stack); nothing was changed.'),
  503: error('UNAVAILABLE: the database is unavailable or this process is shutting down; retry shortly.'),
};

/** A route that needs a GM token. */
const gm = {
  401: error('UNAUTHORIZED: no token, or an unknown or revoked one.'),
  403: error('FORBIDDEN: an invite token, or an encounter of another GM.'),
};

/** A route with a JSON body. */
const body = {
  400: error('INVALID_JSON: the body is not valid JSON.'),
  413: error('PAYLOAD_TOO_LARGE: the body is larger than the limit (64 KB).'),
  415: error('UNSUPPORTED_MEDIA_TYPE: send application/json.'),
};

/** A route whose input (body, path or query) is validated, or whose change the rules may refuse. */
const invalid = {
  422: error(
    'INVALID_REQUEST: the input does not fit the schema (the message names the field); or the code of the rule that refused the change, e.g. INVALID_OPTIONS, INVALID_STATS, INVALID_COMMAND.',
  ),
};

/** A route on one encounter (or one of its parts). */
const found = {
  404: error('NOT_FOUND (or UNKNOWN_COMBATANT): no such encounter, combatant, invite or ruleset; the message names it.'),
};

/** A route that changes a live encounter. */
const live = {
  409: error(
    'NOT_OWNER (with `ownerUrl`: another server process runs the encounter; call it there), ENCOUNTER_BUSY or ENCOUNTER_ARCHIVED.',
  ),
};

/** The error responses of each kind of route. */
export const errorsOf = {
  open: { ...always },
  openBody: { ...always, ...body, ...invalid },
  guarded: {
    ...always,
    401: error('UNAUTHORIZED: the metrics need Authorization: Bearer <FRAY_METRICS_TOKEN>.'),
    403: error('FORBIDDEN: metrics are off (no FRAY_METRICS_TOKEN is set on the server).'),
  },
  gmRead: { ...always, ...gm, ...invalid },
  gmEncounter: { ...always, ...gm, ...invalid, ...found },
  gmCreate: { ...always, ...gm, ...body, ...invalid, ...found },
  gmChange: { ...always, ...gm, ...body, ...invalid, ...found, ...live },
  gmAct: { ...always, ...gm, ...invalid, ...found, ...live },
  gmDelete: {
    ...always,
    ...gm,
    ...invalid,
    ...found,
    409: error(
      'NOT_OWNER (with `ownerUrl`): another server process runs the encounter and could not be asked to delete it (no Redis); call it there.',
    ),
    410: error('ENCOUNTER_DELETED: the encounter was deleted already.'),
  },
};
