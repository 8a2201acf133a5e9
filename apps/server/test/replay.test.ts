import jsonpatch from 'fast-json-patch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrayClient } from '@fray/client';
import { hashToken } from '../src/auth.js';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

/**
 * Replay over HTTP (docs/timeline.md, "Replay"): pages of an encounter's versions as the GM, a
 * player or a spectator saw them live, rebuilt to exactly each live view; read-only replay links
 * (created, used, revoked); every bad input a typed error that changes nothing.
 */
let s: TestServer;
let gmToken: string;
let otherToken: string;
let playerId: string;
let encounterId: string;
const clients: FrayClient[] = [];

type Page = {
  from: number;
  to: number;
  firstVersion: number;
  lastVersion: number;
  state: unknown;
  steps: Array<{ seq: number; ops: jsonpatch.Operation[]; events: unknown[]; command?: unknown; commandId: string }>;
  players: Array<{ playerId: string; combatantIds: string[] }>;
};

/** The view at every version of a page: its state, then each step's ops applied. */
function frames(page: Page): Map<number, unknown> {
  const out = new Map<number, unknown>([[page.from, page.state]]);
  let doc = page.state;
  for (const st of page.steps) {
    doc = jsonpatch.applyPatch(doc, st.ops, true, false).newDocument;
    out.set(st.seq, doc);
  }
  return out;
}

async function page(query: string, token = gmToken): Promise<Page> {
  const r = await s.http('GET', `/encounters/${encounterId}/replay?${query}`, undefined, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as Page;
}

beforeAll(async () => {
  s = await startServer();
  gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  otherToken = (await s.http('POST', '/accounts', {})).body.token as string;
  encounterId = (await s.http('POST', '/encounters', { name: 'Replay me', ruleset: 'skirmish', seed: 5 }, gmToken)).body.id as string;
  await s.http(
    'POST',
    `/encounters/${encounterId}/combatants`,
    { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9, init: 5 } },
    gmToken,
  );
  await s.http(
    'POST',
    `/encounters/${encounterId}/combatants`,
    { id: 'spy', name: 'Spyglass', side: 'npcs', hidden: true, stats: { hp: 5, init: 1 } },
    gmToken,
  );
  const invite = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken);
  playerId = invite.body.playerId as string;
  const gm = await connect(s.url, gmToken);
  const player = await connect(s.url, invite.body.token as string);
  clients.push(gm, player);
  const gmView = await gm.join(encounterId);
  const playerView = await player.join(encounterId);
  expect((await gmView.command({ type: 'combat.start' })).ok).toBe(true);
  expect((await gmView.command({ type: 'dice.roll', formula: '1d20', purpose: 'Spyglass sneaks', secret: true })).ok).toBe(true);
  expect((await playerView.command({ type: 'dice.roll', formula: '1d6', purpose: 'luck', combatantId: 'hero' })).ok).toBe(true);
  expect((await gmView.command({ type: 'effect.apply', targetId: 'hero', sourceId: 'spy', name: 'Marked' })).ok).toBe(true);
  expect((await gmView.command({ type: 'combatant.update', combatantId: 'spy', changes: { hidden: false } })).ok).toBe(true);
  await expectConverged(s, encounterId, [gmView, playerView]);
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await s?.close();
});

describe('replay', () => {
  it('each viewer’s pages rebuild exactly the view it has live; a player’s never holds what it could not see', async () => {
    const host = s.server.runtime.peek(encounterId)!;
    const gm = await page('as=gm&limit=200');
    expect(gm).toMatchObject({
      firstVersion: 0,
      from: 0,
      lastVersion: host.version,
      to: host.version,
      players: [{ playerId, combatantIds: ['hero'] }],
    });
    expect(gm.steps.map((x) => x.seq)).toEqual(Array.from({ length: host.version }, (_, i) => i + 1));
    expect(frames(gm).get(host.version)).toEqual(JSON.parse(JSON.stringify(host.projectionFor({ role: 'gm' }))));

    const mine = await page(`as=${playerId}&limit=200`);
    expect(frames(mine).get(host.version)).toEqual(JSON.parse(JSON.stringify(host.projectionFor({ role: 'player', playerId }))));
    // before the reveal (the last version) the hidden Spyglass and the GM's secret roll never show
    const before = JSON.stringify({ state: mine.state, steps: mine.steps.slice(0, -1) });
    expect(before).not.toContain('Spyglass');
    expect(before).not.toContain('"spy"');
    // the player's own command is in its log, the GM's are not
    expect(mine.steps.filter((x) => x.command !== undefined).map((x) => (x.command as { purpose: string }).purpose)).toEqual(['luck']);

    const spectator = await page('as=spectator&limit=200');
    expect(frames(spectator).get(host.version)).toEqual(JSON.parse(JSON.stringify(host.projectionFor({ role: 'spectator' }))));

    // a page from the middle starts at the same view the first page reaches there
    const mid = await page(`as=${playerId}&from=3&limit=2`);
    expect(mid).toMatchObject({ from: 3, to: 5 });
    expect(frames(mid).get(5)).toEqual(frames(mine).get(5));
  });

  it('bad input: typed errors, nothing changed', async () => {
    const version = s.server.runtime.peek(encounterId)!.version;
    const get = (q: string, token = gmToken, id = encounterId) => s.http('GET', `/encounters/${id}/replay?${q}`, undefined, token);
    expect((await get('as=gm', gmToken, 'enc_nope')).body.error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get('as=gm', otherToken)).status).toBe(403);
    expect((await get('as=gm', '')).status).toBe(401);
    expect((await get('from=999')).body.error).toMatchObject({ code: 'UNKNOWN_VERSION' });
    expect((await get('from=999')).status).toBe(404);
    expect((await get('as=p_nobody')).body.error).toMatchObject({ code: 'UNKNOWN_VIEWER' });
    expect((await get('branch=7')).body.error).toMatchObject({ code: 'UNKNOWN_BRANCH' });
    expect((await get('limit=5000')).status).toBe(422);
    expect((await get('from=-1')).status).toBe(422);
    expect(s.server.runtime.peek(encounterId)!.version).toBe(version);
  });

  it('a replay link shows the replay read-only, as the GM chose; revoked or forged, it shows nothing', async () => {
    const base = `/encounters/${encounterId}/replay-links`;
    expect((await s.http('POST', base, { as: 'p_nobody' }, gmToken)).body.error).toMatchObject({ code: 'UNKNOWN_VIEWER' });
    expect((await s.http('POST', base, {}, otherToken)).status).toBe(403);
    expect((await s.http('POST', base, { branch: 9 }, gmToken)).body.error).toMatchObject({ code: 'UNKNOWN_BRANCH' });
    expect((await s.http('POST', base, { expiresInHours: 0 }, gmToken)).status).toBe(422);
    expect((await s.http('GET', base, undefined, gmToken)).body).toEqual({ links: [] });

    const made = await s.http('POST', base, {}, gmToken);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ as: 'spectator', branch: null, revoked: false, expiresAt: null });
    const token = made.body.token as string;
    expect(token).toMatch(/^fray_rpl_/);
    const shared = await s.http('GET', '/replays/shared?limit=200', undefined, token);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ encounterId, as: 'spectator', players: [] });
    expect(shared.body.steps).toEqual((await page('as=spectator&limit=200')).steps);

    // a player's link, with an expiry
    const theirs = await s.http('POST', base, { as: playerId, expiresInHours: 2 }, gmToken);
    expect(theirs.body).toMatchObject({ as: playerId });
    expect(Date.parse(theirs.body.expiresAt as string)).toBeGreaterThan(Date.now());
    expect((await s.http('GET', '/replays/shared', undefined, theirs.body.token as string)).body).toMatchObject({ as: playerId });

    // read-only: the link is no GM token, no invite, no socket
    const version = s.server.runtime.peek(encounterId)!.version;
    expect(
      (await s.http('POST', `/encounters/${encounterId}/combatants`, { name: 'X', side: 'npcs', stats: { hp: 1 } }, token)).status,
    ).toBe(401);
    expect((await s.http('GET', `/encounters/${encounterId}/replay`, undefined, token)).status).toBe(401);
    await expect(connect(s.url, token)).rejects.toThrow();
    expect(s.server.runtime.peek(encounterId)!.version).toBe(version);

    // expired (an hour ago)
    const expired = 'fray_rpl_expired-link-token-for-the-test';
    await s.store.replayLinks!.create({
      id: 'rpl_expired',
      encounterId,
      viewer: 'spectator',
      branch: null,
      expiresAt: new Date(Date.now() - 3_600_000),
      tokenHash: hashToken(expired),
    });
    expect((await s.http('GET', '/replays/shared', undefined, expired)).body.error).toMatchObject({ code: 'UNAUTHORIZED' });

    // forged, then revoked
    expect((await s.http('GET', '/replays/shared', undefined, `${token.slice(0, -3)}xyz`)).body.error).toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect((await s.http('GET', '/replays/shared', undefined)).status).toBe(401);
    expect((await s.http('DELETE', `${base}/${made.body.id as string}`, undefined, otherToken)).status).toBe(403);
    expect((await s.http('DELETE', `${base}/rpl_nope`, undefined, gmToken)).body.error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await s.http('DELETE', `${base}/${made.body.id as string}`, undefined, gmToken)).body).toEqual({
      id: made.body.id,
      revoked: true,
    });
    expect((await s.http('GET', '/replays/shared', undefined, token)).body.error).toMatchObject({ code: 'UNAUTHORIZED' });
    const listed = (await s.http('GET', base, undefined, gmToken)).body.links as Array<{ id: string; revoked: boolean }>;
    expect(listed.map((l) => l.revoked)).toEqual([true, false, false]);
    expect(JSON.stringify(listed)).not.toContain('fray_rpl_');
  });
});
