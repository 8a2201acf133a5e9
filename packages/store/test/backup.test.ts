import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, backupToFile, readBackup, restoreFromFile } from '../src/index.js';
import { freshRestoreTarget as freshTarget, openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import { backend, entry, seedEncounter, uid } from './helpers.js';

const encounterIds = async (file: string): Promise<string[]> =>
  (await rowLines(file)).filter((l) => l.startsWith('["encounters"')).map((l) => (JSON.parse(l) as [string, { id: string }])[1].id);

const rowLines = async (file: string): Promise<string[]> => (await readFile(file, 'utf8')).split('\n').slice(1, -2);

async function refusal(p: Promise<unknown>): Promise<BackupError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackupError);
  return error as BackupError;
}

let store: TestStore;
let dir: string;
let good: string;
const disposals: Array<() => Promise<void>> = [];

beforeAll(async () => {
  store = await openTestStore();
  dir = await mkdtemp(path.join(os.tmpdir(), 'fray-backup-test-'));
  // two GMs, three encounters: logs, a later snapshot (keys in the engine's order), invites
  const a = await seedEncounter(store, { seed: 4_000_000_123, options: { grid: { w: 12, h: 8 } } }, { z: 1, a: { y: 2, b: [3] } });
  const b = await seedEncounter(store, { accountId: a.accountId, name: 'Second' });
  await seedEncounter(store, { name: 'Third, untouched' });
  for (const enc of [a, b]) {
    const lease = (await store.acquireLease(enc.id, 'proc-a', 30_000))!;
    await store.appendLog(
      [1, 2, 3].map((s) => entry(enc.id, s)),
      [{ encounterId: enc.id, token: lease.token }],
    );
    await store.saveSnapshot(enc.id, 3, { z: 3, a: { y: 'later', b: [] } }, { status: 'active', round: 2 });
  }
  await store.createInvite({
    id: uid('inv'),
    encounterId: a.id,
    tokenHash: uid('th'),
    role: 'player',
    playerId: 'p1',
    combatantIds: ['ayla', 'bren'],
    expiresAt: new Date('2027-01-02T03:04:05.678Z'),
  });
  good = path.join(dir, 'good.jsonl');
  await backupToFile(store, good);
});

afterAll(async () => {
  for (const d of disposals) await d().catch(() => {});
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`backup and restore on ${backend}`, () => {
  it('"brings it back into an empty database": every row, byte for byte, and the store reads it as before', async () => {
    const t = await freshTarget();
    disposals.push(t.dispose);
    const summary = await restoreFromFile(good, t.target);
    expect(summary.rows).toMatchObject({ accounts: 2, encounters: 3, command_log: 6, invites: 1 });
    const restored = await t.open();
    try {
      const again = path.join(dir, 'again.jsonl.gz');
      await backupToFile(restored, again);
      const lines: string[] = [];
      await readBackup(again, async (r) => void lines.push(`[${JSON.stringify(r.table)},${r.row}]`));
      expect(lines).toEqual(await rowLines(good));
      const ids = await encounterIds(good);
      expect(ids).toHaveLength(3);
      for (const id of ids) {
        expect(await restored.getEncounter(id)).toEqual(await store.getEncounter(id));
        expect(await restored.readLog(id, 0)).toEqual(await store.readLog(id, 0));
        expect(await restored.latestSnapshot(id)).toEqual(await store.latestSnapshot(id));
        expect(await restored.listInvites(id)).toEqual(await store.listInvites(id));
      }
      // a restored encounter plays on: no lease came along, a new owner takes it and appends
      const enc = (await restored.getEncounter(ids[0]!))!;
      const lease = (await restored.acquireLease(enc.id, 'proc-b', 30_000))!;
      await restored.appendLog([entry(enc.id, enc.version + 1, 'after-restore')], [{ encounterId: enc.id, token: lease.token }]);
    } finally {
      await restored.close();
    }
  });

  it('refuses a restore into a database that holds data, and writes nothing', async () => {
    const t = await freshTarget();
    disposals.push(t.dispose);
    const other = await t.open();
    await other.createAccount({ id: 'someone', tokenHash: 'x' });
    await other.close();
    const e = await refusal(restoreFromFile(good, t.target));
    expect(e.code).toBe('RESTORE_TARGET_NOT_EMPTY');
    expect(e.message).toMatch(/table accounts has 1 rows/);
    const reopened = await t.open();
    for (const id of await encounterIds(good)) expect(await reopened.getEncounter(id)).toBeNull();
    await reopened.close();
  });

  it('refuses a truncated file and a tampered one, and the database stays empty (a good file restores after)', async () => {
    const text = await readFile(good, 'utf8');
    const cut = path.join(dir, 'cut.jsonl');
    await writeFile(cut, text.slice(0, Math.floor(text.length * 0.6)));
    const tampered = path.join(dir, 'tampered.jsonl');
    await writeFile(tampered, text.replace('4000000123', '4000000124'));
    const dropped = path.join(dir, 'dropped.jsonl');
    await writeFile(
      dropped,
      text
        .split('\n')
        .filter((l) => !l.startsWith('["invites"'))
        .join('\n'),
    );
    const t = await freshTarget();
    disposals.push(t.dispose);
    expect((await refusal(restoreFromFile(cut, t.target))).code).toBe('BACKUP_TRUNCATED');
    expect((await refusal(restoreFromFile(tampered, t.target))).code).toBe('BACKUP_TAMPERED');
    expect((await refusal(restoreFromFile(dropped, t.target))).code).toBe('BACKUP_TAMPERED');
    expect((await refusal(restoreFromFile(path.join(dir, 'missing.jsonl'), t.target))).code).toBe('BACKUP_UNREADABLE');
    await restoreFromFile(good, t.target);
  });

  it('refuses a backup from a newer Fray: a newer format, or migrations this Fray lacks', async () => {
    const lines = (await readFile(good, 'utf8')).split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    const newerFormat = path.join(dir, 'newer-format.jsonl');
    await writeFile(newerFormat, [JSON.stringify({ ...header, formatVersion: 99, fray: '9.0.0' }), ...lines.slice(1)].join('\n'));
    // a genuine newer backup: its checksum covers its own header
    const newerSchema = path.join(dir, 'newer-schema.jsonl');
    const migrations = [...(header.migrations as string[]), '29990101000000_from_the_future'];
    const body = [JSON.stringify({ ...header, migrations }), ...lines.slice(1, -2)].map((l) => `${l}\n`).join('');
    const trailer = { ...(JSON.parse(lines.at(-2)!) as object), sha256: createHash('sha256').update(body).digest('hex') };
    await writeFile(newerSchema, `${body}${JSON.stringify(trailer)}\n`);
    const t = await freshTarget();
    disposals.push(t.dispose);
    const e1 = await refusal(restoreFromFile(newerFormat, t.target));
    expect(e1.code).toBe('BACKUP_FROM_NEWER_FRAY');
    expect(e1.message).toMatch(/Fray 9\.0\.0.*Upgrade Fray/);
    const e2 = await refusal(restoreFromFile(newerSchema, t.target));
    expect(e2.code).toBe('BACKUP_FROM_NEWER_FRAY');
    expect(e2.message).toMatch(/29990101000000_from_the_future/);
  });
});
