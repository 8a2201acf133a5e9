import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

/**
 * docs/timeline.md over real sockets and HTTP: "every client converges at once", "commands in
 * flight on the old branch are refused with a typed error", the abandoned branch readable
 * (GET /encounters/:id/log?branch=), fork "only the encounter's GM" (403/404 otherwise).
 */
let s: TestServer;
let gmToken: string;
let otherToken: string;
let playerToken: string;
let encounterId: string;
const clients: FrayClient[] = [];

beforeAll(async () => {
  s = await startServer();
  gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  otherToken = (await s.http('POST', '/accounts', {})).body.token as string;
  encounterId = (await s.http('POST', '/encounters', { name: 'Rewind', ruleset: 'skirmish', seed: 3 }, gmToken)).body.id as string;
  await s.http('POST', `/encounters/${encounterId}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 5 } }, gmToken);
  await s.http(
    'POST',
    `/encounters/${encounterId}/combatants`,
    { id: 'spy', name: 'Spy', side: 'npcs', hidden: true, stats: { hp: 5 } },
    gmToken,
  );
  playerToken = (await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken)).body
    .token as string;
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await s?.close();
});

describe('the GM timeline over socket.io and HTTP', () => {
  it('rewind: every mirror converges at once; a player command made on the old branch is refused; both branches readable', async () => {
    const gm = await connect(s.url, gmToken);
    const player = await connect(s.url, playerToken);
    clients.push(gm, player);
    const gmView = await gm.join(encounterId);
    const playerView = await player.join(encounterId);
    for (const purpose of ['a', 'b', 'c']) expect((await gmView.command({ type: 'dice.roll', formula: '1d6', purpose })).ok).toBe(true);
    const top = gmView.version;
    const rewound = await gmView.command({ type: 'timeline.rewind', toVersion: top - 2 });
    expect(rewound).toMatchObject({ ok: true, version: top - 2 });
    await expectConverged(s, encounterId, [gmView, playerView]);
    expect(gmView.branch).toBe(1);
    expect(playerView.branch).toBe(1);
    expect(JSON.stringify(playerView.state)).not.toContain('Spy');
    // a command made before the rewind reached it (branch 0)
    const stale = await player.command(
      encounterId,
      { type: 'dice.roll', formula: '1d4', purpose: 'late', combatantId: 'hero' },
      { branch: 0 },
    );
    expect(stale).toMatchObject({ ok: false, error: { code: 'STALE_BRANCH', rule: 'timeline.rewind' } });
    expect(await gmView.command({ type: 'dice.roll', formula: '1d6', purpose: 'new' })).toMatchObject({ ok: true, version: top - 1 });
    await expectConverged(s, encounterId, [gmView, playerView]);

    const branches = await s.http('GET', `/encounters/${encounterId}/branches`, undefined, gmToken);
    expect(branches.body.branches).toMatchObject([
      { branch: 0, lastVersion: top, live: false },
      { branch: 1, parent: 0, fromVersion: top, baseVersion: top - 2, lastVersion: top - 1, live: true },
    ]);
    const old = await s.http('GET', `/encounters/${encounterId}/log?branch=0`, undefined, gmToken);
    expect((old.body.entries as Array<{ command: { purpose?: string } }>).map((e) => e.command.purpose).filter(Boolean)).toEqual([
      'a',
      'b',
      'c',
    ]);
    const live = await s.http('GET', `/encounters/${encounterId}/log`, undefined, gmToken);
    expect((live.body.entries as Array<{ command: { purpose?: string } }>).map((e) => e.command.purpose).filter(Boolean)).toEqual([
      'a',
      'new',
    ]);
    expect((await s.http('GET', `/encounters/${encounterId}/log?branch=9`, undefined, gmToken)).body.error?.code).toBe('UNKNOWN_BRANCH');
    // a player reads the abandoned branch over the socket, projected: never the hidden Spy
    const playerOld = await player.request('log', { encounterId, afterSeq: 0, branch: 0 });
    expect(playerOld.ok && playerOld.entries.map((e) => e.seq)).toContain(top);
    expect(JSON.stringify(playerOld)).not.toContain('Spy');
    // an export after a rewind is the live branch (the encounter as played now) and imports as it
    const file = await s.http('GET', `/encounters/${encounterId}/export`, undefined, gmToken);
    expect(file.status).toBe(200);
    expect((file.body.log as Array<{ command: { purpose?: string } }>).map((e) => e.command.purpose).filter(Boolean)).toEqual(['a', 'new']);
    const imported = await s.http('POST', '/encounters/import', file.body, gmToken);
    expect(imported.status).toBe(201);
    const copy = await s.http('GET', `/encounters/${(imported.body.encounters as Array<{ id: string }>)[0]!.id}`, undefined, gmToken);
    expect(copy.body).toMatchObject({ version: top - 1 });
    expect((copy.body.state as { rolls: unknown }).rolls).toEqual((gmView.state as { rolls: unknown }).rolls);
    // bad input: a version that does not exist: typed, nothing changed
    expect(await gmView.command({ type: 'timeline.rewind', toVersion: 999 })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_VERSION' },
    });
    expect(gmView.version).toBe(top - 1);
  }, 60_000);

  it('the log tells every viewer where the GM rewound, with what it undid as that viewer saw it: nothing hidden', async () => {
    const gm = await connect(s.url, gmToken);
    const player = await connect(s.url, playerToken);
    clients.push(gm, player);
    const gmView = await gm.join(encounterId);
    await player.join(encounterId);
    expect((await gmView.command({ type: 'dice.roll', formula: '1d6', purpose: 'seen by all', combatantId: 'hero' })).ok).toBe(true);
    expect((await gmView.command({ type: 'dice.roll', formula: '1d6', purpose: 'lurking', combatantId: 'spy' })).ok).toBe(true);
    const top = gmView.version;
    expect((await gmView.command({ type: 'timeline.rewind', toVersion: top - 1 })).ok).toBe(true);
    const note = async (c: FrayClient) => {
      const ack = await c.log(encounterId);
      if (!ack.ok) throw new Error(ack.error.message);
      return ack.rewinds?.at(-1);
    };
    const gmNote = await note(gm);
    expect(gmNote).toMatchObject({ fromVersion: top, toVersion: top - 1, undoneCount: 1, branch: gmView.branch });
    expect(JSON.stringify(gmNote?.undone)).toContain('lurking');
    // the player sees that the GM undid something, never what the hidden Spy did
    const playerNote = await note(player);
    expect(playerNote).toMatchObject({ fromVersion: top, toVersion: top - 1, undoneCount: 1 });
    expect(JSON.stringify(playerNote)).not.toMatch(/lurking|spy/i);
    // undo again: the note says what went, as the player saw it; the first undo is no longer on the path
    expect((await gmView.command({ type: 'timeline.rewind', toVersion: top - 2 })).ok).toBe(true);
    const again = await player.log(encounterId);
    expect(again.ok && again.rewinds?.filter((r) => r.toVersion >= top - 2).map((r) => r.toVersion)).toEqual([top - 2]);
    expect(JSON.stringify(await note(player))).toContain('seen by all');
    // a later page carries no notes
    const later = await player.log(encounterId, 1);
    expect(later.ok && later.rewinds).toBeUndefined();
    // the GM's HTTP log (GET /encounters/:id/log, what the replay reads) carries the same notes as the GM's socket log
    const gmSocket = await gm.log(encounterId);
    const overHttp = await s.http('GET', `/encounters/${encounterId}/log`, undefined, gmToken);
    expect(overHttp.status).toBe(200);
    const notes = overHttp.body.rewinds as Array<{ toVersion: number; undone: unknown[] }>;
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes.at(-1)).toMatchObject({ fromVersion: top - 1, toVersion: top - 2, undoneCount: 1 });
    expect(JSON.stringify(notes.at(-1)!.undone)).toContain('seen by all');
    expect(gmSocket.ok && gmSocket.rewinds).toEqual(notes);
    // the branch the first rewind left has no rewind on its path
    const left = await s.http('GET', `/encounters/${encounterId}/log?branch=0`, undefined, gmToken);
    expect(left.body.rewinds).toEqual([]);
  }, 60_000);

  it("fork: the GM's own encounter at a version; another GM's: 403; an unknown version: 404; nothing made", async () => {
    const made = await s.http('POST', `/encounters/${encounterId}/fork`, { version: 2 }, gmToken);
    expect(made.status).toBe(201);
    expect(made.body.version).toBe(2);
    const detail = await s.http('GET', `/encounters/${made.body.id as string}`, undefined, gmToken);
    expect(detail.body).toMatchObject({ ruleset: 'skirmish', version: 2 });
    expect(Object.keys((detail.body.state as { combatants: object }).combatants).sort()).toEqual(['hero', 'spy']);
    const before = (await s.http('GET', '/encounters', undefined, otherToken)).body.encounters;
    const theirs = await s.http('POST', `/encounters/${encounterId}/fork`, { version: 1 }, otherToken);
    expect(theirs.status).toBe(403);
    expect(theirs.body.error?.code).toBe('FORBIDDEN');
    expect((await s.http('POST', '/encounters/enc_nope/fork', { version: 1 }, gmToken)).status).toBe(404);
    const far = await s.http('POST', `/encounters/${encounterId}/fork`, { version: 500 }, gmToken);
    expect([far.status, far.body.error?.code]).toEqual([404, 'UNKNOWN_VERSION']);
    expect((await s.http('GET', '/encounters', undefined, otherToken)).body.encounters).toEqual(before);
  }, 60_000);
});
