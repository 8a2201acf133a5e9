/**
 * One command through an encounter's queue (EncounterHost.submit): the checks that refuse it (a
 * retried id, a closed or archived encounter, a stale branch or version, what a player cannot
 * see), the engine, then its log entry appended with the lease's fencing token before the host
 * takes the new state (`committed`) and anyone is told.
 */
import { apply, type EncounterState, type EngineEvent } from '@fray/engine';
import { appendFailed } from './acks.js';
import type { Later, StoredResult, SubmitInput } from './host-types.js';
import { rewindCommand, type RewindHost } from './rewind.js';
import { SYSTEM_ID_PREFIX, commandIdTaken, senderOf } from './senders.js';
import { REWIND, staleBranch, type RewoundEvent } from './timeline.js';
import { refusalAsIfUnseenAbsent, refusalFor } from './unseen.js';

/** What a command needs of its host (EncounterHost). */
export interface CommandHost extends RewindHost {
  readonly closed: boolean;
  readonly archived: boolean;
  /** the rewind that started the live branch, when this process made it (for STALE_BRANCH) */
  readonly lastRewind: (RewoundEvent & { commandId: string }) | null;
  /** the entry is in the log: the host takes the new state and tells its viewers */
  committed(
    commandId: string,
    command: Record<string, unknown>,
    prev: EncounterState,
    next: EncounterState,
    events: EngineEvent[],
  ): StoredResult;
}

export async function processCommand(host: CommandHost, input: SubmitInput): Promise<StoredResult | Later> {
  const sender = senderOf(input.by);
  if (sender !== 'system' && input.commandId.startsWith(SYSTEM_ID_PREFIX)) return commandIdTaken(input.commandId);
  const again = host.memory.answerAgain(input.commandId, sender);
  if (again) return again;
  if (host.closed) return { ok: false, error: { code: 'UNAVAILABLE', message: 'The encounter is being moved; join again.' } };
  if (host.archived) return { ok: false, error: { code: 'ENCOUNTER_ARCHIVED', message: 'The encounter is archived.' } };
  if (input.branch !== undefined && input.branch !== host.branch) {
    return host.memory.refuse(input, { ok: false, error: staleBranch(input.branch, host.branch, host.lastRewind) });
  }
  if (input.command.type === REWIND) return rewindCommand(host, input, sender);
  if (input.expectedVersion !== undefined && input.expectedVersion !== host.state.version) {
    return host.memory.refuse(input, {
      ok: false,
      error: {
        code: 'STALE_VERSION',
        message: `Expected version ${input.expectedVersion}, but the encounter is at ${host.state.version}.`,
      },
    });
  }
  const state = host.state;
  const command: Record<string, unknown> = { ...input.command, by: input.by };
  const unseen = input.by.role === 'player' ? refusalAsIfUnseenAbsent(host.ruleset, state, command, input.by) : null;
  if (unseen) return host.memory.refuse(input, { ok: false, error: refusalFor(unseen, state, input.by, command) });
  let result;
  try {
    result = apply(host.ruleset, state, command);
  } catch (e) {
    host.logger.error({ err: String(e), commandId: input.commandId, type: command.type }, 'engine threw');
    return { ok: false, error: { code: 'INTERNAL', message: 'The rules engine failed on this command.' } };
  }
  if (!result.ok) {
    const error = refusalFor({ code: result.error.code, message: result.error.message, rule: result.error.rule }, state, input.by, command);
    return host.memory.refuse(input, { ok: false, error });
  }
  const next = result.state;
  try {
    await host.runtime.writer.append(
      {
        encounterId: host.id,
        seq: next.version,
        ...(host.branch > 0 ? { branch: host.branch } : {}),
        commandId: input.commandId,
        command,
        events: result.events,
        // the GM's list (status, round) changes with the entry that changes it, in its commit
        ...(next.status !== state.status || next.clock.round !== state.clock.round
          ? { summary: { status: next.status, round: next.clock.round } }
          : {}),
      },
      host.lease.token,
    );
  } catch (e) {
    return appendFailed(e, host.id, input.commandId, sender, host.memory, host.runtime, host.logger);
  }
  return host.committed(input.commandId, command, state, next, result.events);
}
