import jsonpatch from 'fast-json-patch';
import type { ClientCommand, CommandAck, Deadlines, DeadlinesMessage, JoinAck, PatchMessage, SyncAck, ViewerRole } from '@fray/protocol';
import { FrayError } from './errors.js';

/** What a mirror needs of its client (FrayClient): its requests and its commands. */
export interface MirrorClient {
  request(event: 'sync', payload: { encounterId: string; since: number }): Promise<SyncAck>;
  command(
    encounterId: string,
    command: ClientCommand,
    opts?: { expectedVersion?: number; commandId?: string; branch?: number },
  ): Promise<CommandAck>;
}

type Listener = (mirror: EncounterMirror, msg: PatchMessage | null) => void;

/**
 * The client's copy of one encounter: the state as the server projected it for this viewer,
 * kept current by the server's patches (RFC 6902), resynchronised after a gap or a reconnect.
 */
export class EncounterMirror {
  version: number;
  /** the timeline branch (docs/timeline.md): sent with this mirror's commands */
  branch: number;
  state: unknown;
  deadlines: Deadlines;
  readonly role: ViewerRole;
  readonly playerId: string | null;
  /** patches applied, bytes of patch JSON received (for benchmarks) */
  readonly stats = { patches: 0, snapshots: 1 };
  private readonly listeners = new Set<Listener>();
  private readonly deadlineListeners = new Set<(mirror: EncounterMirror) => void>();
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly client: MirrorClient,
    readonly encounterId: string,
    join: Extract<JoinAck, { ok: true }>,
  ) {
    this.version = join.version;
    this.branch = join.branch ?? 0;
    this.state = join.state;
    this.deadlines = join.deadlines;
    this.role = join.role;
    this.playerId = join.playerId;
  }

  /** Called on every change (a patch, or a snapshot with `msg` null). Returns an unsubscribe. */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(msg: PatchMessage | null): void {
    for (const l of this.listeners) l(this, msg);
  }

  /** Apply a server patch; a gap triggers a sync. */
  receive(msg: PatchMessage): void {
    // a rewind (docs/timeline.md): the ops replace the whole state, on the new branch
    if (msg.branch !== undefined && msg.branch > this.branch) [this.branch, this.version] = [msg.branch, msg.from];
    if (msg.to <= this.version && msg.branch === undefined) return; // already have it
    if (msg.from !== this.version) {
      // a failed sync (the process is stopping, the database is down) is retried by the rejoin
      // that follows the disconnection; it must not be an unhandled rejection, which ends a Node process
      void this.sync().catch(() => {});
      return;
    }
    this.state = jsonpatch.applyPatch(this.state, msg.ops, false, true).newDocument;
    this.version = msg.to;
    this.deadlines = msg.deadlines;
    this.stats.patches += 1;
    this.emit(msg);
  }

  /** The deadlines changed while the state did not (see DeadlinesMessage). */
  receiveDeadlines(msg: DeadlinesMessage): void {
    if (msg.version !== this.version) return; // a patch or a sync brings them
    this.deadlines = msg.deadlines;
    for (const l of this.deadlineListeners) l(this);
  }

  /** Called when only the deadlines change. Returns an unsubscribe. */
  onDeadlines(fn: (mirror: EncounterMirror) => void): () => void {
    this.deadlineListeners.add(fn);
    return () => this.deadlineListeners.delete(fn);
  }

  /** Catch up from `version` (patches, or a snapshot when too far behind); re-subscribes. */
  sync(): Promise<void> {
    if (!this.syncing) {
      this.syncing = (async () => {
        try {
          const ack = await this.client.request('sync', { encounterId: this.encounterId, since: this.version });
          if (!ack.ok) throw new FrayError(ack.error);
          if (ack.kind === 'snapshot') {
            if (ack.version >= this.version || (ack.branch ?? 0) > this.branch) {
              this.branch = ack.branch ?? this.branch;
              this.state = ack.state;
              this.version = ack.version;
              this.deadlines = ack.deadlines;
              this.stats.snapshots += 1;
              this.emit(null);
            }
          } else {
            for (const p of ack.patches) this.receive(p);
          }
        } finally {
          this.syncing = null;
        }
      })();
    }
    return this.syncing;
  }

  /** Send a command for this encounter (see FrayClient.command). */
  command(command: ClientCommand, opts: { expectedVersion?: number; commandId?: string; branch?: number } = {}): Promise<CommandAck> {
    return this.client.command(this.encounterId, command, { branch: this.branch, ...opts });
  }
}
