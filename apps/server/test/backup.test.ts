import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EncounterMirror } from '@fray/client';
import { readdir } from 'node:fs/promises';
import { backupToFile, readBackup, restoreFromFile } from '@fray/store';
import { scheduleBackups } from '../src/data/scheduled-backups.js';
import { freshRestoreTarget } from '@fray/store/testing';
import { rulesets } from '@fray/runtime/testing';
import { resumeAll, stateHash } from '../src/data/verify.js';
import { connect, startServer, testStore, until } from './helpers.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'fray-server-backup-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * Issue 34: "A test makes encounters, backs up, restores into a fresh database, starts a server on
 * it and resumes every encounter at the same version with the same state (hash-compared); a backup
 * taken while commands flow restores to a state that includes every command acknowledged before
 * the backup began."
 */
describe('backups that restore', () => {
  it('a restored database resumes every encounter at the same version and state, including a backup taken while commands flow', async () => {
    const a = await startServer({ runtime: { snapshotEvery: 7, reactionSeconds: 0 } });
    const targets = [await freshRestoreTarget(), await freshRestoreTarget()];
    const gmToken = (await a.http('POST', '/accounts', {})).body.token as string;
    const gm = await connect(a.url, gmToken);
    const ids: string[] = [];
    const mirrors: EncounterMirror[] = [];
    for (let e = 0; e < 3; e++) {
      const id = (await a.http('POST', '/encounters', { name: `Fight ${e}`, ruleset: 'skirmish', seed: 11 + e }, gmToken)).body
        .id as string;
      await a.http('POST', `/encounters/${id}/combatants`, { id: 'hero', name: 'Hero', side: 'pcs', stats: { hp: 9 } }, gmToken);
      await a.http('POST', `/encounters/${id}/combatants`, { id: 'orc', name: 'Orc', side: 'npcs', stats: { hp: 9 } }, gmToken);
      ids.push(id);
      const m = await gm.join(id);
      mirrors.push(m);
      if (e < 2) expect((await m.command({ type: 'combat.start' })).ok).toBe(true);
      for (let i = 0; i < 5 * e; i++) expect((await m.command({ type: 'dice.roll', formula: '2d6', purpose: `r${i}` })).ok).toBe(true);
    }
    const quiet = path.join(dir, 'quiet.jsonl.gz');
    await backupToFile(a.store, quiet);
    const expected = new Map(
      ids.map((id) => [id, { version: a.server.runtime.peek(id)!.version, hash: stateHash(a.server.runtime.peek(id)!.state) }]),
    );

    // commands keep flowing on every encounter while the second backup is taken
    const ackedBefore = new Set<string>();
    let backupBegan = false;
    let flowing = true;
    let n = 0;
    const flows = mirrors.map(async (m) => {
      while (flowing) {
        const commandId = `flow-${++n}`;
        const ack = await m.command({ type: 'dice.roll', formula: '1d20', purpose: 'while backing up' }, { commandId });
        if (ack.ok && !backupBegan) ackedBefore.add(commandId);
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    const busy = path.join(dir, 'busy.jsonl');
    backupBegan = true;
    const backingUp = backupToFile(a.store, busy);
    await backingUp;
    flowing = false;
    await Promise.all(flows);
    expect(ackedBefore.size).toBeGreaterThan(0);
    gm.close();
    await a.close();
    await a.store.close();

    try {
      // the quiet backup: a server on the restored database resumes each encounter exactly
      await restoreFromFile(quiet, targets[0]!.target);
      const b = await startServer({ store: await targets[0]!.open() });
      try {
        for (const id of ids) {
          const host = await b.server.runtime.open(id);
          expect({ version: host.version, hash: stateHash(host.state) }).toEqual(expected.get(id));
        }
        // and plays on
        const gmB = await connect(b.url, gmToken);
        const mb = await gmB.join(ids[1]!);
        expect((await mb.command({ type: 'dice.roll', formula: '1d6', purpose: 'after restore' })).ok).toBe(true);
        gmB.close();
      } finally {
        await b.close();
        await b.store.close();
      }

      // the busy backup: every command acknowledged before it began is there
      await restoreFromFile(busy, targets[1]!.target);
      const c = await startServer({ store: await targets[1]!.open() });
      try {
        const restoredIds = new Set<string>();
        for (const id of ids) {
          const log = await c.http('GET', `/encounters/${id}/log?limit=1000`, undefined, gmToken);
          const entries = log.body.entries as Array<{ commandId: string; seq: number }>;
          entries.forEach((e, i) => expect(e.seq).toBe(i + 1));
          for (const e of entries) restoredIds.add(e.commandId);
          const host = await c.server.runtime.open(id);
          expect(host.version).toBe(entries.length);
        }
        for (const commandId of ackedBefore) expect(restoredIds).toContain(commandId);
        const checks = await resumeAll(c.store, rulesets);
        expect(checks.map((x) => x.id).sort()).toEqual([...ids].sort());
      } finally {
        await c.close();
        await c.store.close();
      }
    } finally {
      for (const t of targets) await t.dispose();
    }
  }, 300_000);

  it('FRAY_BACKUP_DIR: the running server writes its own backups on a schedule and keeps the newest', async () => {
    const store = await testStore();
    await store.createAccount({ id: 'gm-sched', tokenHash: 'h-sched' });
    const out = path.join(dir, 'scheduled');
    const logged: string[] = [];
    const log = {
      info: (_o: object, m: string) => void logged.push(m),
      error: (o: object, m: string) => void logged.push(`${m} ${JSON.stringify(o)}`),
    };
    const stop = scheduleBackups(store, { dir: out, hours: 0.5 / 3600, keep: 2 }, log);
    try {
      await until(() => logged.filter((m) => m === 'backup written').length >= 4, 60_000, 'four scheduled backups');
    } finally {
      stop();
    }
    expect(logged.filter((m) => m.startsWith('backup failed'))).toEqual([]);
    const files = (await readdir(out)).sort();
    expect(files.length).toBeLessThanOrEqual(3); // the newest two, and one being written at stop
    const { rows } = await readBackup(path.join(out, files[0]!));
    expect(rows.accounts).toBe(1);
    await store.close();
  }, 120_000);
});
