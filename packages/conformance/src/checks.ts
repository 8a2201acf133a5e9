import {
  apply,
  legalActions,
  projectEvents,
  projectState,
  rebuild,
  replay,
  type EncounterState,
  type Ruleset,
  type Viewer,
} from '@fray/engine';
import { commandOf, play } from './stream.js';
import type { ConformanceFixture, Run } from './types.js';

/**
 * The properties, each a pure function that lists what is wrong (empty: the ruleset conforms).
 * `conformance()` runs them as tests; the suite's own tests run them on broken rulesets.
 */

const json = (v: unknown) => JSON.stringify(v);

/** The same seed and commands give the same states and events; replaying the accepted log gives the same state. */
export function replayProblems(ruleset: Ruleset, fixture: ConformanceFixture, seed: number, picks: readonly number[], run: Run): string[] {
  const again = play(ruleset, fixture, seed, picks);
  const out: string[] = [];
  if (json(again.batches) !== json(run.batches)) out.push('the same seed and commands gave different events');
  if (json(again.final) !== json(run.final)) out.push('the same seed and commands gave a different state');
  const replayed = replay(ruleset, run.initial, run.log);
  if (json(replayed) !== json(run.final)) out.push('replaying the accepted commands gave a different state');
  return out;
}

/** Applying the events alone, batch by batch, gives the live state. */
export function rebuildProblems(ruleset: Ruleset, run: Run): string[] {
  const rebuilt = rebuild(ruleset, run.initial, run.batches);
  return json(rebuilt) === json(run.final) ? [] : ['the state rebuilt from the events differs from the live state'];
}

/** Where a value is not plain JSON (it would change through a JSON round trip). */
export function notJson(value: unknown, path = '$', out: string[] = []): string[] {
  if (out.length >= 5) return out;
  const t = typeof value;
  if (value === null || t === 'string' || t === 'boolean') return out;
  if (t === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) out.push(`${path} is ${String(value)}`);
    return out;
  }
  if (t !== 'object') {
    out.push(`${path} is a ${t}`);
    return out;
  }
  if (Array.isArray(value)) {
    value.forEach((x, i) => (x === undefined ? out.push(`${path}[${i}] is undefined`) : notJson(x, `${path}[${i}]`, out)));
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    out.push(`${path} is not a plain object`);
    return out;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) notJson(v, `${path}.${k}`, out);
  return out;
}

/** States and events are plain JSON, and a state read back from JSON goes on exactly as the live one. */
export function jsonProblems(ruleset: Ruleset, run: Run, every: number): string[] {
  const out: string[] = [];
  run.states.forEach((s, i) => {
    if (i % every !== 0) return;
    for (const p of notJson(s, 'state')) out.push(`after command ${i}: ${p}`);
    for (const p of notJson(run.batches[i], 'events')) out.push(`command ${i}: ${p}`);
    const next = run.log[i + 1];
    if (next === undefined) return;
    const live = apply(ruleset, s, next);
    const fromJson = apply(ruleset, JSON.parse(json(s)) as EncounterState, next);
    if (json(live) !== json(fromJson)) out.push(`command ${i + 1} gave another result on the state read back from JSON`);
  });
  return out;
}

/** A rule id: `<ruleset>.<rule>` or `engine.<rule>`. */
export function ruleIdPattern(rulesetId: string): RegExp {
  const id = rulesetId.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  return new RegExp(`^(${id}|engine)\\.[A-Za-z0-9][A-Za-z0-9.:-]*$`);
}

/** Every refusal met names a rule id. */
export function ruleIdProblems(ruleset: Ruleset, run: Run): string[] {
  const pattern = ruleIdPattern(ruleset.id);
  return run.refusals
    .filter((r) => !pattern.test(r.rule))
    .map((r) => `refusal without a rule id ("${r.rule}", ${r.code}) for ${json(r.command)}`);
}

/** The combatants whose actions are checked in a state: the acting or reacting ones, and one other. */
function checkedIn(state: EncounterState, pick: number): string[] {
  const ids = Object.keys(state.combatants);
  const w = state.reaction;
  const out = new Set<string>();
  if (state.clock.current) out.add(state.clock.current);
  for (const id of w?.eligible ?? []) if (w?.responses[id] === 'pending') out.add(id);
  if (ids.length) out.add(ids[pick % ids.length]!);
  return [...out];
}

/** What `legalActions` allows is accepted; what it blocks is refused with the rule it gave. */
export function legalProblems(ruleset: Ruleset, fixture: ConformanceFixture, run: Run, every: number): string[] {
  const out: string[] = [];
  const pattern = ruleIdPattern(ruleset.id);
  run.states.forEach((s, i) => {
    if (i % every !== 0 || s.status !== 'active') return;
    for (const id of checkedIn(s, i)) {
      legalActions(ruleset, s, id).forEach((option, k) => {
        const where = `after command ${i}, ${id}'s "${option.label}" (${option.command})`;
        if (!option.allowed && !option.blocked) return void out.push(`${where} is not allowed and gives no reason`);
        if (option.blocked && !pattern.test(option.blocked.rule))
          out.push(`${where} is blocked without a rule id ("${option.blocked.rule}")`);
        // with the default fill, only options without required parameters: a guessed target or number says nothing of the rules
        if (!fixture.fill && (option.params ?? []).some((p) => !p.optional && !(p.name in (option.template ?? {})))) return;
        const cmd = commandOf(fixture, s, id, option, i + k);
        if (!cmd) return;
        const r = apply(ruleset, s, cmd);
        // the schema is checked before any rule: a blocked option whose filled command fails it says nothing of the rule
        if (!option.allowed && !r.ok && r.error.code === 'INVALID_COMMAND' && r.error.rule === `${ruleset.id}.${option.command}`) return;
        if (option.allowed && !r.ok) out.push(`${where} is allowed but refused: ${r.error.rule}: ${r.error.message} (${json(cmd)})`);
        if (!option.allowed && r.ok) out.push(`${where} is blocked by ${option.blocked?.rule} but accepted (${json(cmd)})`);
        if (!option.allowed && !r.ok && option.blocked && r.error.rule !== option.blocked.rule) {
          out.push(`${where} is blocked by ${option.blocked.rule} but refused by ${r.error.rule}: ${r.error.message}`);
        }
      });
    }
  });
  return out;
}

function leaks(ruleset: Ruleset, state: EncounterState, viewer: Viewer, events: readonly unknown[] | undefined): string[] {
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const view = projectState(ruleset, state, viewer);
  const out: string[] = [];
  const unseen = Object.values(state.combatants).filter((c) => c.hidden && c.controller !== playerId);
  const text = json(view);
  const evText = events ? json(projectEvents(events as never, viewer, state, view, ruleset)) : '';
  for (const c of unseen) {
    if (view.combatants[c.id]) out.push(`the hidden ${c.id} is among the combatants`);
    for (const marker of [json(c.id), json(c.name)]) {
      if (text.includes(marker)) out.push(`the state names the hidden ${marker}`);
      if (evText.includes(marker)) out.push(`the events name the hidden ${marker}`);
    }
  }
  for (const c of Object.values(view.combatants)) {
    if (c.controller === playerId && playerId !== null) continue;
    const shown = c.secretStats.filter((k) => Object.hasOwn(c.stats as object, k));
    if (shown.length) out.push(`the secret stats ${shown.join(', ')} of ${c.id} are shown`);
  }
  if (view.rolls.some((r) => r.gmOnly)) out.push('a GM-only roll is shown');
  if (view.effects.some((e) => e.gmOnly)) out.push('a GM-only effect is shown');
  if (view.rng.length || view.forcedRolls.length) out.push('the dice state is shown');
  if (evText.includes('"gmOnly":true')) out.push('a GM-only event is shown');
  return out;
}

/** Players and spectators never see a hidden combatant, a secret stat or a GM-only field, in the state or the events. */
export function projectionProblems(ruleset: Ruleset, run: Run, every: number): string[] {
  const players = [...new Set(Object.values(run.final.combatants).flatMap((c) => (c.controller ? [c.controller] : [])))];
  const viewers: Viewer[] = [{ role: 'spectator' }, ...players.map((playerId): Viewer => ({ role: 'player', playerId }))];
  const out = new Set<string>();
  run.states.forEach((s, i) => {
    if (i % every !== 0 && i !== run.states.length - 1) return;
    for (const v of viewers)
      for (const p of leaks(ruleset, s, v, run.batches[i])) out.add(`${v.role === 'player' ? `player ${v.playerId}` : 'spectator'}: ${p}`);
  });
  return [...out];
}

/** The invariants held after every accepted command. */
export function invariantProblems(run: Run): string[] {
  return run.broken.slice(0, 10);
}
