import DataLoader from 'dataloader';
import { apply, createEncounter, rebuild, type Ruleset } from '@fray/engine';
import { noteHiddenRemovals } from './unseen.js';
import { isEvents, unwrapSnapshot } from './snapshots.js';
import type { EncounterRecordLike, LoadedEncounterLike, LogEntryLike, Logger, RuntimeStore } from './store.js';

/** What the batched loader gives for an id: the encounter, null when there is none, undefined: load it the long way. */
type Loaded = LoadedEncounterLike | null | undefined;

/**
 * Coalesces the loads of many encounters into batches (DataLoader; `store.loadEncounters`: one
 * statement takes a batch's leases, one reads their records, snapshots and log tails), so that a
 * thousand clients joining again after a restart do not queue a thousand loads of five round trips
 * each on the connection pool. A batch waits `windowMs` for more ids, and while `inFlight` batches
 * run it keeps collecting (up to `maxBatch` ids): under a storm batches grow, alone a load waits
 * only the window. A batch the store refuses for any reason but an unavailable database is loaded
 * the long way, one encounter at a time (undefined). Null without `store.loadEncounters`.
 */
export function encounterLoader(
  store: RuntimeStore,
  o: { ownerId: string; leaseTtlMs: number; windowMs: number; maxBatch: number; inFlight: number; logger: Logger },
): DataLoader<string, Loaded> | null {
  const loadEncounters = store.loadEncounters?.bind(store);
  if (!loadEncounters) return null;
  let running = 0;
  const waiting: Array<() => void> = [];
  const start = (dispatch: () => void) => {
    running += 1;
    dispatch();
  };
  const batch = async (ids: readonly string[]): Promise<Loaded[]> => {
    try {
      const found = await loadEncounters([...ids], o.ownerId, o.leaseTtlMs, TAIL_LIMIT);
      return ids.map((id) => found.get(id) ?? null);
    } catch (e) {
      if (e instanceof Error && Reflect.get(e, 'code') === 'STORE_UNAVAILABLE') throw e;
      o.logger.warn({ err: String(e), encounters: ids.length }, 'batched encounter load failed; loading them one by one');
      return ids.map(() => undefined);
    } finally {
      running -= 1;
      const next = waiting.shift();
      if (next) start(next);
    }
  };
  return new DataLoader<string, Loaded>(batch, {
    cache: false,
    maxBatchSize: o.maxBatch,
    batchScheduleFn: (dispatch) => {
      setTimeout(() => (running < o.inFlight ? start(dispatch) : waiting.push(dispatch)), o.windowMs);
    },
  });
}

/** the longest log tail a batch reads per encounter (snapshots come every 100 commands by default); a longer one is read in pages */
const TAIL_LIMIT = 2_000;
/** the command ids of this many entries before the snapshot are remembered too (the idempotency window) */
const RECENT_BEFORE = 256;

/**
 * The state of an encounter from the database: the latest snapshot and the log after it,
 * through the engine (the command ids of the last 256 entries too, for idempotency). `preloaded`:
 * the snapshot and the log tail a batch read already (see `encounterLoader`).
 */
export async function replay(
  store: RuntimeStore,
  encounterId: string,
  record: EncounterRecordLike,
  ruleset: Ruleset,
  log: Logger,
  preloaded?: { snapshot: LoadedEncounterLike['snapshot']; tail: LogEntryLike[] },
) {
  const snap = preloaded ? preloaded.snapshot : await store.latestSnapshot(encounterId);
  const {
    state: first,
    turnTimerSeconds,
    hiddenGone,
  } = snap
    ? unwrapSnapshot(snap.state)
    : {
        state: createEncounter(ruleset, { id: record.id, name: record.name, options: record.options, seed: record.seed }),
        turnTimerSeconds: null,
        hiddenGone: {},
      };
  let state = first;
  const snapshotVersion = state.version;
  const recent: Array<{ commandId: string; seq: number; events: unknown[] }> = [];
  const read = preloaded
    ? async (after: number) => preloaded.tail.filter((e) => e.seq > after).slice(0, 500)
    : (after: number) => store.readLog(encounterId, after, 500);
  // The log tail, through the engine's apply; the events rebuild it if the rules changed since.
  // Command ids of the last entries before the snapshot too, so a client's retry of a command
  // committed just before a crash is still recognised (idempotency window: 256 commands).
  let after = Math.max(0, state.version - RECENT_BEFORE);
  for (;;) {
    const entries = await read(after);
    if (entries.length === 0) break;
    after = entries[entries.length - 1]!.seq;
    for (const e of entries) {
      if (e.seq <= state.version) {
        recent.push({ commandId: e.commandId, seq: e.seq, events: e.events });
        continue;
      }
      if (e.seq !== state.version + 1) throw new Error(`Log gap at ${state.version + 1} (found ${e.seq}).`);
      noteHiddenRemovals(hiddenGone, state, e.events);
      const r = apply(ruleset, state, e.command);
      if (r.ok && r.state.version === e.seq) state = r.state;
      else {
        log.error({ seq: e.seq, error: r.ok ? 'version mismatch' : r.error }, 'replay diverged from the log; rebuilding from its events');
        if (!isEvents(e.events)) throw new Error(`Log entry ${e.seq} holds no events.`);
        state = rebuild(ruleset, state, [e.events]);
      }
      recent.push({ commandId: e.commandId, seq: e.seq, events: e.events });
      if (recent.length > 512) recent.shift();
    }
    if (entries.length < 500) break;
  }
  return { state, snapshotVersion, turnTimerSeconds, recent, hiddenGone };
}
