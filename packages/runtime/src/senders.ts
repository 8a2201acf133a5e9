import type { Actor } from '@fray/engine';
import type { WireError } from '@fray/protocol';

/**
 * "A `commandId` belongs to its sender" (issue 29): who sent a command, as the idempotency check
 * compares it. The GM (every GM socket of the encounter's account), each player (by player id, on
 * any of its sockets) and the runtime itself (`system`: deadlines) are each one sender.
 */
export function senderOf(by: Actor | { role?: unknown; playerId?: unknown } | null | undefined): string {
  if (!by || typeof by !== 'object') return '?';
  if (by.role === 'player') return `player:${String('playerId' in by ? by.playerId : undefined)}`;
  return String(by.role);
}

/** The sender of a logged command (its `by`). */
export function senderOfLogged(command: unknown): string {
  return senderOf(
    typeof command === 'object' && command !== null && 'by' in command && typeof command.by === 'object' ? command.by : undefined,
  );
}

/** Command ids the runtime gives its own (deadline) commands: no client may take one. */
export const SYSTEM_ID_PREFIX = 'deadline:';

/** The refusal of a command whose id another sender already used in this encounter. */
export function commandIdTaken(commandId: string): { ok: false; error: WireError } {
  return {
    ok: false,
    error: {
      code: 'COMMAND_ID_TAKEN',
      message: `The command id "${commandId}" is already used in this encounter by another sender; the command was not applied. Send it again with a new command id.`,
    },
  };
}
