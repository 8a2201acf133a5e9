import type { FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addCombatantBody, idReply, patchCombatantBody } from '@fray/protocol';
import { ApiError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { GmAccess } from './gm-access.js';
import { bearer, idParams as encounterParams, newId } from './http-common.js';

const combatantParams = z.object({ id: z.string().min(1).max(64), combatantId: z.string().min(1).max(64) });

/** A GM's combatants (add, edit, remove). */
export function registerCombatantRoutes(app: FastifyInstance, access: GmAccess): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { owned, gmCommand } = access;

  r.post(
    '/encounters/:id/combatants',
    {
      schema: {
        summary: 'Add a combatant',
        security: bearer,
        params: encounterParams,
        body: addCombatantBody,
        response: { 201: idReply.describe("The combatant's id and the encounter's new version"), ...E.gmChange },
      },
    },
    async (req, reply) => {
      const rec = await owned(req, req.params.id);
      const id = req.body.id ?? newId('c');
      const ack = await gmCommand(req, rec.id, { type: 'combatant.add', combatant: { ...req.body, id } });
      return reply.status(201).send({ id, version: ack.version });
    },
  );

  r.patch(
    '/encounters/:id/combatants/:combatantId',
    {
      schema: {
        summary: 'Edit a combatant',
        security: bearer,
        params: combatantParams,
        body: patchCombatantBody,
        response: { 200: idReply.describe("The combatant's id and the encounter's new version"), ...E.gmChange },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      const { position, ...changes } = req.body;
      let version = 0;
      if (Object.keys(changes).length > 0)
        version = (await gmCommand(req, rec.id, { type: 'combatant.update', combatantId: req.params.combatantId, changes })).version;
      if (position !== undefined)
        version = (await gmCommand(req, rec.id, { type: 'combatant.place', combatantId: req.params.combatantId, position })).version;
      if (version === 0) throw new ApiError('INVALID_REQUEST', 'Nothing to change.');
      return { id: req.params.combatantId, version };
    },
  );

  r.delete(
    '/encounters/:id/combatants/:combatantId',
    {
      schema: {
        summary: 'Remove a combatant',
        security: bearer,
        params: combatantParams,
        response: { 200: idReply.describe("The removed combatant's id and the encounter's new version"), ...E.gmAct },
      },
    },
    async (req) => {
      const rec = await owned(req, req.params.id);
      const ack = await gmCommand(req, rec.id, { type: 'combatant.remove', combatantId: req.params.combatantId });
      return { id: req.params.combatantId, version: ack.version };
    },
  );
}
