/**
 * Fork (docs/timeline.md): a new encounter whose state equals another's at a version of its live
 * branch (rebuilt from the log), with the same ruleset, options and combatants. Its log starts
 * after that version; its first snapshot is that state under the new id.
 */
import { randomUUID } from 'node:crypto';
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
  const state = { ...at.state, id, name };
  return runtime.store.createEncounter(
    { id, accountId: input.accountId, name, ruleset: source.ruleset, options: state.options, seed: source.seed, status: state.status, round: state.clock.round, version },
    { fraySnapshot: 1, state, runtime: { turnTimerSeconds: at.turnTimerSeconds, hiddenGone: at.hiddenGone } },
  );
}
