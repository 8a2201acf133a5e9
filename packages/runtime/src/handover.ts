/**
 * A graceful stop's hand-over of every live encounter (Runtime.shutdown): the snapshots saved and
 * the leases released in a few statements, not one round trip per encounter each.
 */
import type { EncounterHost } from './host.js';
import type { Logger, RuntimeStore } from './store.js';

/** snapshots per statement (each carries its whole state) and statements at once */
const SNAPSHOTS_PER_STATEMENT = 100;
const STATEMENTS_IN_FLIGHT = 2;
/** leases per statement */
const LEASES_PER_STATEMENT = 500;

/** Every host's newest state saved as its snapshot (through `store.saveSnapshots` when the store has it). */
export async function saveEverySnapshot(store: RuntimeStore, hosts: EncounterHost[], logger: Logger): Promise<void> {
  const saveMany = store.saveSnapshots?.bind(store);
  if (!saveMany) {
    await Promise.all(hosts.map((h) => h.snapshot()));
    return;
  }
  const due = hosts.flatMap((host) => {
    const snapshot = host.snapshotDue();
    return snapshot ? [{ host, snapshot }] : [];
  });
  const chunks: (typeof due)[] = [];
  for (let i = 0; i < due.length; i += SNAPSHOTS_PER_STATEMENT) chunks.push(due.slice(i, i + SNAPSHOTS_PER_STATEMENT));
  const lane = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      try {
        await saveMany(chunk.map((x) => x.snapshot));
        for (const x of chunk) x.host.snapshotSaved(x.snapshot.version);
      } catch (e) {
        logger.warn({ err: String(e), snapshots: chunk.length }, 'batched snapshot save failed; saving them one by one');
        await Promise.all(chunk.map((x) => x.host.snapshot()));
      }
    }
  };
  await Promise.all(Array.from({ length: STATEMENTS_IN_FLIGHT }, lane));
}

/** Every host's lease released (in one statement per 500 when the store can; one each took seconds at 1,000 encounters). */
export async function releaseEveryLease(store: RuntimeStore, hosts: EncounterHost[]): Promise<void> {
  for (let i = 0; i < hosts.length; i += LEASES_PER_STATEMENT) {
    const chunk = hosts.slice(i, i + LEASES_PER_STATEMENT);
    if (store.releaseLeases) await store.releaseLeases(chunk.map((h) => h.lease));
    else await Promise.all(chunk.map((h) => store.releaseLease(h.lease)));
  }
}
