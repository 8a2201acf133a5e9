/**
 * Shared checks for rulesets that run on the engine's copy-on-write path (`Ruleset.cow`): the same
 * command stream through the copy-on-write path and through the mutative draft path (the same
 * ruleset with `cow: false`) gives byte-identical results; the input state (deep-frozen here) is
 * never written; unchanged parts of the state keep their identity.
 */
import { apply, legalActions, rebuild, type ActionOption, type EncounterState, type EngineEvent, type Ruleset } from '@fray/engine';
import { expect } from 'vitest';

const gm = { role: 'gm' } as const;

export function deepFreeze<T>(v: T, seen = new Set<object>()): T {
  if (typeof v !== 'object' || v === null || seen.has(v)) return v;
  seen.add(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k], seen);
  return Object.freeze(v);
}

/** A command from the legal options (parameters picked with `pick`), or a GM command now and then. */
export function randomCommand(
  R: Ruleset,
  s: EncounterState,
  pick: (n: number) => number,
  extra: (s: EncounterState, pick: (n: number) => number) => Record<string, unknown>[],
): Record<string, unknown> {
  const ids = Object.keys(s.combatants);
  if (pick(8) === 0) {
    const c = ids[pick(ids.length)] ?? 'none';
    const cmds: Record<string, unknown>[] = [
      { type: 'turn.end', by: gm, combatantId: s.clock.current ?? c },
      { type: 'dice.roll', by: gm, formula: '2d6', purpose: 'test' },
      { type: 'dice.force', by: gm, total: 1 + pick(12) },
      {
        type: 'effect.apply',
        by: gm,
        targetId: c,
        name: 'cond',
        condition: ['stunned', 'prone', 'deafened', 'pinned'][pick(4)],
        duration: { unit: 'round', count: 1 + pick(2) },
      },
      { type: 'effect.remove', by: gm, effectId: s.effects[pick(Math.max(1, s.effects.length))]?.id ?? 'none' },
      { type: 'combatant.remove', by: gm, combatantId: c },
      { type: 'combatant.update', by: gm, combatantId: c, changes: { name: `renamed ${pick(9)}` } },
      { type: 'combatant.update', by: gm, combatantId: c, changes: { hidden: pick(2) === 0 } },
      { type: 'dice.override', by: gm, rollId: s.rolls[s.rolls.length - 1]?.id ?? 'none', total: 1 + pick(12) },
      { type: 'reaction.pass', by: gm, combatantId: s.reaction?.eligible[0] ?? c },
      { type: 'reaction.resolve', by: gm },
      ...extra(s, pick),
    ];
    return cmds[pick(cmds.length)]!;
  }
  const options: ActionOption[] = [];
  for (const id of ids) for (const o of legalActions(R, s, id)) if (o.allowed) options.push(o);
  for (let tries = 0; tries < 4 && options.length > 0; tries++) {
    const o = options[pick(options.length)]!;
    const cmd: Record<string, unknown> = { type: o.command, by: gm, ...(o.template ?? {}) };
    let ok = true;
    for (const p of o.params ?? []) {
      if (p.optional && pick(2) === 0) continue;
      const list = (p.options ?? []).map((x) => (typeof x === 'object' ? x.value : x));
      if (list.length > 0) cmd[p.name] = p.kind === 'list' ? [list[pick(list.length)]] : list[pick(list.length)];
      else if (p.kind === 'number') cmd[p.name] = p.min ?? 1;
      else if (p.kind === 'boolean') cmd[p.name] = pick(2) === 0;
      else if (p.kind === 'list' || p.kind === 'path') cmd[p.name] = [];
      else if (!p.optional) ok = false;
    }
    if (ok) return cmd;
  }
  const x = extra(s, pick);
  return x.length > 0 ? x[pick(x.length)]! : { type: 'turn.end', by: gm, combatantId: s.clock.current ?? ids[0] };
}

/**
 * A result as JSON text. The draft path can hand out an event holding a draft that is revoked when
 * the command ends (reading it throws): such a field is left out of both results' text.
 */
function resultText(r: ReturnType<typeof apply>, draft: ReturnType<typeof apply>): string {
  try {
    JSON.stringify(draft);
    return JSON.stringify(r);
  } catch {
    if (!r.ok || !draft.ok) return JSON.stringify(r);
    const events = r.events.map((e, i) => {
      const d = draft.events[i] as Record<string, unknown> | undefined;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(e)) {
        try {
          JSON.stringify(d?.[k]);
          out[k] = e[k];
        } catch {
          out[k] = '<revoked in the draft path>';
        }
      }
      return out;
    });
    return JSON.stringify({ ok: true, state: r.state, events });
  }
}

/** Part paths whose JSON did not change between two states but whose object did (identity lost). */
function lostSharing(before: EncounterState, after: EncounterState): string[] {
  const out: string[] = [];
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const k of Object.keys(a)) {
    if (k === 'version' || k === 'combatants') continue;
    if (typeof a[k] === 'object' && a[k] !== null && a[k] !== b[k] && JSON.stringify(a[k]) === JSON.stringify(b[k])) out.push(k);
  }
  for (const id of Object.keys(after.combatants)) {
    const x = after.combatants[id];
    const y = before.combatants[id];
    if (y && x !== y && JSON.stringify(x) === JSON.stringify(y)) out.push(`combatants.${id}`);
  }
  return out;
}

/**
 * Plays `steps` commands from `start` through both paths. Returns how many were accepted, and the
 * parts (unchanged JSON) that the draft path kept by identity and the copy-on-write path did not.
 */
export function compareStream(
  R: Ruleset,
  start: EncounterState,
  choices: number[],
  extra: (s: EncounterState, pick: (n: number) => number) => Record<string, unknown>[] = () => [],
): { accepted: number; lost: string[] } {
  const D = { ...R, cow: false } as Ruleset;
  let i = 0;
  const pick = (n: number) => (n <= 1 ? 0 : (choices[i++ % choices.length]! >>> 0) % n);
  let state = deepFreeze(start);
  const initial = state;
  const batches: EngineEvent[][] = [];
  let accepted = 0;
  const lost: string[] = [];
  for (let step = 0; step < choices.length; step++) {
    const cmd = randomCommand(R, state, pick, extra);
    const before = JSON.stringify(state);
    const viaCow = apply(R, state, cmd);
    const viaDraft = apply(D, state, cmd);
    const a = resultText(viaCow, viaDraft);
    const b = resultText(viaDraft, viaDraft);
    if (a !== b) {
      let at = 0;
      while (a[at] === b[at]) at++;
      expect(a.slice(Math.max(0, at - 300), at + 200), `${JSON.stringify(cmd)} (copy-on-write, then draft)`).toBe(
        b.slice(Math.max(0, at - 300), at + 200),
      );
    }
    expect(JSON.stringify(state)).toBe(before);
    if (!viaCow.ok) continue;
    accepted++;
    // every unchanged part the draft path keeps by identity, the copy-on-write path keeps too
    const drafted = new Set(lostSharing(state, (viaDraft as { state: EncounterState }).state));
    lost.push(...lostSharing(state, viaCow.state).filter((k) => !drafted.has(k)));
    batches.push(viaCow.events);
    state = deepFreeze(viaCow.state);
  }
  // events rebuild the same state on both paths
  const rebuilt = rebuild(R, initial, batches);
  expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(state));
  // (the draft path's rebuild changes event objects in place, and these are shared with the frozen
  // states: it gets them as the runtime does, parsed from their JSON)
  expect(JSON.stringify(rebuild(D, initial, JSON.parse(JSON.stringify(batches)) as EngineEvent[][]))).toBe(JSON.stringify(state));
  return { accepted, lost };
}
