/**
 * The client's contribution to committed dice (docs/dice.md): 32 bytes from the platform's secure
 * source (crypto.getRandomValues), sent as `dice.contribute` while the dice are still open.
 */
import { z } from 'zod';
import type { CommandAck } from '@fray/protocol';

/** What the contribution needs of a mirror (an EncounterMirror fits). */
export interface ContributingMirror {
  state: unknown;
  readonly role: string;
  readonly playerId: string | null;
  command(command: { type: string; [k: string]: unknown }): Promise<CommandAck>;
}

const withDice = z.looseObject({
  dice: z.looseObject({ sealed: z.boolean(), contributions: z.array(z.looseObject({ by: z.string() })) }).nullish(),
});

/** 32 random bytes as lowercase hex, from crypto.getRandomValues. */
export function randomContribution(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** Whether this viewer may still contribute: committed dice, not sealed, not yet contributed by it. */
export function mayContribute(mirror: ContributingMirror): boolean {
  const parsed = withDice.safeParse(mirror.state);
  const dice = parsed.success ? parsed.data.dice : null;
  if (!dice || dice.sealed) return false;
  const me = mirror.role === 'gm' ? 'gm' : mirror.role === 'player' && mirror.playerId ? `player:${mirror.playerId}` : null;
  return me !== null && !dice.contributions.some((c) => c.by === me);
}

/** Send this viewer's contribution if it may; null when it may not (nothing sent). */
export async function contributeDice(mirror: ContributingMirror): Promise<CommandAck | null> {
  if (!mayContribute(mirror)) return null;
  return mirror.command({ type: 'dice.contribute', value: randomContribution() });
}
