/**
 * The GM's timeline (docs/timeline.md): the state at any version of a branch, rebuilt exactly from
 * the log (the oldest snapshot, then each entry's events through the engine's `rebuild`), and the
 * `timeline.rewind` command that continues the encounter on a new branch from such a state.
 */
import { rebuild, type EncounterState, type Ruleset } from '@fray/engine';
import { isEvents, unwrapSnapshot } from './snapshots.js';
import type { WireError } from '@fray/protocol';
import { z } from 'zod';
import type { LogEntryLike, RuntimeStore } from './store.js';
import { noteHiddenRemovals, type HiddenGone } from './unseen.js';

export const REWIND = 'timeline.rewind';
export const REWOUND = 'timeline.rewound';

export const rewindSchema = z.object({ type: z.literal(REWIND), toVersion: z.number().int().min(0), by: z.unknown() }).strict();

/** The event a rewind logs: where the encounter was, and the branch it goes on with. */
export type RewoundEvent = {
  type: typeof REWOUND;
  fromBranch: number;
  fromVersion: number;
  toVersion: number;
  branch: number;
};

export interface StateAt {
  state: EncounterState;
  hiddenGone: HiddenGone;
  turnTimerSeconds: number | null;
  /** the branch's log up to the version (for a caller that continues from it) */
  entries: LogEntryLike[];
}

/**
 * The state of an encounter at `version` on `branch` (default: the live one), or an UNKNOWN_VERSION
 * error when the branch never had that version (before the encounter's first snapshot, or after
 * the branch's newest entry).
 */
export async function stateAt(
  store: RuntimeStore,
  ruleset: Ruleset,
  encounterId: string,
  version: number,
  branch?: number,
): Promise<StateAt | { error: WireError }> {
  if (!store.firstSnapshot) return { error: { code: 'UNAVAILABLE', message: 'This store keeps no timeline.' } };
  const first = await store.firstSnapshot(encounterId);
  if (!first) return { error: { code: 'NOT_FOUND', message: `No encounter "${encounterId}".` } };
  const start = unwrapSnapshot(first.state);
  if (version < start.state.version) return unknownVersion(version, `the encounter's first version is ${start.state.version}`);
  const entries = (await store.readLog(encounterId, start.state.version, undefined, branch)).filter((e) => e.seq <= version);
  let state = start.state;
  for (const e of entries) {
    if (e.seq !== state.version + 1) throw new Error(`Log gap at ${state.version + 1} (found ${e.seq}).`);
    noteHiddenRemovals(start.hiddenGone, state, e.events);
    if (!isEvents(e.events)) throw new Error(`Log entry ${e.seq} holds no events.`);
    state = rebuild(ruleset, state, [e.events]);
  }
  if (state.version !== version)
    return unknownVersion(version, `the ${branch === undefined ? 'encounter' : `branch ${branch}`} is at version ${state.version}`);
  return { state, hiddenGone: start.hiddenGone, turnTimerSeconds: start.turnTimerSeconds, entries };
}

function unknownVersion(version: number, why: string): { error: WireError } {
  return { error: { code: 'UNKNOWN_VERSION', rule: REWIND, message: `There is no version ${version} to go back to: ${why}.` } };
}

/** The refusal of a command made on a branch a rewind left. */
export function staleBranch(sent: number, live: number, rewind: (RewoundEvent & { commandId: string }) | null): WireError {
  const how =
    rewind && rewind.branch === live
      ? `the GM rewound the encounter from version ${rewind.fromVersion} to version ${rewind.toVersion} (command "${rewind.commandId}")`
      : `the encounter was rewound`;
  return {
    code: 'STALE_BRANCH',
    rule: REWIND,
    message: `This command was made on branch ${sent}, but ${how}; it goes on as branch ${live}. Look again and resend.`,
  };
}
