import type { FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { deleteEncounterReply, type DeleteEncounterReply } from '@fray/protocol';
import type { DeletedEncounterRecord, DeletionsStore } from '@fray/store';
import { whyMissing } from './deleted.js';
import { ApiError, NotOwnerError } from './errors.js';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import type { GmAccess } from './gm-access.js';
import { bearer, idParams } from './http-common.js';
import type { FrayIo } from './socket-types.js';

/** The `closed` reason every subscriber of a deleted encounter gets. */
const DELETED = 'deleted';

function deletionsOf(ctx: ServerContext): DeletionsStore {
  const d = ctx.store.deletions;
  if (!d) throw new ApiError('UNAVAILABLE', 'This server’s store cannot delete encounters (FRAY_STORE=memory).', 503);
  return d;
}

/**
 * Delete an encounter this process runs, or that nobody runs: its host (if any) stops taking
 * commands and drains, the rows go, then its subscribers are told `closed` `deleted`.
 */
export async function deleteHere(ctx: ServerContext, encounterId: string): Promise<DeletedEncounterRecord | null> {
  const deletions = deletionsOf(ctx);
  ctx.auth.forgetEncounter(encounterId);
  let stone: DeletedEncounterRecord | null = null;
  await ctx.runtime.discard(encounterId, DELETED, async () => {
    stone = await deletions.deleteEncounter(encounterId);
  });
  // a join that loaded it here while the rows went: that host goes as well (its rows are gone)
  if (ctx.runtime.peek(encounterId)) await ctx.runtime.discard(encounterId, DELETED, async () => {});
  return stone;
}

/**
 * Every other process (through the Redis adapter) deletes the encounter if it runs it: the
 * answers say whether one did (null: none runs it). undefined: they could not be asked (no Redis,
 * or one did not answer within the adapter's request timeout, 5 s).
 */
export async function deleteElsewhere(
  io: FrayIo,
  ctx: ServerContext,
  encounterId: string,
): Promise<DeletedEncounterRecord | null | undefined> {
  if (ctx.redis.status() !== 'up') return undefined;
  try {
    const answers = await io.serverSideEmitWithAck('encounter:delete', encounterId);
    const done = answers.find((a) => a !== null);
    return done ? { id: done.id, accountId: done.accountId, deletedAt: new Date(done.deletedAt) } : null;
  } catch (e) {
    ctx.logger.warn({ encounterId, err: String(e) }, 'other processes did not answer the deletion');
    return undefined;
  }
}

/** Another process asks: delete the encounter if this one runs it (answer null otherwise). */
export function listenForDeletions(io: FrayIo, ctx: ServerContext): void {
  io.on('encounter:delete', (encounterId, answer) => {
    // every process: its cached invite tokens of the encounter are refused from now on
    ctx.auth.forgetEncounter(encounterId);
    if (!ctx.runtime.peek(encounterId)) return answer(null);
    deleteHere(ctx, encounterId).then(
      (stone) => answer(stone ? { id: stone.id, accountId: stone.accountId, deletedAt: stone.deletedAt.toISOString() } : null),
      (e: unknown) => {
        ctx.logger.warn({ encounterId, err: String(e) }, 'deletion asked by another process failed');
        answer(null);
      },
    );
  });
}

/** DELETE /encounters/:id: the GM deletes one of its encounters, wherever it runs. */
export function registerEncounterDelete(app: FastifyInstance, ctx: ServerContext, access: GmAccess, io: FrayIo): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.delete(
    '/encounters/:id',
    {
      schema: {
        summary: 'Delete an encounter: its players are disconnected (`closed` `deleted`), its invites refused; cannot be undone',
        security: bearer,
        params: idParams,
        response: { 200: deleteEncounterReply, ...E.gmDelete },
      },
    },
    async (req): Promise<DeleteEncounterReply> => {
      const rec = await access.owned(req, req.params.id);
      let stone: DeletedEncounterRecord | null = null;
      const url = await access.ownerElsewhere(rec.id);
      if (url) {
        // another live process runs it: that one stops it and deletes it (it drains its queue first)
        const asked = await deleteElsewhere(io, ctx, rec.id);
        // not every process answered in time: the owner may have deleted it all the same
        stone = asked === undefined ? await deletionsOf(ctx).deletedEncounter(rec.id) : asked;
        if (asked === undefined && !stone) throw new NotOwnerError(rec.id, url);
      }
      // nobody else runs it (or nobody answered that it did): here
      stone ??= await deleteHere(ctx, rec.id);
      if (!stone) throw await whyMissing(ctx, rec.id, new ApiError('NOT_FOUND', `No encounter "${rec.id}".`));
      req.log.info({ encounterId: rec.id }, 'encounter deleted');
      return { id: rec.id, deleted: true, deletedAt: stone.deletedAt.toISOString() };
    },
  );
}
