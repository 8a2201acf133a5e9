import { IdFilter } from './id-filter.js';
import { eventsOf } from './snapshots.js';
import { commandIdTaken, senderOf, senderOfLogged } from './senders.js';
import type { HostRuntime, Later, Remembered, StoredResult, SubmitInput } from './host-types.js';
import { isStaleOwner, type Logger } from './store.js';

/**
 * Command ids remembered in memory (accepted: the version only; refused: the error). Older
 * duplicates are still answered exactly, from the log: the database refuses a second entry with
 * the same command id, and a refusal is checked against the log before it is given.
 */
const ACK_CACHE = 256;

/**
 * The answers an encounter gives again to a command id it has seen: accepted ids (the version
 * only) and refusals in memory, older acceptances from the log, and the filter of every id ever
 * accepted that spares a refusal the read of the log.
 */
export class CommandMemory {
  private readonly acks = new Map<string, Remembered>();
  /** command ids refused while the log is read for an earlier acceptance (see `refuse`) */
  private readonly lookups = new Map<string, Promise<StoredResult>>();
  /**
   * every command id this encounter ever accepted, once `acks` is no longer complete: built from
   * the log at the first refusal that would otherwise read it (see `refuse`), kept while loaded
   */
  private accepted: { filter: IdFilter; ready: boolean } | null = null;
  /** after a failed read of the log's command ids, not before this time (runtime clock, ms) */
  private acceptedRetryAt = 0;

  constructor(
    private readonly host: { readonly id: string; readonly version: number; readonly logger: Logger },
    private readonly runtime: HostRuntime,
    /** every accepted command of this encounter is in `acks` (none forgotten yet) */
    private complete: boolean,
  ) {}

  get(commandId: string): Remembered | undefined {
    return this.acks.get(commandId);
  }

  remember(commandId: string, r: Remembered): void {
    // an accepted id goes into the filter too, also while it is being read from the log
    if (typeof r === 'number' && this.accepted) this.accepted.filter.add(commandId);
    this.acks.set(commandId, r);
    if (this.acks.size > ACK_CACHE) {
      const first = this.acks.entries().next();
      if (!first.done) {
        this.acks.delete(first.value[0]);
        if (typeof first.value[1] === 'number') this.complete = false;
      }
    }
  }
  /**
   * The first ack of a command id already in the log (remembered again), null when the log has
   * none, or UNAVAILABLE when the log cannot be read (never a guess: a retry must get the first ack).
   */
  async firstAck(commandId: string, sender: string): Promise<StoredResult | null> {
    try {
      const e = await this.runtime.store.findLogByCommandId(this.host.id, commandId);
      if (!e) return null;
      this.remember(commandId, e.seq);
      // the id is the sender's who used it first: another sender's command with it is not applied
      if (senderOfLogged(e.command) !== sender) return commandIdTaken(commandId);
      return { ok: true, version: e.seq, events: eventsOf(e) };
    } catch (err) {
      this.host.logger.warn({ err: String(err), commandId }, 'could not read the log for an earlier command with this id');
      return { ok: false, error: { code: 'UNAVAILABLE', message: 'The database is unavailable; try again shortly.' } };
    }
  }
  /**
   * A refusal, unless the command id was accepted before and has left the memory: then the first
   * ack (a retry must never be answered differently from the first time).
   *
   * The log is read outside the encounter's queue: a refused command changes nothing, so the
   * commands behind it need not wait for a database round trip (a client sending bad commands
   * would otherwise hold up the whole table by one read each). Until the read is back, the same
   * command id gets the same answer (`lookups`), as if the queue had waited.
   */
  refuse(input: SubmitInput, r: Extract<StoredResult, { ok: false }>): StoredResult | Later {
    const { commandId } = input;
    const sender = senderOf(input.by);
    if (this.complete || this.neverAccepted(commandId)) {
      this.remember(commandId, { ...r, sender });
      return r;
    }
    const key = `${sender} ${commandId}`;
    const later = this.firstAck(commandId, sender).then((first) => {
      this.lookups.delete(key);
      if (first) return first;
      this.remember(commandId, { ...r, sender });
      return r;
    });
    this.lookups.set(key, later);
    return { later };
  }
  /**
   * True when the filter of accepted ids is built and has never held `commandId`: then no earlier
   * acceptance can exist and the refusal stands without reading the log. A Bloom filter never
   * says "no" for an id it holds, and says "maybe" for fewer than one id in 200 it does not (those
   * read the log, as every refusal did before). The first refusal that finds no filter starts building
   * it from the log's command ids, in the background; until it is ready refusals read the log.
   */
  private neverAccepted(commandId: string): boolean {
    const a = this.accepted;
    if (a) return a.ready && !a.filter.has(commandId);
    const store = this.runtime.store;
    if (!store.listCommandIds || this.runtime.now() < this.acceptedRetryAt) return false;
    const building = { filter: new IdFilter(Math.max(1024, Math.ceil(this.host.version * 1.25))), ready: false };
    this.accepted = building;
    // Ids accepted from now on are added as they commit (remember); the read adds every id already
    // committed when it runs. Together: every accepted id, whichever way the two interleave.
    store.listCommandIds(this.host.id).then(
      (ids) => {
        if (this.accepted !== building) return;
        for (const id of ids) building.filter.add(id);
        building.ready = true;
      },
      (err: unknown) => {
        if (this.accepted !== building) return;
        this.accepted = null;
        this.acceptedRetryAt = this.runtime.now() + 30_000;
        this.host.logger.warn({ err: String(err) }, "could not read the log's command ids; refusals read the log one by one meanwhile");
      },
    );
    return false;
  }

  /** The answer to a command id seen before (a refusal to the same sender, or the first ack of an accepted one); null for a new one. */
  answerAgain(commandId: string, sender: string): StoredResult | Later | null {
    const looking = this.lookups.get(`${sender} ${commandId}`);
    if (looking) return { later: looking };
    const seen = this.acks.get(commandId);
    // a refusal is remembered for its sender; another sender's command with that id is judged afresh
    if (seen !== undefined && typeof seen !== 'number' && seen.sender === sender) return { ok: false, error: seen.error };
    // a retry of an accepted command: its events come from the log (read outside the queue); another sender's: COMMAND_ID_TAKEN
    if (typeof seen === 'number')
      return { later: this.firstAck(commandId, sender).then((first) => first ?? { ok: true, version: seen, events: [] }) };
    return null;
  }
}

/**
 * The answer to a command whose log append failed. The command id already in the log (a retry
 * from beyond the memory): the first ack. Otherwise not acknowledged: the state stays as it was,
 * and a stale owner or an unknown outcome means this process must reload the encounter from the
 * database before serving it again (it is unloaded).
 */
export async function appendFailed(
  e: unknown,
  encounterId: string,
  commandId: string,
  sender: string,
  memory: CommandMemory,
  runtime: HostRuntime,
  logger: Logger,
): Promise<StoredResult> {
  if (e instanceof Error && e.name === 'DuplicateCommandIdError') {
    return (
      (await memory.firstAck(commandId, sender)) ?? {
        ok: false,
        error: { code: 'UNAVAILABLE', message: 'The database is unavailable; try again shortly.' },
      }
    );
  }
  // a rewind made by another process since (docs/timeline.md) is a stale owner too
  const stale = isStaleOwner(e) || (e instanceof Error && e.name === 'StaleBranchError');
  logger.warn({ err: String(e), commandId, stale }, 'log append refused; unloading the encounter');
  void runtime.unload(encounterId, stale ? 'lease lost' : 'database error', { release: !stale, snapshot: false });
  return {
    ok: false,
    error: stale
      ? { code: 'ENCOUNTER_BUSY', message: 'Another server process owns this encounter now; join again.' }
      : { code: 'UNAVAILABLE', message: 'The database refused the write; the command was not applied.' },
  };
}
