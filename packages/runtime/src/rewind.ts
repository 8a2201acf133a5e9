/**
 * `timeline.rewind { toVersion }` (GM): the encounter goes on from the state at `toVersion`, on a
 * new branch (docs/timeline.md). Logged, never a deletion: the marker entry opens the branch at
 * seq `toVersion`; the branch it leaves stays in the log as it was.
 */
import type { Actor, EncounterState, Ruleset } from '@fray/engine';
import type { WireError } from '@fray/protocol';
import { appendFailed, type CommandMemory } from './acks.js';
import type { HostRuntime, Later, StoredResult, SubmitInput } from './host-types.js';
import type { LeaseLike, Logger } from './store.js';
import { REWIND, REWOUND, rewindSchema, stateAt, type RewoundEvent } from './timeline.js';
import type { HiddenGone } from './unseen.js';

type Result = { ok: true; version: number; events: RewoundEvent[] } | { ok: false; error: WireError };

/** What a rewind needs of its host (EncounterHost). */
export interface RewindHost {
  readonly id: string;
  readonly state: EncounterState;
  readonly branch: number;
  readonly ruleset: Ruleset;
  readonly lease: LeaseLike;
  readonly logger: Logger;
  readonly runtime: HostRuntime;
  readonly memory: CommandMemory;
  /** a background snapshot still being written (the rewind waits for it before it drops the newer snapshots) */
  settleSnapshots(): Promise<void>;
  adoptBranch(state: EncounterState, hiddenGone: HiddenGone, event: RewoundEvent, commandId: string): void;
  snapshot(): Promise<void>;
}

/** The rewind command in the host's queue: a refusal is remembered as any command's, a failed append answered as any command's. */
export async function rewindCommand(h: RewindHost, input: SubmitInput, sender: string): Promise<StoredResult | Later> {
  const r = await rewind(h, input).catch((e: unknown) => appendFailed(e, h.id, input.commandId, sender, h.memory, h.runtime, h.logger));
  return r.ok ? r : h.memory.refuse(input, r);
}

function refusal(code: string, message: string): Result {
  return { ok: false, error: { code, rule: REWIND, message } };
}

/**
 * Validate, rebuild the state at the version from the log, drop the snapshots after it, log the
 * marker, then adopt the state (every viewer gets it at once). An append that fails throws: the
 * host treats it as it treats any command's failed append.
 */
async function rewind(h: RewindHost, input: { commandId: string; command: Record<string, unknown>; by: Actor }): Promise<Result> {
  if (input.by.role !== 'gm') return refusal('NOT_AUTHORIZED', 'Only the GM can rewind the encounter.');
  const parsed = rewindSchema.safeParse({ ...input.command, by: input.by });
  if (!parsed.success)
    return refusal(
      'INVALID_COMMAND',
      `timeline.rewind needs { toVersion: a whole number ≥ 0 }: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    );
  const to = parsed.data.toVersion;
  const from = h.state.version;
  if (to >= from)
    return refusal('UNKNOWN_VERSION', `There is no earlier version ${to} to go back to: the encounter is at version ${from}.`);
  const store = h.runtime.store;
  if (!store.deleteSnapshotsAfter) return refusal('UNAVAILABLE', 'This store keeps no timeline.');
  const at = await stateAt(store, h.ruleset, h.id, to, h.branch);
  if ('error' in at) return { ok: false, error: at.error };
  await h.settleSnapshots();
  // the newer snapshots are the branch being left: a load after the marker must not start from them
  await store.deleteSnapshotsAfter(h.id, to);
  const branch = h.branch + 1;
  const event: RewoundEvent = { type: REWOUND, fromBranch: h.branch, fromVersion: from, toVersion: to, branch };
  await h.runtime.writer.append(
    {
      encounterId: h.id,
      seq: to,
      branch,
      commandId: input.commandId,
      command: { ...input.command, by: input.by },
      events: [event],
      summary: { status: at.state.status, round: at.state.clock.round },
    },
    h.lease.token,
  );
  h.adoptBranch(at.state, at.hiddenGone, event, input.commandId);
  await h.snapshot();
  return { ok: true, version: to, events: [event] };
}
