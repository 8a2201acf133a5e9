import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@fray/protocol';
import { accountEncounterIds, frayVersion, readEncounterBundle, writeEncounterBundles, type EncounterBundle } from '@fray/store';
import {
  accountFile,
  encounterFile,
  encountersOfAccountFile,
  fromEncounterFile,
  toEncounterFile,
  ACCOUNT_FORMAT,
  ENCOUNTER_FORMAT,
  ENCOUNTER_FORMAT_VERSION,
  type EncounterFile,
} from './data/encounter-file.js';
import { ApiError } from './errors.js';
import { authenticateGm } from './gm-auth.js';
import { signedIn } from './http-common.js';
import type { ServerContext } from './context.js';

/**
 * Encounters that move between servers (docs/protocol.md, "Export and import"): one encounter or a
 * whole account as a JSON file, and its import on any server, replayed and checked first.
 */

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
/** The id an imported file had where it was exported (its file was checked whole before this reads it). */
const exportedId = z.object({ encounter: z.object({ id: z.string() }) });
/** an import's body: an account of long fights is megabytes of log */
export const IMPORT_BODY_BYTES = 64 * 1024 * 1024;

const fileName = (name: string, suffix: string): string =>
  `${(name.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'encounter').slice(0, 60)}${suffix}`;

function attach(reply: FastifyReply, name: string): void {
  void reply.header('content-disposition', `attachment; filename="${encodeURIComponent(name)}"`);
}

export function registerTransfer(app: FastifyInstance, ctx: ServerContext): void {
  registerExport(app, ctx);
  registerImport(app, ctx);
}

/** One encounter as a file, from its bundle; NOT_FOUND, or UNKNOWN_RULESET on a server without its ruleset. */
async function exportOne(ctx: ServerContext, encounterId: string): Promise<EncounterFile> {
  const bundle = await readEncounterBundle(ctx.store, encounterId);
  if (!bundle) throw new ApiError('NOT_FOUND', `No encounter "${encounterId}".`);
  const ruleset = ctx.runtime.ruleset(bundle.record.ruleset);
  if (!ruleset) throw new ApiError('UNKNOWN_RULESET', `This server does not have the ruleset "${bundle.record.ruleset}".`, 422);
  return toEncounterFile(bundle, ruleset);
}

/** Export one encounter, or every encounter of the account. */
function registerExport(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { store } = ctx;

  r.get(
    '/encounters/:id/export',
    {
      schema: {
        summary: 'One encounter as a file: options, first snapshot, log, state hash (no invites, no tokens)',
        security: signedIn,
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: encounterFile, ...errors },
      },
    },
    async (req, reply) => {
      const a = await authenticateGm(ctx, req);
      const rec = await store.getEncounter(req.params.id);
      if (!rec) throw new ApiError('NOT_FOUND', `No encounter "${req.params.id}".`);
      if (rec.accountId !== a.accountId) throw new ApiError('FORBIDDEN', 'This encounter belongs to another GM.');
      const file = await exportOne(ctx, rec.id);
      attach(reply, fileName(rec.name, '.fray-encounter.json'));
      req.log.info({ encounterId: rec.id, version: file.state.version }, 'encounter exported');
      return file;
    },
  );

  r.get(
    '/account/export',
    {
      schema: {
        summary: 'Every encounter of the signed-in account as one file (no credentials)',
        security: signedIn,
        response: { 200: accountFile, ...errors },
      },
    },
    async (req, reply) => {
      const a = await authenticateGm(ctx, req);
      const info = await store.accounts?.getAccount(a.accountId);
      const encounters = [];
      for (const id of await accountEncounterIds(store, a.accountId)) encounters.push(await exportOne(ctx, id));
      attach(reply, fileName(info?.name ?? 'fray-account', '.fray-account.json'));
      req.log.info({ encounters: encounters.length }, 'account exported');
      return {
        format: ACCOUNT_FORMAT,
        formatVersion: ENCOUNTER_FORMAT_VERSION,
        fray: frayVersion(),
        exportedAt: new Date().toISOString(),
        account: { name: info?.name ?? null, createdAt: (info?.createdAt ?? new Date()).toISOString() },
        encounters,
      };
    },
  );
}

/** Import an encounter file or an account file, every encounter replayed and checked before anything is written. */
function registerImport(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { store, runtime } = ctx;

  r.post(
    '/encounters/import',
    {
      bodyLimit: IMPORT_BODY_BYTES,
      schema: {
        summary: `Import an encounter file (${ENCOUNTER_FORMAT}) or an account file (${ACCOUNT_FORMAT}) into the signed-in account: each gets a new id; nothing is written unless every encounter replays to its exported state`,
        security: signedIn,
        body: z.unknown(),
        response: {
          201: z.object({
            encounters: z.array(z.object({ id: z.string(), name: z.string(), version: z.number(), importedFrom: z.string() })),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const a = await authenticateGm(ctx, req);
      const body = req.body;
      const files =
        body && typeof body === 'object' && 'format' in body && body.format === ACCOUNT_FORMAT ? encountersOfAccountFile(body) : [body];
      const bundles: Array<EncounterBundle & { from: string }> = files.map((f) => ({
        ...fromEncounterFile(f, runtime.rulesets, a.accountId, `enc_${randomUUID().replace(/-/g, '').slice(0, 20)}`),
        from: exportedId.parse(f).encounter.id,
      }));
      await writeEncounterBundles(store, bundles);
      req.log.info({ encounters: bundles.map((b) => b.record.id) }, 'encounters imported');
      return reply.status(201).send({
        encounters: bundles.map((b) => ({ id: b.record.id, name: b.record.name, version: b.record.version, importedFrom: b.from })),
      });
    },
  );
}
