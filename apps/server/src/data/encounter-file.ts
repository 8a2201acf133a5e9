import { createRequire } from 'node:module';
import { z } from 'zod';
import {
  apply,
  inEngineOrder,
  publicDice,
  withoutGeneratorState,
  rebuild,
  type EncounterState,
  type EngineEvent,
  type Ruleset,
} from '@fray/engine';
import { frayVersion, type EncounterBundle } from '@fray/store';
import { ApiError } from '../errors.js';
import { stateHash } from './verify.js';

/**
 * The encounter file (`GET /encounters/:id/export`, `POST /encounters/import`): one encounter's
 * options, first snapshot, whole command log and newest state, as JSON. Never its invites or any
 * token. The receiving server replays the log onto the first snapshot and must reach exactly the
 * exported version and state hash, or the import is refused. An account file holds its
 * encounters' files.
 */

export const ENCOUNTER_FORMAT = 'fray-encounter';
export const ACCOUNT_FORMAT = 'fray-account' as const;
export const ENCOUNTER_FORMAT_VERSION = 1;

const require = createRequire(import.meta.url);
const packageJson = z.object({ version: z.string() });
let rulesetsVersionCache: string | undefined;
/** The version of the rulesets package this server runs (the rules that made an encounter). */
export function rulesetsVersion(): string {
  rulesetsVersionCache ??= (() => {
    try {
      return packageJson.parse(require('@fray/rulesets/package.json')).version;
    } catch {
      return frayVersion();
    }
  })();
  return rulesetsVersionCache;
}

const logEntry = z.object({
  seq: z.number().int().positive(),
  commandId: z.string().min(1).max(200),
  command: z.unknown(),
  events: z.array(z.unknown()),
  at: z.string().datetime({ offset: true }),
});

const statusSchema = z.enum(['setup', 'active', 'ended', 'archived']);

export const encounterFile = z.object({
  format: z.literal(ENCOUNTER_FORMAT),
  formatVersion: z.number().int().min(1),
  fray: z.string(),
  ruleset: z.object({ id: z.string().min(1).max(64), version: z.string() }),
  exportedAt: z.string(),
  encounter: z.object({
    id: z.string().min(1).max(64),
    name: z.string().max(200),
    options: z.unknown(),
    seed: z.number().int(),
    status: statusSchema,
    round: z.number().int().min(0),
    version: z.number().int().min(0),
    createdAt: z.string().datetime({ offset: true }),
  }),
  initial: z.object({ version: z.literal(0), state: z.record(z.string(), z.unknown()) }),
  state: z.object({
    version: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    turnTimerSeconds: z.number().nullable(),
  }),
  log: z.array(logEntry),
});
export type EncounterFile = z.infer<typeof encounterFile>;

export const accountFile = z.object({
  format: z.literal(ACCOUNT_FORMAT),
  formatVersion: z.number().int().min(1),
  fray: z.string(),
  exportedAt: z.string(),
  account: z.object({ name: z.string().nullable(), createdAt: z.string() }),
  encounters: z.array(z.unknown()),
});

interface Wrapper {
  fraySnapshot: 1;
  state: EncounterState;
  runtime?: { turnTimerSeconds?: number | null };
}
const isWrapper = (x: unknown): x is Wrapper => typeof x === 'object' && x !== null && 'fraySnapshot' in x && x.fraySnapshot === 1;
/** A stored or exported state: an object with the engine's version and ruleset (the replay checks the rest). */
const isState = (x: unknown): x is EncounterState =>
  typeof x === 'object' && x !== null && 'version' in x && typeof x.version === 'number' && 'ruleset' in x && typeof x.ruleset === 'string';
const isEventList = (x: unknown): x is EngineEvent[] =>
  Array.isArray(x) && x.every((e) => typeof e === 'object' && e !== null && 'type' in e && typeof e.type === 'string');
function unwrap(x: unknown): EncounterState {
  const state = isWrapper(x) ? x.state : x;
  if (!isState(state)) throw new ApiError('EXPORT_TAMPERED', 'The first snapshot is not an encounter as created.', 422);
  return inEngineOrder(state);
}

/** Replays `log` onto `initial` as a server resumes (the command, or its events if the rules moved). */
export function replayLog(
  ruleset: Ruleset,
  initial: EncounterState,
  log: ReadonlyArray<{ seq: number; command: unknown; events: unknown }>,
): EncounterState {
  let state = initial;
  for (const e of log) {
    if (e.seq !== state.version + 1) throw new ApiError('EXPORT_TAMPERED', `The log skips from version ${state.version} to ${e.seq}.`, 422);
    const r = apply(ruleset, state, e.command);
    state = r.ok && r.state.version === e.seq ? r.state : rebuild(ruleset, state, [isEventList(e.events) ? e.events : []]);
    if (state.version !== e.seq) throw new ApiError('EXPORT_TAMPERED', `The log's entry ${e.seq} does not rebuild version ${e.seq}.`, 422);
  }
  return state;
}

/** The file of one encounter read whole from the database (its state rebuilt to hash it). */
export function toEncounterFile(bundle: EncounterBundle, ruleset: Ruleset): EncounterFile {
  const initial = unwrap(bundle.initial.state);
  const state = replayLog(ruleset, initial, bundle.log);
  const latest = bundle.latest.state;
  const r = bundle.record;
  // committed dice not yet revealed: the file carries neither their secret nor the generator's state (docs/dice.md)
  const withheld = initial.dice?.secret !== undefined && !state.dice?.revealed;
  const shown = withheld && initial.dice ? { ...initial, dice: publicDice(initial.dice) } : initial;
  return {
    format: ENCOUNTER_FORMAT,
    formatVersion: ENCOUNTER_FORMAT_VERSION,
    fray: frayVersion(),
    ruleset: { id: r.ruleset, version: rulesetsVersion() },
    exportedAt: new Date().toISOString(),
    encounter: {
      id: r.id,
      name: r.name,
      options: r.options,
      seed: r.seed,
      status: statusSchema.parse(r.status),
      round: r.round,
      version: state.version,
      createdAt: r.createdAt.toISOString(),
    },
    initial: { version: 0, state: { ...shown } },
    state: {
      version: state.version,
      sha256: stateHash(state),
      turnTimerSeconds: isWrapper(latest) ? (latest.runtime?.turnTimerSeconds ?? null) : null,
    },
    log: bundle.log.map((e) => {
      const events = Array.isArray(e.events) ? e.events : [];
      return {
        seq: e.seq,
        commandId: e.commandId,
        command: e.command,
        events: withheld ? withoutGeneratorState(events) : events,
        at: e.createdAt.toISOString(),
      };
    }),
  };
}

const fileHead = z.looseObject({ format: z.unknown(), formatVersion: z.unknown(), fray: z.unknown() });

function checkFormat(raw: unknown, expected: string): void {
  const head = fileHead.safeParse(raw).data;
  if (!head || head.format !== expected) {
    throw new ApiError(
      'EXPORT_UNREADABLE',
      `This is not a Fray ${expected === ENCOUNTER_FORMAT ? 'encounter' : 'account'} export (no "format": "${expected}").`,
      400,
    );
  }
  if (typeof head.formatVersion === 'number' && head.formatVersion > ENCOUNTER_FORMAT_VERSION) {
    throw new ApiError(
      'EXPORT_FROM_NEWER_FRAY',
      `This file is format ${head.formatVersion}, made by Fray ${String(head.fray)}; this server (Fray ${frayVersion()}) reads format ${ENCOUNTER_FORMAT_VERSION} and older. Upgrade this server, then import.`,
      422,
    );
  }
}

/**
 * Checks an encounter file and turns it into what the store writes, under `newId` for `accountId`.
 * Refuses (typed) an unreadable or newer file, a ruleset this server lacks, and a log that does
 * not rebuild the exported version and state hash.
 */
export function fromEncounterFile(raw: unknown, rulesets: Record<string, Ruleset>, accountId: string, newId: string): EncounterBundle {
  checkFormat(raw, ENCOUNTER_FORMAT);
  const parsed = encounterFile.safeParse(raw);
  if (!parsed.success)
    throw new ApiError('EXPORT_UNREADABLE', `The encounter file is incomplete or malformed: ${z.prettifyError(parsed.error)}`, 400);
  const f = parsed.data;
  const ruleset = rulesets[f.ruleset.id];
  if (!ruleset) {
    throw new ApiError(
      'UNKNOWN_RULESET',
      `The encounter uses the ruleset "${f.ruleset.id}", which this server does not have (it has ${Object.keys(rulesets).join(', ')}).`,
      422,
    );
  }
  const initial = unwrap(f.initial.state);
  if (initial.version !== 0 || initial.ruleset !== ruleset.id)
    throw new ApiError('EXPORT_TAMPERED', 'The first snapshot is not an encounter as created.', 422);
  if (initial.dice && initial.dice.secret === undefined) {
    throw new ApiError(
      'DICE_NOT_REVEALED',
      'This file was exported before its committed dice were revealed, so it carries no dice secret and cannot be replayed: end the combat (or reveal the dice) and export it again.',
      422,
    );
  }
  let state: EncounterState;
  try {
    state = replayLog(ruleset, initial, f.log);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError('EXPORT_TAMPERED', `The log does not replay: ${e instanceof Error ? e.message : String(e)}`, 422);
  }
  if (state.version !== f.state.version || stateHash(state) !== f.state.sha256) {
    throw new ApiError(
      'EXPORT_TAMPERED',
      `Replaying the log gives version ${state.version} with another state than the exported version ${f.state.version}: the file was changed or damaged.`,
      422,
    );
  }
  const renamed = (s: EncounterState): EncounterState => inEngineOrder({ ...s, id: newId });
  const latest =
    f.state.turnTimerSeconds === null
      ? renamed(state)
      : { fraySnapshot: 1, state: renamed(state), runtime: { turnTimerSeconds: f.state.turnTimerSeconds } };
  const now = new Date();
  return {
    record: {
      id: newId,
      accountId,
      name: f.encounter.name,
      ruleset: ruleset.id,
      options: f.encounter.options,
      seed: f.encounter.seed,
      status: f.encounter.status,
      round: f.encounter.round,
      version: state.version,
      createdAt: new Date(f.encounter.createdAt),
      updatedAt: now,
    },
    initial: { version: 0, state: renamed(initial) },
    latest: { version: state.version, state: latest },
    log: f.log.map((e) => ({ seq: e.seq, commandId: e.commandId, command: e.command, events: e.events, createdAt: new Date(e.at) })),
  };
}

/** The encounter files inside an account file (each checked by fromEncounterFile). */
export function encountersOfAccountFile(raw: unknown): unknown[] {
  checkFormat(raw, ACCOUNT_FORMAT);
  const parsed = accountFile.safeParse(raw);
  if (!parsed.success)
    throw new ApiError('EXPORT_UNREADABLE', `The account file is incomplete or malformed: ${z.prettifyError(parsed.error)}`, 400);
  return parsed.data.encounters;
}
