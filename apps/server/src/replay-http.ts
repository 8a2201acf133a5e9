/**
 * Replay over HTTP (docs/timeline.md, "Replay"): a saved encounter, version by version, as one
 * viewer saw it live; and the GM's read-only replay links, which show it to anyone holding one.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { logEntrySchema } from '@fray/protocol';
import type { Viewer } from '@fray/engine';
import { REPLAY_PAGE_MAX, replayPage, type EncounterRecordLike } from '@fray/runtime';
import type { ReplayLinkRecord, ReplayLinksStore } from '@fray/store';
import { hashToken, newToken } from './auth.js';
import { ApiError } from './errors.js';
import { bearerOf } from './gm-auth.js';
import { errorsOf as E } from './openapi.js';
import type { ServerContext } from './context.js';
import { gmAccess, type GmAccess } from './gm-access.js';

const bearer = [{ bearer: [] }];
const encounterParams = z.object({ id: z.string().min(1).max(64) });
const linkParams = z.object({ id: z.string().min(1).max(64), linkId: z.string().min(1).max(64) });

const page = {
  from: z.coerce.number().int().min(0).optional().describe('the first version of the page (default: the encounter’s first)'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(REPLAY_PAGE_MAX)
    .default(100)
    .describe(`how many versions after \`from\` (at most ${REPLAY_PAGE_MAX})`),
};
const asField = z.string().min(1).max(64).describe('`gm`, `spectator`, or a player id (a player invite’s `playerId`)');
const replayQuery = z.object({ as: asField.default('gm'), branch: z.coerce.number().int().min(0).optional(), ...page }).strict();
const sharedQuery = z.object(page).strict();

const replayReply = z
  .object({
    encounterId: z.string(),
    name: z.string(),
    ruleset: z.string(),
    as: z.string(),
    branch: z.number().int(),
    firstVersion: z.number().int(),
    lastVersion: z.number().int(),
    from: z.number().int(),
    to: z.number().int(),
    state: z.unknown().describe('the viewer’s view at `from`'),
    steps: z
      .array(logEntrySchema.extend({ ops: z.array(z.unknown()).describe('RFC 6902 ops from the view before') }))
      .describe('versions from+1 … to, each as the viewer saw it live'),
    players: z
      .array(z.object({ playerId: z.string(), combatantIds: z.array(z.string()) }))
      .describe('the encounter’s players (the GM’s reply only; empty on a shared link)'),
  })
  .describe('A page of the replay');

const linkBody = z
  .object({
    as: asField.default('spectator'),
    branch: z.number().int().min(0).optional(),
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 365)
      .optional(),
  })
  .strict();
const linkSchema = z.object({
  id: z.string(),
  as: z.string(),
  branch: z.number().int().nullable(),
  revoked: z.boolean(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
const toLink = (l: ReplayLinkRecord) => ({
  id: l.id,
  as: l.viewer.replace(/^player:/, ''),
  branch: l.branch,
  revoked: l.revoked,
  expiresAt: l.expiresAt?.toISOString() ?? null,
  createdAt: l.createdAt.toISOString(),
});

/** The viewer `as` names (`gm`, `spectator` or a player id of the encounter's invites), and its stored form; UNKNOWN_VIEWER otherwise. */
async function viewerNamed(ctx: ServerContext, encounterId: string, as: string): Promise<{ viewer: Viewer; stored: string }> {
  if (as === 'gm' || as === 'spectator') return { viewer: { role: as }, stored: as };
  const id = as.replace(/^player:/, '');
  const invites = await ctx.store.listInvites(encounterId);
  if (invites.some((i) => i.role === 'player' && i.playerId === id))
    return { viewer: { role: 'player', playerId: id }, stored: `player:${id}` };
  throw new ApiError(
    'UNKNOWN_VIEWER',
    `No viewer "${as}" in this encounter: use "gm", "spectator", or the playerId of one of its player invites.`,
  );
}

interface PageInput {
  as: string;
  viewer: Viewer;
  branch?: number;
  from?: number;
  limit: number;
  players: boolean;
}

/** A page of the replay of `rec` for one viewer (docs/timeline.md), in the reply's shape. */
async function pageOf(ctx: ServerContext, rec: EncounterRecordLike, p: PageInput): Promise<z.infer<typeof replayReply>> {
  const ruleset = ctx.runtime.ruleset(rec.ruleset);
  if (!ruleset) throw new ApiError('UNAVAILABLE', `This server does not know the ruleset "${rec.ruleset}".`);
  const r = await replayPage(ctx.runtime.store, ruleset, rec.id, {
    viewer: p.viewer,
    limit: p.limit,
    ...(p.branch !== undefined ? { branch: p.branch } : {}),
    ...(p.from !== undefined ? { from: p.from } : {}),
  });
  if ('error' in r) throw new ApiError(r.error.code, r.error.message, undefined, r.error.rule);
  const players = p.players ? (await ctx.store.listInvites(rec.id)).filter((i) => i.role === 'player' && i.playerId) : [];
  const seen = new Set<string>();
  const list = players.flatMap((i) =>
    seen.has(i.playerId!) ? [] : (seen.add(i.playerId!), [{ playerId: i.playerId!, combatantIds: i.combatantIds }]),
  );
  return {
    encounterId: rec.id,
    name: rec.name,
    ruleset: rec.ruleset,
    as: p.as,
    branch: r.branch,
    firstVersion: r.firstVersion,
    lastVersion: r.lastVersion,
    from: r.from,
    to: r.to,
    state: r.state,
    steps: r.steps,
    players: list,
  };
}

function linksOf(ctx: ServerContext): ReplayLinksStore {
  const links = ctx.store.replayLinks;
  if (!links) throw new ApiError('UNAVAILABLE', 'This store keeps no replay links.');
  return links;
}

/** The replay link a request's bearer token is, if valid; UNAUTHORIZED otherwise (forged, revoked, expired). */
async function sharedLink(ctx: ServerContext, req: FastifyRequest): Promise<ReplayLinkRecord> {
  const token = bearerOf(req);
  const link = token?.startsWith('fray_rpl_') && token.length < 200 ? await linksOf(ctx).findByTokenHash(hashToken(token)) : null;
  if (!link || link.revoked || (link.expiresAt && link.expiresAt.getTime() <= Date.now())) {
    throw new ApiError(
      'UNAUTHORIZED',
      'This replay link is not valid: it was revoked, has expired, or was mistyped. Ask the GM for a new one.',
    );
  }
  return link;
}

/** GET /encounters/:id/replay (the GM) and GET /replays/shared (a replay link). */
function registerReplayReads(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/encounters/:id/replay',
    {
      schema: {
        summary: 'A page of the replay, as the GM, a player (as=<playerId>) or a spectator saw it live',
        security: bearer,
        params: encounterParams,
        querystring: replayQuery,
        response: { 200: replayReply, ...E.gmEncounter },
      },
    },
    async (req) => {
      const rec = await access.owned(req, req.params.id);
      const { viewer } = await viewerNamed(ctx, rec.id, req.query.as);
      return pageOf(ctx, rec, { ...req.query, viewer, players: true });
    },
  );

  r.get(
    '/replays/shared',
    {
      schema: {
        summary: 'A page of a shared replay (Authorization: Bearer <replay link token>): read-only, as the link says',
        security: bearer,
        querystring: sharedQuery,
        response: { 200: replayReply, ...E.gmEncounter },
      },
    },
    async (req) => {
      const link = await sharedLink(ctx, req);
      const rec = await ctx.store.getEncounter(link.encounterId);
      if (!rec) throw new ApiError('NOT_FOUND', 'The encounter of this replay link no longer exists.');
      const viewer: Viewer =
        link.viewer === 'gm' || link.viewer === 'spectator'
          ? { role: link.viewer }
          : { role: 'player', playerId: link.viewer.slice('player:'.length) };
      return pageOf(ctx, rec, {
        ...req.query,
        as: link.viewer.replace(/^player:/, ''),
        viewer,
        ...(link.branch !== null ? { branch: link.branch } : {}),
        players: false,
      });
    },
  );
}

/** The GM's replay links: create (the token shown once), list, revoke. */
function registerReplayLinks(app: FastifyInstance, ctx: ServerContext, access: GmAccess): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/encounters/:id/replay-links',
    {
      schema: {
        summary: 'A read-only replay link (as a spectator unless `as` says otherwise); the token is shown once',
        security: bearer,
        params: encounterParams,
        body: linkBody,
        response: { 201: linkSchema.extend({ token: z.string() }).describe('The link and its token (shown once)'), ...E.gmCreate },
      },
    },
    async (req, reply) => {
      const rec = await access.owned(req, req.params.id);
      const { stored } = await viewerNamed(ctx, rec.id, req.body.as);
      const { branch, expiresInHours } = req.body;
      if (branch !== undefined && ctx.store.listBranches && !(await ctx.store.listBranches(rec.id)).some((b) => b.branch === branch))
        throw new ApiError('UNKNOWN_BRANCH', `The encounter has no branch ${branch}.`);
      const token = newToken('rpl');
      const expiresAt = expiresInHours ? new Date(Date.now() + expiresInHours * 3_600_000) : null;
      const link = await linksOf(ctx).create({
        id: `rpl_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
        encounterId: rec.id,
        viewer: stored,
        branch: branch ?? null,
        expiresAt,
        tokenHash: hashToken(token),
      });
      req.log.info({ replayLinkId: link.id, as: stored }, 'replay link created');
      return reply.status(201).send({ ...toLink(link), token });
    },
  );

  r.get(
    '/encounters/:id/replay-links',
    {
      schema: {
        summary: 'The replay links of an encounter (without their tokens), oldest first',
        security: bearer,
        params: encounterParams,
        response: { 200: z.object({ links: z.array(linkSchema) }).describe('Every link, revoked ones too'), ...E.gmEncounter },
      },
    },
    async (req) => {
      const rec = await access.owned(req, req.params.id);
      return { links: (await linksOf(ctx).list(rec.id)).map(toLink) };
    },
  );

  r.delete(
    '/encounters/:id/replay-links/:linkId',
    {
      schema: {
        summary: 'Revoke a replay link',
        security: bearer,
        params: linkParams,
        response: {
          200: z.object({ id: z.string(), revoked: z.literal(true) }).describe('Revoked: the link shows nothing from now on'),
          ...E.gmEncounter,
        },
      },
    },
    async (req) => {
      const rec = await access.owned(req, req.params.id);
      if (!(await linksOf(ctx).revoke(rec.id, req.params.linkId)))
        throw new ApiError('NOT_FOUND', `No replay link "${req.params.linkId}" in this encounter.`);
      req.log.info({ replayLinkId: req.params.linkId }, 'replay link revoked');
      return { id: req.params.linkId, revoked: true as const };
    },
  );
}

/** Replay routes (docs/timeline.md, "Replay"; docs/protocol.md). */
export function registerReplayHttp(app: FastifyInstance, ctx: ServerContext): void {
  const access = gmAccess(ctx);
  registerReplayReads(app, ctx, access);
  registerReplayLinks(app, ctx, access);
}
