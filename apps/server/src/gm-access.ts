import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type CommandAck } from '@fray/protocol';
import { RuntimeError, type EncounterHost, type EncounterRecordLike } from '@fray/runtime';
import { whyMissing } from './deleted.js';
import { ApiError, NotOwnerError } from './errors.js';
import { authenticateGm } from './gm-auth.js';
import type { ServerContext } from './context.js';
import { ownerUrlOf } from './owner.js';

/** The GM's access to encounters, for the HTTP routes. */
export interface GmAccess {
  gm(req: FastifyRequest): Promise<string>;
  owned(req: FastifyRequest, encounterId: string): Promise<EncounterRecordLike>;
  live(encounterId: string): Promise<EncounterHost>;
  ownerElsewhere(encounterId: string): Promise<string | null>;
  gmCommand(req: FastifyRequest, encounterId: string, command: Record<string, unknown>): Promise<Extract<CommandAck, { ok: true }>>;
}

/** The GM behind a request, the encounters it owns, their live hosts, and commands as the GM. */
export function gmAccess(ctx: ServerContext): GmAccess {
  const { store, runtime } = ctx;

  /** The GM's account id: a bearer token (account or API token) or the session cookie with its CSRF token. */
  async function gm(req: FastifyRequest): Promise<string> {
    return (await authenticateGm(ctx, req)).accountId;
  }

  async function owned(req: FastifyRequest, encounterId: string): Promise<EncounterRecordLike> {
    const accountId = await gm(req);
    const rec = await store.getEncounter(encounterId);
    if (!rec) throw await whyMissing(ctx, encounterId, new ApiError('NOT_FOUND', `No encounter "${encounterId}".`), accountId);
    if (rec.accountId !== accountId) throw new ApiError('FORBIDDEN', 'This encounter belongs to another GM.');
    req.log = req.log.child({ encounterId });
    return rec;
  }

  /**
   * The URL of the other live process that runs an encounter (it holds an unexpired lease and
   * advertised a URL), or null: nobody else runs it (or it advertised nothing).
   */
  async function ownerElsewhere(encounterId: string): Promise<string | null> {
    if (runtime.peek(encounterId) || !store.getLease) return null;
    const lease = await store.getLease(encounterId);
    if (!lease || lease.ownerId === runtime.options.ownerId || lease.expiresAt.getTime() <= Date.now()) return null;
    return ownerUrlOf(lease.ownerId);
  }

  /**
   * The live host of an encounter, for the routes that change it (commands, the turn timer):
   * loaded here when no process runs it; 409 NOT_OWNER with the owner's URL when another
   * process does (ENCOUNTER_BUSY when that process advertised no URL). Nothing is forwarded.
   */
  async function live(encounterId: string): Promise<EncounterHost> {
    try {
      return await runtime.open(encounterId);
    } catch (e) {
      if (!(e instanceof RuntimeError && e.code === 'ENCOUNTER_BUSY')) throw e;
      const url = await ownerElsewhere(encounterId);
      if (!url) throw e;
      throw new NotOwnerError(encounterId, url);
    }
  }

  async function gmCommand(
    req: FastifyRequest,
    encounterId: string,
    command: Record<string, unknown>,
  ): Promise<Extract<CommandAck, { ok: true }>> {
    const host = await live(encounterId);
    const commandId = `http:${randomUUID()}`;
    req.log.debug({ commandId, type: command.type }, 'command');
    const ack = await host.submit({ commandId, command, by: { role: 'gm' } }, { role: 'gm' });
    if (!ack.ok) throw new ApiError(ack.error.code, ack.error.message, undefined, ack.error.rule);
    return ack;
  }

  return { gm, owned, live, ownerElsewhere, gmCommand };
}
