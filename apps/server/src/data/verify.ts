import { createHash } from 'node:crypto';
import type { Ruleset } from '@fray/engine';
import { Runtime } from '@fray/runtime';
import { allEncounters } from '@fray/store';
import type { ServerStore } from '../store.js';

/** A state's fingerprint: sha256 of its JSON (the engine's key order is part of the state). */
export const stateHash = (state: unknown): string => createHash('sha256').update(JSON.stringify(state)).digest('hex');

export interface EncounterCheck {
  id: string;
  version: number;
  hash: string;
}

/**
 * Every encounter of a database resumed as a server would (latest snapshot + the log after it,
 * through the engine), without taking its lease: its version and the hash of its state.
 */
export async function resumeAll(store: ServerStore, rulesets: Record<string, Ruleset>): Promise<EncounterCheck[]> {
  const runtime = new Runtime({ store, rulesets });
  try {
    const out: EncounterCheck[] = [];
    for (const { id } of await allEncounters(store)) {
      const read = await runtime.readState(id);
      if (!read) throw new Error(`Encounter ${id} vanished while it was checked.`);
      out.push({ id, version: read.state.version, hash: stateHash(read.state) });
    }
    return out;
  } finally {
    await runtime.shutdown();
  }
}

/** What differs between two databases' encounters (empty: every one resumes alike). */
export function compareChecks(source: EncounterCheck[], target: EncounterCheck[]): string[] {
  const byId = new Map(target.map((c) => [c.id, c]));
  const problems: string[] = [];
  for (const s of source) {
    const t = byId.get(s.id);
    if (!t) problems.push(`encounter ${s.id} is missing`);
    else if (t.version !== s.version) problems.push(`encounter ${s.id} resumes at version ${t.version}, not ${s.version}`);
    else if (t.hash !== s.hash) problems.push(`encounter ${s.id} resumes at version ${s.version} with a different state`);
    byId.delete(s.id);
  }
  for (const id of byId.keys()) problems.push(`encounter ${id} was not in the source`);
  return problems;
}
