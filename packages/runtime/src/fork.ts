/**
 * Fork (docs/timeline.md): a new encounter whose state equals another's at a version of its live
 * branch (rebuilt from the log), with the same ruleset, options and combatants. Its log starts
 * after that version; its first snapshot is that state under the new id.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { newDiceState, type EncounterState } from '@fray/engine';
import type { WireError } from '@fray/protocol';
import type { EncounterRecordLike } from './store.js';
import type { Runtime } from './runtime.js';
import { stateAt } from './timeline.js';

export async function forkEncounter(
  runtime: Runtime,
  source: EncounterRecordLike,
  version: number,
  input: { accountId: string; name?: string; id?: string },
): Promise<EncounterRecordLike | { error: WireError }> {
  const ruleset = runtime.ruleset(source.ruleset);
  if (!ruleset) return { error: { code: 'UNAVAILABLE', message: `This server does not know the ruleset "${source.ruleset}".` } };
  const at = await stateAt(runtime.store, ruleset, source.id, version);
  if ('error' in at) return { error: { ...at.error, rule: 'timeline.fork' } };
  const id = input.id ?? `enc_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const name = input.name ?? `${source.name} (from version ${version})`;
  const state = { ...withFreshDice(at.state), id, name };
  return runtime.store.createEncounter(
    {
      id,
      accountId: input.accountId,
      name,
      ruleset: source.ruleset,
      options: state.options,
      seed: source.seed,
      status: state.status,
      round: state.clock.round,
      version,
    },
    { fraySnapshot: 1, state, runtime: { turnTimerSeconds: at.turnTimerSeconds, hiddenGone: at.hiddenGone } },
  );
}

/**
 * Committed dice are never carried into a fork (docs/dice.md, "A fork"): the fork would roll what
 * the original rolls next (a preview of the original's dice) and its reveal would publish the
 * original's seed. It gets a secret of its own from node:crypto, a new commitment, contributions
 * open again, sealed at its first roll (or at combat start when forked in setup). Dice without a
 * commitment (a chosen seed) keep the generator's state: the fork rolls what the original would have.
 */
function withFreshDice(state: EncounterState): EncounterState {
  if (!state.dice) return state;
  const dice = {
    ...newDiceState({ seed: randomBytes(32).toString('hex'), salt: randomBytes(16).toString('hex') }),
    autoReveal: state.dice.autoReveal,
  };
  return { ...state, rng: [], dice };
}
