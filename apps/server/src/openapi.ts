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
          bearer: { type: 'http', scheme: 'bearer', description: "A GM account's token (POST /accounts), or, for /metrics, FRAY_METRICS_TOKEN" },
        },
      },
    },
    transform: jsonSchemaTransform,
    // the shared schemas (`.meta({ id })`, e.g. Error) into components.schemas, where the $refs point
    transformObject: jsonSchemaTransformObject,
  });
  // the UI's pages and files, like the web app's, log nothing unless they fail
  await app.register(swaggerUi, { routePrefix: '/docs', logLevel: 'warn' });
}

const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(description, errorBodySchema);

/** A success response: its status, what it means, its body. */
export function ok(status: 200 | 201, description: string, schema: z.ZodType) {
  return { [status]: json(description, schema) } as Record<number, ReturnType<typeof json>>;
}

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
  422: error('INVALID_REQUEST: the input does not fit the schema (the message names the field); or the code of the rule that refused the change, e.g. INVALID_OPTIONS, INVALID_STATS, INVALID_COMMAND.'),
};

/** A route on one encounter (or one of its parts). */
const found = {
  404: error('NOT_FOUND (or UNKNOWN_COMBATANT): no such encounter, combatant, invite or ruleset; the message names it.'),
};

/** A route that changes a live encounter. */
const live = {
  409: error('NOT_OWNER (with `ownerUrl`: another server process runs the encounter; call it there), ENCOUNTER_BUSY or ENCOUNTER_ARCHIVED.'),
};

/** The error responses of each kind of route. */
export const errorsOf = {
  open: { ...always },
  openBody: { ...always, ...body, ...invalid },
  guarded: { ...always, 401: error('UNAUTHORIZED: the metrics need Authorization: Bearer <FRAY_METRICS_TOKEN>.'), 403: error('FORBIDDEN: metrics are off (no FRAY_METRICS_TOKEN is set on the server).') },
  gmRead: { ...always, ...gm, ...invalid },
  gmEncounter: { ...always, ...gm, ...invalid, ...found },
  gmCreate: { ...always, ...gm, ...body, ...invalid, ...found },
  gmChange: { ...always, ...gm, ...body, ...invalid, ...found, ...live },
  gmAct: { ...always, ...gm, ...invalid, ...found, ...live },
};
