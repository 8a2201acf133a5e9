import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frayVersion } from '@fray/store';
import { stateHash } from '../src/data/verify.js';
import { connect, startServer, type TestServer } from './helpers.js';

/**
 * Issue 34, "Encounters that move": "Export one encounter (its log, snapshots, combatants, options,
 * not its tokens) as a versioned JSON file … and over HTTP; import it on another server or account,
 * where replay rebuilds exactly the exported state (the file says which Fray and ruleset versions
 * made it; an import from an unknown future version is refused with a typed error). Also export the
 * whole account."
 */
let a: TestServer;
let b: TestServer;
let gmA: string;
let gmB: string;
let encounterId: string;
let inviteToken: string;

beforeAll(async () => {
  a = await startServer({ runtime: { snapshotEvery: 5, reactionSeconds: 0 } });
  b = await startServer();
  gmA = (await a.http('POST', '/accounts', {})).body.token as string;
  gmB = (await b.http('POST', '/accounts', {})).body.token as string;
  encounterId = (await a.http('POST', '/encounters', { name: 'The bridge', ruleset: 'skirmish', seed: 77, options: { parry: true } }, gmA))
    .body.id as string;
  await a.http('POST', `/encounters/${encounterId}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9 } }, gmA);
  await a.http('POST', `/encounters/${encounterId}/combatants`, { id: 'orc', name: 'Orc', side: 'npcs', stats: { hp: 7 } }, gmA);
  inviteToken = (await a.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero'] }, gmA)).body
    .token as string;
  const client = await connect(a.url, gmA);
  const m = await client.join(encounterId);
  expect((await m.command({ type: 'combat.start' })).ok).toBe(true);
  for (let i = 0; i < 12; i++) expect((await m.command({ type: 'dice.roll', formula: '2d6', purpose: `r${i}` })).ok).toBe(true);
  client.close();
}, 180_000);

afterAll(async () => {
  for (const s of [a, b]) {
    await s?.close();
    await s?.store.close();
  }
});

async function exported(): Promise<Record<string, unknown>> {
  const res = await a.http('GET', `/encounters/${encounterId}/export`, undefined, gmA);
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('encounters that move', () => {
  it('exports a versioned file that names the Fray and ruleset versions and holds no token', async () => {
    const file = await exported();
    expect(file).toMatchObject({
      format: 'fray-encounter',
      formatVersion: 1,
      fray: frayVersion(),
      ruleset: { id: 'skirmish' },
      encounter: { name: 'The bridge', options: { parry: true }, seed: 77 },
    });
    expect((file.ruleset as { version: string }).version).toMatch(/^\d+\.\d+\.\d+/);
    const host = await a.server.runtime.open(encounterId);
    expect(file.state).toMatchObject({ version: host.version, sha256: stateHash(host.state) });
    expect((file.log as unknown[]).length).toBe(host.version);
    const text = JSON.stringify(file);
    expect(text).not.toContain(inviteToken);
    expect(text).not.toContain(gmA);
    expect(text).not.toMatch(/token_?hash|tokenHash/i);
    // another GM cannot export it
    const other = (await a.http('POST', '/accounts', {})).body.token as string;
    expect((await a.http('GET', `/encounters/${encounterId}/export`, undefined, other)).body.error?.code).toBe('FORBIDDEN');
  });

  it('imports on another server, where replay rebuilds exactly the exported state, and plays on', async () => {
    const file = await exported();
    const res = await b.http('POST', '/encounters/import', file, gmB);
    expect(res.status).toBe(201);
    const [made] = res.body.encounters as Array<{ id: string; version: number; importedFrom: string }>;
    expect(made!.importedFrom).toBe(encounterId);
    expect(made!.id).not.toBe(encounterId);
    const source = await a.server.runtime.open(encounterId);
    const host = await b.server.runtime.open(made!.id);
    expect(host.version).toBe(source.version);
    expect(stateHash({ ...host.state, id: encounterId })).toBe(stateHash(source.state));
    const client = await connect(b.url, gmB);
    const m = await client.join(made!.id);
    expect(m.state).toMatchObject({ name: 'The bridge', version: source.version });
    const ack = await m.command({ type: 'dice.roll', formula: '1d6', purpose: 'on the new server' });
    expect(ack.ok && ack.version).toBe(source.version + 1);
    client.close();
    // and into another account of the same server: a new id beside the original
    const second = (await a.http('POST', '/accounts', {})).body.token as string;
    const again = await a.http('POST', '/encounters/import', file, second);
    expect(again.status).toBe(201);
    expect((await a.http('GET', '/encounters', undefined, second)).body.encounters).toHaveLength(1);
  });

  it('exports the whole account, and the account file imports every encounter', async () => {
    await a.http('POST', '/encounters', { name: 'Second fight', ruleset: 'skirmish', seed: 3 }, gmA);
    const res = await a.http('GET', '/account/export', undefined, gmA);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'fray-account', formatVersion: 1, fray: frayVersion() });
    expect((res.body.encounters as Array<{ encounter: { name: string } }>).map((e) => e.encounter.name).sort()).toEqual([
      'Second fight',
      'The bridge',
    ]);
    const fresh = (await b.http('POST', '/accounts', {})).body.token as string;
    const imported = await b.http('POST', '/encounters/import', res.body, fresh);
    expect(imported.status).toBe(201);
    expect((await b.http('GET', '/encounters', undefined, fresh)).body.encounters).toHaveLength(2);
  });

  it('refuses a tampered, truncated, future or unknown-ruleset file with a typed error, and writes nothing', async () => {
    const fresh = (await b.http('POST', '/accounts', {})).body.token as string;
    const file = await exported();
    const log = file.log as Array<{ command: { formula?: string } }>;
    const tampered = structuredClone(file) as typeof file;
    (tampered.log as typeof log)[5]!.command.formula = '2d8';
    const r1 = await b.http('POST', '/encounters/import', tampered, fresh);
    expect([r1.status, r1.body.error?.code]).toEqual([422, 'EXPORT_TAMPERED']);
    const cut = JSON.stringify({ ...file, log: log.slice(0, 6) });
    const r2 = await b.http('POST', '/encounters/import', undefined, fresh, cut);
    expect(r2.body.error?.code).toBe('EXPORT_TAMPERED');
    const r3 = await b.http('POST', '/encounters/import', undefined, fresh, JSON.stringify(file).slice(0, 2000));
    expect([r3.status, r3.body.error?.code]).toEqual([400, 'INVALID_JSON']);
    const r4 = await b.http('POST', '/encounters/import', { ...file, formatVersion: 2, fray: '9.0.0' }, fresh);
    expect([r4.status, r4.body.error?.code]).toEqual([422, 'EXPORT_FROM_NEWER_FRAY']);
    expect(r4.body.error?.message).toMatch(/Fray 9\.0\.0.*Upgrade this server/);
    const r5 = await b.http('POST', '/encounters/import', { ...file, ruleset: { id: 'homebrew', version: '1.0.0' } }, fresh);
    expect([r5.status, r5.body.error?.code]).toEqual([422, 'UNKNOWN_RULESET']);
    expect(r5.body.error?.message).toMatch(/homebrew/);
    const r6 = await b.http('POST', '/encounters/import', { hello: 'world' }, fresh);
    expect([r6.status, r6.body.error?.code]).toEqual([400, 'EXPORT_UNREADABLE']);
    // an account file with one bad encounter writes none of them
    const account = (await a.http('GET', '/account/export', undefined, gmA)).body;
    (account.encounters as Array<typeof file>)[0] = tampered;
    const r7 = await b.http('POST', '/encounters/import', account, fresh);
    expect(r7.body.error?.code).toBe('EXPORT_TAMPERED');
    expect((await b.http('GET', '/encounters', undefined, fresh)).body.encounters).toHaveLength(0);
  });
});
