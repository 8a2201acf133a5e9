import type { FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rulesetInfoSchema } from '@fray/protocol';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import { registerCombatantRoutes } from './combatant-http.js';
import { registerEncounterRoutes } from './encounter-http.js';
import { gmAccess } from './gm-access.js';
import { registerErrorHandling } from './http-errors.js';
import { registerInviteRoutes } from './http-invites.js';
import { registerTimelineHttp } from './timeline-http.js';

/**
 * The HTTP API of encounters (docs/protocol.md): the rulesets here; the encounters, their
 * combatants, invites and timeline in encounter-http.ts, combatant-http.ts, http-invites.ts and
 * timeline-http.ts. Accounts are in account-http.ts.
 */
export function registerHttp(app: FastifyInstance, ctx: ServerContext): void {
  registerErrorHandling(app, ctx);
  const access = gmAccess(ctx);
  registerRulesets(app, ctx);
  registerEncounterRoutes(app, ctx, access);
  registerCombatantRoutes(app, access);
  registerInviteRoutes(app, ctx, access);
  registerTimelineHttp(app, ctx, access);
  ctx.logger.debug({}, 'http routes registered');
}

/** The rulesets this server runs (what every client shows comes from here). */
function registerRulesets(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/rulesets',
    {
      schema: {
        summary: 'Rulesets: options (schema, defaults, docs), stats schema, commands, action catalogue',
        response: { 200: z.object({ rulesets: z.array(rulesetInfoSchema.loose()) }).describe('Every ruleset this server runs'), ...E.open },
      },
    },
    async () => ({
      rulesets: ctx.rulesetInfos,
    }),
  );
}
