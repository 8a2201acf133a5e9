import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '@fray/store';
import { freshRestoreTarget } from '@fray/store/testing';
import { rulesets } from '@fray/runtime/testing';
import { moveToPostgres } from '../src/data/move.js';
import { resumeAll } from '../src/data/verify.js';
import { connect, startServer } from './helpers.js';

/** Issue 34: "One command copies a PGlite data directory into a Postgres database, checked the same way (every encounter resumes at the same version)." */
describe.skipIf(!process.env.DATABASE_URL)('moving from the embedded database to Postgres', () => {
  it('copies every encounter, which resumes at the same version with the same state, and plays on', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'fray-move-src-'));
    const target = await freshRestoreTarget();
    try {
      const a = await startServer({ store: await openStore({ dataDir }), runtime: { snapshotEvery: 4, reactionSeconds: 0 } });
      const gmToken = (await a.http('POST', '/accounts', {})).body.token as string;
      const gm = await connect(a.url, gmToken);
      for (let e = 0; e < 2; e++) {
        const id = (await a.http('POST', '/encounters', { name: `Move ${e}`, ruleset: 'skirmish', seed: 5 + e }, gmToken)).body
          .id as string;
        await a.http('POST', `/encounters/${id}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9 } }, gmToken);
        const m = await gm.join(id);
        for (let i = 0; i < 6 + e; i++) expect((await m.command({ type: 'dice.roll', formula: '1d8', purpose: `m${i}` })).ok).toBe(true);
      }
      gm.close();
      await a.close();
      await a.store.close();
      const before = await (async () => {
        const s = await openStore({ dataDir });
        try {
          return await resumeAll(s, rulesets);
        } finally {
          await s.close();
        }
      })();

      const { encounters } = await moveToPostgres(dataDir, target.target as { databaseUrl: string; schema: string }, rulesets);
      expect(encounters).toBe(2);
      const b = await startServer({ store: await target.open() });
      try {
        expect(await resumeAll(b.store, rulesets)).toEqual(before);
        expect(before.map((c) => c.version).sort()).toEqual([7, 8]);
        const list = await b.http('GET', '/encounters', undefined, gmToken);
        expect((list.body.encounters as unknown[]).length).toBe(2);
        const gmB = await connect(b.url, gmToken);
        const mb = await gmB.join(before[0]!.id);
        const ack = await mb.command({ type: 'dice.roll', formula: '1d8', purpose: 'on Postgres' });
        expect(ack.ok && ack.version).toBe(before[0]!.version + 1);
        gmB.close();
      } finally {
        await b.close();
        await b.store.close();
      }
    } finally {
      await target.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
