import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupToFile, restoreFromFile, StaleBranchError, SeqGapError, type LogEntry } from '../src/index.js';
import { freshRestoreTarget, openTestStore, type TestStore } from '../src/testing.js';
import { backend, entry, seedEncounter } from './helpers.js';

/**
 * docs/timeline.md: "a rewind never deletes": the log keeps every branch; a branch's log is the
 * branch it left up to the rewound version, then its own rows; an append on a branch a rewind
 * left is refused (STALE_BRANCH); backups carry the branches.
 */
let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

function marker(encounterId: string, branch: number, fromBranch: number, fromVersion: number, toVersion: number): LogEntry {
  return {
    encounterId,
    seq: toVersion,
    branch,
    commandId: `rw-${branch}`,
    command: { type: 'timeline.rewind', toVersion, by: { role: 'gm' } },
    events: [{ type: 'timeline.rewound', fromBranch, fromVersion, toVersion, branch }],
    summary: { status: 'active', round: 1 },
  };
}
const on = (e: LogEntry, branch: number, commandId: string): LogEntry => ({ ...e, branch, commandId });

describe(`timeline branches on ${backend}`, () => {
  it('a rewind opens a branch; both branches stay readable; the live log is the path; stale and skipping appends are refused', async () => {
    const enc = await seedEncounter(store);
    const lease = (await store.acquireLease(enc.id, 'tl', 30_000))!;
    const fence = [{ encounterId: enc.id, token: lease.token }];
    await store.appendLog(
      [1, 2, 3, 4].map((s) => entry(enc.id, s)),
      fence,
    );
    // rewind from 4 to 2: branch 1, its marker at seq 2; then 3' and 4' and 5'
    await store.appendLog([marker(enc.id, 1, 0, 4, 2)], fence);
    expect((await store.getEncounter(enc.id))!.version).toBe(2);
    await store.appendLog(
      [3, 4, 5].map((s) => on(entry(enc.id, s), 1, `b1-${s}`)),
      fence,
    );
    expect((await store.readLog(enc.id, 0, undefined, 0)).map((e) => e.commandId)).toEqual(['cmd-1', 'cmd-2', 'cmd-3', 'cmd-4']);
    expect((await store.readLog(enc.id, 0)).map((e) => e.commandId)).toEqual(['cmd-1', 'cmd-2', 'b1-3', 'b1-4', 'b1-5']);
    expect((await store.readLog(enc.id, 2, 2)).map((e) => [e.seq, e.branch ?? 0])).toEqual([
      [3, 1],
      [4, 1],
    ]);
    expect(await store.readLog(enc.id, 0, undefined, 7)).toEqual([]);
    // a late append to branch 0, one that skips a branch, a gap on branch 1: refused, nothing written
    await expect(store.appendLog([entry(enc.id, 5, 'late')], fence)).rejects.toBeInstanceOf(StaleBranchError);
    await expect(store.appendLog([on(entry(enc.id, 6), 3, 'skip')], fence)).rejects.toBeInstanceOf(StaleBranchError);
    await expect(store.appendLog([on(entry(enc.id, 7), 1, 'gap')], fence)).rejects.toBeInstanceOf(SeqGapError);
    // a second rewind, to version 0 (before the first command), from branch 1
    await store.appendLog([marker(enc.id, 2, 1, 5, 0)], fence);
    await store.appendLog([on(entry(enc.id, 1), 2, 'b2-1')], fence);
    expect((await store.readLog(enc.id, 0)).map((e) => e.commandId)).toEqual(['b2-1']);
    expect((await store.readLog(enc.id, 0, undefined, 1)).map((e) => e.commandId)).toEqual(['cmd-1', 'cmd-2', 'b1-3', 'b1-4', 'b1-5']);
    const branches = await store.listBranches(enc.id);
    expect(branches.map((b) => [b.branch, b.parent, b.fromVersion, b.baseVersion, b.lastVersion, b.commandId, b.live])).toEqual([
      [0, null, null, 0, 4, null, false],
      [1, 0, 4, 2, 5, 'rw-1', false],
      [2, 1, 5, 0, 1, 'rw-2', true],
    ]);
    expect((await store.findLogByCommandId(enc.id, 'rw-1'))?.seq).toBe(2);

    // snapshots after a version go (the rewind's cache), the log stays
    await store.saveSnapshot(enc.id, 4, { at: 4 });
    await store.deleteSnapshotsAfter(enc.id, 0);
    expect((await store.latestSnapshot(enc.id))?.version).toBe(0);
    expect((await store.firstSnapshot(enc.id))?.version).toBe(0);

    // backups carry the branches
    const dir = await mkdtemp(path.join(tmpdir(), 'fray-tl-'));
    const t = await freshRestoreTarget();
    try {
      const file = path.join(dir, 'b.jsonl');
      await backupToFile(store, file);
      await restoreFromFile(file, t.target);
      const restored = await t.open();
      try {
        expect(await restored.listBranches(enc.id)).toEqual(branches);
        for (const b of [0, 1, 2])
          expect(await restored.readLog(enc.id, 0, undefined, b)).toEqual(await store.readLog(enc.id, 0, undefined, b));
      } finally {
        await restored.close();
      }
    } finally {
      await t.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
