import { apply, createEncounter, legalActions, type ActionOption, type EncounterState, type ParamSpec, type Ruleset } from '@fray/engine';
import { actorFor, type ConformanceFixture, type FixtureCombatant, type Run } from './types.js';

const GM = { role: 'gm' } as const;

/** The planted hidden combatant and the one with a secret stat: their ids and names must never reach a player. */
export const CANARY = {
  hiddenId: 'zz-canary-hidden',
  hiddenName: 'Canary Hidden Qx7',
  secretId: 'zz-canary-secret',
  secretName: 'Canary Secret',
} as const;

/** The fixture's combatants and the two canaries, as `combatant.add` commands. */
export function setupCommands(fixture: ConformanceFixture): Record<string, unknown>[] {
  const first = fixture.combatants[0];
  if (!first || fixture.combatants.length < 2) throw new Error('A conformance fixture needs at least two combatants.');
  const stats = fixture.canaryStats ?? first.stats;
  const secret = fixture.secretStat ?? Object.keys(stats)[0];
  const npcSide = fixture.combatants.find((c) => c.side !== first.side)?.side ?? first.side;
  const at = (i: 0 | 1) => (fixture.canaryPositions ? { position: fixture.canaryPositions[i] } : {});
  const canaries: FixtureCombatant[] = [
    {
      id: CANARY.hiddenId,
      name: CANARY.hiddenName,
      side: npcSide,
      controller: null,
      hidden: true,
      stats,
      items: first.items ?? [],
      ...at(0),
    },
    {
      id: CANARY.secretId,
      name: CANARY.secretName,
      side: npcSide,
      controller: null,
      secretStats: secret ? [secret] : [],
      stats,
      items: first.items ?? [],
      ...at(1),
    },
  ];
  return [...fixture.combatants, ...canaries].map((combatant) => ({ type: 'combatant.add', by: GM, combatant }));
}

function firstValue(spec: ParamSpec, pick: number): unknown {
  const list = spec.options ?? [];
  if (list.length === 0) return undefined;
  const o = list[pick % list.length]!;
  return typeof o === 'object' ? o.value : o;
}

function paramValue(state: EncounterState, combatantId: string, spec: ParamSpec, pick: number): unknown {
  const listed = firstValue(spec, pick);
  if (listed !== undefined) return spec.kind === 'list' ? [listed] : listed;
  const me = state.combatants[combatantId];
  switch (spec.kind) {
    case 'combatant': {
      const others = Object.values(state.combatants).filter((c) => c.side !== me?.side);
      return others.length ? others[pick % others.length]!.id : undefined;
    }
    case 'number':
      return spec.min ?? 1;
    case 'text':
      return 'conformance';
    case 'boolean':
      return pick % 2 === 0;
    case 'item':
      return me?.items[0]?.id;
    case 'list':
      return [];
    default:
      return undefined;
  }
}

/**
 * The default `fill`: the option's template and a plausible value for each parameter (see
 * `ConformanceFixture.fill`); null when a required one has none.
 */
export function defaultFill(
  state: EncounterState,
  combatantId: string,
  option: ActionOption,
  pick: number,
): Record<string, unknown> | null {
  const cmd: Record<string, unknown> = { ...(option.template ?? {}) };
  for (const spec of option.params ?? []) {
    if (spec.name in cmd) continue;
    const v = paramValue(state, combatantId, spec, pick);
    if (v === undefined) {
      if (spec.optional) continue;
      return null;
    }
    cmd[spec.name] = v;
  }
  return cmd;
}

/** The command an option stands for, as its combatant's controller (or the GM) sends it. */
export function commandOf(
  fixture: ConformanceFixture,
  state: EncounterState,
  combatantId: string,
  option: ActionOption,
  pick: number,
): Record<string, unknown> | null {
  const filled = (fixture.fill ?? defaultFill)(state, combatantId, option, pick);
  if (!filled) return null;
  return { combatantId, ...filled, type: option.command, by: actorFor(state, combatantId) };
}

/** Who acts now: the one a reaction waits for, else the current combatant, sometimes another. */
function actorOf(state: EncounterState, pick: number): string | null {
  const w = state.reaction;
  const pending = w?.eligible.find((id) => w.responses[id] === 'pending');
  if (pending) return pending;
  const ids = Object.keys(state.combatants);
  if (pick % 7 === 3 || !state.clock.current) return ids.length ? ids[pick % ids.length]! : null;
  return state.clock.current;
}

const JUNK: Array<Record<string, unknown>> = [
  { type: 'no-such-command', by: GM },
  { type: 'turn.end', by: GM, combatantId: 'nobody' },
  { type: 'combatant.adjust', by: GM, combatantId: 'nobody', vital: 'x', amount: 1 },
  { type: 'combat.start', by: GM },
];

/** The next command of a sampled stream, legal or not (an illegal one must change nothing). */
export function nextCommand(
  ruleset: Ruleset,
  fixture: ConformanceFixture,
  state: EncounterState,
  pick: number,
): Record<string, unknown> | null {
  const roll = pick % 10;
  if (roll === 0) return JUNK[Math.floor(pick / 10) % JUNK.length]!;
  if (roll === 1 && fixture.extra) return fixture.extra(state, Math.floor(pick / 10));
  const who = actorOf(state, Math.floor(pick / 10));
  if (!who) return null;
  if (roll === 2) return { type: 'turn.end', by: actorFor(state, who), combatantId: who };
  const options = legalActions(ruleset, state, who);
  const allowed = options.filter((o) => o.allowed);
  const pool = allowed.length && roll !== 9 ? allowed : options;
  if (pool.length === 0) return { type: 'turn.end', by: actorFor(state, who), combatantId: who };
  return commandOf(fixture, state, who, pool[Math.floor(pick / 100) % pool.length]!, Math.floor(pick / 1000));
}

/** Set up the fixture's fight with a seed and play the picks; every command is checked as it goes. */
export function play(ruleset: Ruleset, fixture: ConformanceFixture, seed: number, picks: readonly number[]): Run {
  const initial = createEncounter(ruleset, { id: 'conformance', seed, ...(fixture.options ? { options: fixture.options } : {}) });
  const run: Run = { initial, log: [], batches: [], states: [], refusals: [], broken: [], final: initial };
  const send = (command: unknown) => {
    const r = apply(ruleset, run.final, command);
    if (!r.ok) {
      run.refusals.push({ command, rule: r.error.rule, code: r.error.code });
      return false;
    }
    run.log.push(command);
    run.batches.push(r.events);
    run.states.push(r.state);
    run.final = r.state;
    for (const b of ruleset.invariants?.(r.state) ?? []) run.broken.push(`${b} after ${JSON.stringify(command)}`);
    return true;
  };
  for (const cmd of setupCommands(fixture))
    if (!send(cmd)) throw new Error(`Fixture setup refused: ${JSON.stringify(cmd)} → ${JSON.stringify(run.refusals.at(-1))}`);
  for (const cmd of fixture.setup?.(run.final) ?? []) send(cmd);
  if (!send({ type: 'combat.start', by: GM })) throw new Error(`combat.start refused: ${JSON.stringify(run.refusals.at(-1))}`);
  for (const pick of picks) {
    if (run.final.status === 'ended') break;
    const cmd = nextCommand(ruleset, fixture, run.final, pick);
    if (cmd) send(cmd);
  }
  return run;
}
