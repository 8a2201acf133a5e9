import { io as rawIo, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrayClient } from '@fray/client';
import { connect, startServer, testMetricsToken, until, type TestServer } from './helpers.js';

/**
 * "Malformed JSON, unknown events, wrong types, oversized payloads, unknown ids, missing or forged
 * tokens, floods: a typed error, the socket stays usable, no state changes, and one warn log line
 * with the reason." Every refusal is also counted by its code in /metrics.
 */
describe('bad input', () => {
  let s: TestServer;
  let gmToken: string;
  let otherGmToken: string;
  let playerToken: string;
  let encounterId: string;
  let gm: FrayClient;
  let raw: Socket;

  const version = () => s.server.runtime.peek(encounterId)!.version;
  const emit = (event: string, payload: unknown) =>
    raw.timeout(3000).emitWithAck(event, payload) as Promise<{ ok: boolean; error?: { code: string; message: string } }>;

  /** Runs `act`, expects exactly one new warn line containing `code`, the state unchanged, the socket usable. */
  async function refusedOnce(code: string, act: () => Promise<unknown>) {
    const warnsBefore = s.warns().length;
    const v = version();
    const out = await act();
    await until(() => s.warns().length > warnsBefore, 5000, 'a warn line');
    await new Promise((r) => setTimeout(r, 30));
    const fresh = s.warns().slice(warnsBefore);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.code).toBe(code);
    expect(typeof fresh[0]!.reason).toBe('string');
    expect(version()).toBe(v);
    // still usable
    const ok = await emit('actions', { encounterId, combatantId: 'hero' });
    expect(ok.ok).toBe(true);
    return out;
  }

  beforeAll(async () => {
    s = await startServer({ limits: { socketRate: 40, socketBurst: 40, httpRate: 1000, httpBurst: 1000 } });
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
    otherGmToken = (await s.http('POST', '/accounts', {})).body.token as string;
    encounterId = (await s.http('POST', '/encounters', { name: 'Bad', ruleset: 'skirmish', seed: 1 }, gmToken)).body.id as string;
    await s.http('POST', `/encounters/${encounterId}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 5 } }, gmToken);
    playerToken = (await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmToken)).body
      .token as string;
    gm = await connect(s.url, gmToken);
    await gm.join(encounterId);
    raw = rawIo(s.url, { auth: { token: gmToken }, transports: ['websocket'] });
    await new Promise<void>((r) => raw.once('connect', () => r()));
    expect((await emit('join', { encounterId })).ok).toBe(true);
  });

  afterAll(async () => {
    raw?.close();
    gm?.close();
    await s?.close();
  });

  it('malformed JSON: INVALID_JSON', async () => {
    const r = (await refusedOnce('INVALID_JSON', () => emit('command', '{"encounterId": "x", oops'))) as { error: { code: string } };
    expect(r.error.code).toBe('INVALID_JSON');
  });

  it('unknown events: UNKNOWN_EVENT', async () => {
    const r = (await refusedOnce('UNKNOWN_EVENT', () => emit('teleport', { encounterId }))) as { error: { code: string } };
    expect(r.error.code).toBe('UNKNOWN_EVENT');
  });

  it('wrong types: INVALID_MESSAGE', async () => {
    const r = (await refusedOnce('INVALID_MESSAGE', () =>
      emit('command', { encounterId, commandId: 7, command: { type: 'combat.start' } }),
    )) as {
      error: { code: string; message: string };
    };
    expect(r.error.code).toBe('INVALID_MESSAGE');
    expect(r.error.message).toContain('commandId');
  });

  it('oversized payloads: PAYLOAD_TOO_LARGE', async () => {
    const big = 'x'.repeat(20_000);
    const r = (await refusedOnce('PAYLOAD_TOO_LARGE', () =>
      emit('command', { encounterId, commandId: 'big', command: { type: 'dice.roll', formula: '1d6', purpose: big } }),
    )) as {
      error: { code: string };
    };
    expect(r.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('unknown ids: NOT_FOUND for an encounter, NOT_JOINED for one not joined', async () => {
    const r = (await refusedOnce('NOT_FOUND', () => emit('join', { encounterId: 'enc_nope' }))) as { error: { code: string } };
    expect(r.error.code).toBe('NOT_FOUND');
    const q = (await refusedOnce('NOT_JOINED', () =>
      emit('command', { encounterId: 'enc_nope', commandId: 'c1', command: { type: 'combat.start' } }),
    )) as { error: { code: string } };
    expect(q.error.code).toBe('NOT_JOINED');
  });

  it('an engine refusal is a typed error with its rule and changes nothing', async () => {
    const v = version();
    const r = await emit('command', { encounterId, commandId: 'unk', command: { type: 'combatant.remove', combatantId: 'ghost' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    expect(version()).toBe(v);
  });

  it('missing or forged tokens are refused at connect (UNAUTHORIZED), with a warn line', async () => {
    for (const token of [undefined, 'fray_gm_forgedforgedforgedforged']) {
      const before = s.warns().length;
      const err = await FrayClient.connect(s.url, token as unknown as string).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(s.warns().length).toBe(before + 1);
      expect(s.warns().at(-1)!.code).toBe('UNAUTHORIZED');
    }
  });

  it('another GM cannot join my encounter; a player cannot join another encounter', async () => {
    const other = await connect(s.url, otherGmToken);
    await expect(other.join(encounterId)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    other.close();
    const p = await connect(s.url, playerToken);
    const otherEnc = (await s.http('POST', '/encounters', { name: 'Other', ruleset: 'skirmish' }, gmToken)).body.id as string;
    await expect(p.join(otherEnc)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    p.close();
  });

  it('floods: RATE_LIMITED, then usable again; each refusal a warn line with its reason and counted in /metrics', async () => {
    const counted = async () =>
      ((await s.http('GET', '/metrics/json', undefined, testMetricsToken)).body.refusals as Record<string, number>).RATE_LIMITED ?? 0;
    const countedBefore = await counted();
    const before = s.warns().length;
    const v = version();
    const acks = await Promise.all(Array.from({ length: 60 }, () => emit('actions', { encounterId, combatantId: 'hero' })));
    const limited = acks.filter((a) => !a.ok && a.error?.code === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThan(0);
    // one warn line per refused message, each with its reason
    const lines = s.warns().slice(before);
    expect(lines.length).toBe(limited.length);
    expect(lines.every((l) => l.code === 'RATE_LIMITED' && typeof l.reason === 'string')).toBe(true);
    // and which socket and principal sent it (fields merged into the line, no child logger per socket)
    expect(lines.every((l) => typeof l.socketId === 'string' && l.socketId.length > 0 && typeof l.principal === 'string')).toBe(true);
    expect(new Set(lines.map((l) => l.socketId)).size).toBe(1);
    expect((await counted()) - countedBefore).toBe(limited.length);
    expect(version()).toBe(v);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await emit('actions', { encounterId, combatantId: 'hero' })).ok).toBe(true);
  });

  describe('HTTP', () => {
    it('401 without a token, 401 with a forged one, 403 with an invite token', async () => {
      expect((await s.http('GET', '/encounters')).status).toBe(401);
      expect((await s.http('GET', '/encounters', undefined, 'fray_gm_forgedforgedforged')).status).toBe(401);
      const r = await s.http('GET', '/encounters', undefined, playerToken);
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'FORBIDDEN' });
    });

    it('400 malformed JSON, 413 oversized, 422 wrong types, 404 unknown ids, 403 another GM', async () => {
      const before = s.warns().length;
      const bad = await s.http('POST', '/encounters', undefined, gmToken, '{"name": oops');
      expect(bad.status).toBe(400);
      expect(bad.body.error!.code).toBe('INVALID_JSON');
      const big = await s.http('POST', '/encounters', { name: 'x'.repeat(70_000), ruleset: 'skirmish' }, gmToken);
      expect(big.status).toBe(413);
      expect(big.body.error!.code).toBe('PAYLOAD_TOO_LARGE');
      const types = await s.http('POST', '/encounters', { name: 5, ruleset: 'skirmish' }, gmToken);
      expect(types.status).toBe(422);
      expect(types.body.error!.code).toBe('INVALID_REQUEST');
      const opts = await s.http('POST', '/encounters', { name: 'x', ruleset: 'skirmish', options: { parry: 'maybe' } }, gmToken);
      expect(opts.status).toBe(422);
      const nf = await s.http('GET', '/encounters/enc_missing', undefined, gmToken);
      expect(nf.status).toBe(404);
      const nc = await s.http('DELETE', `/encounters/${encounterId}/combatants/ghost`, undefined, gmToken);
      expect(nc.status).toBe(404);
      expect(nc.body.error!.code).toBe('UNKNOWN_COMBATANT');
      const stats = await s.http('POST', `/encounters/${encounterId}/combatants`, { name: 'Bad', side: 'x', stats: { hp: -3 } }, gmToken);
      expect(stats.status).toBe(422);
      expect(stats.body.error!.code).toBe('INVALID_STATS');
      const forbidden = await s.http('GET', `/encounters/${encounterId}`, undefined, otherGmToken);
      expect(forbidden.status).toBe(403);
      const route = await s.http('GET', '/nowhere');
      expect(route.status).toBe(404);
      // one warn line per refusal, each with its code and reason
      const lines = s.warns().slice(before);
      expect(lines.map((l) => l.code)).toEqual([
        'INVALID_JSON',
        'PAYLOAD_TOO_LARGE',
        'INVALID_REQUEST',
        'INVALID_OPTIONS',
        'NOT_FOUND',
        'UNKNOWN_COMBATANT',
        'INVALID_STATS',
        'FORBIDDEN',
        'NOT_FOUND',
      ]);
      expect(lines.every((l) => typeof l.reason === 'string' && (l.reason as string).length > 0)).toBe(true);
    });

    it('a taken combatant id is a typed 422; a change to an archived encounter is a 409', async () => {
      await s.http('POST', `/encounters/${encounterId}/combatants`, { id: 'twin', name: 'Twin', side: 'pcs', stats: { hp: 5 } }, gmToken);
      const dup = await s.http(
        'POST',
        `/encounters/${encounterId}/combatants`,
        { id: 'twin', name: 'Twin', side: 'pcs', stats: { hp: 5 } },
        gmToken,
      );
      expect(dup.status).toBe(422);
      expect(dup.body.error!.code).toBe('INVALID_COMMAND');
      const old = (await s.http('POST', '/encounters', { name: 'Old', ruleset: 'skirmish' }, gmToken)).body.id as string;
      expect((await s.http('POST', `/encounters/${old}/archive`, undefined, gmToken)).status).toBe(200);
      const late = await s.http('POST', `/encounters/${old}/combatants`, { name: 'Late', side: 'pcs', stats: { hp: 5 } }, gmToken);
      expect(late.status).toBe(409);
      expect(late.body.error!.code).toBe('ENCOUNTER_ARCHIVED');
    });

    it('429 when an account floods', async () => {
      const t = await startServer({ store: s.store, limits: { httpRate: 2, httpBurst: 5 } });
      try {
        const codes: number[] = [];
        for (let i = 0; i < 10; i++) codes.push((await t.http('GET', '/encounters', undefined, gmToken)).status);
        expect(codes).toContain(429);
        const r = await t.http('GET', '/encounters', undefined, gmToken);
        if (r.status === 429) expect(r.body.error!.code).toBe('RATE_LIMITED');
      } finally {
        await t.server.close();
      }
    });
  });
});
