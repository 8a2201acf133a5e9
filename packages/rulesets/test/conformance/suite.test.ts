import { describe, expect, it } from 'vitest';
import { legalProblems, play, projectionProblems, rebuildProblems, type ConformanceFixture } from '@fray/conformance';
import type { Ruleset } from '@fray/engine';
import { registry } from '../../src/index.js';
import { fightFromSamples } from './fixture.js';

// The suite must fail a ruleset that breaks a property: freeform, broken on purpose three ways.
const freeform = registry.freeform!;
const fixture: ConformanceFixture = {
  combatants: fightFromSamples(freeform, []),
  fill: (_s, id, o) => ({
    ...(o.template ?? {}),
    combatantId: id,
    ...(o.command === 'act' ? { description: 'x' } : {}),
    ...(o.command === 'vital' ? { vital: 'hp', amount: -1 } : {}),
  }),
};
const picks = Array.from({ length: 40 }, (_, i) => i * 7919 + 3);

describe('the conformance suite finds broken rulesets', () => {
  it('legal actions that allow what apply refuses, or block with another rule', () => {
    const lying: Ruleset = {
      ...freeform,
      legalActions: (s, id) =>
        freeform.legalActions(s, id).map((o) => (o.command === 'turn.end' ? { ...o, allowed: true, blocked: undefined } : o)),
    };
    const run = play(lying, fixture, 1, picks);
    expect(
      legalProblems(lying, fixture, run, 1).some((p) => p.includes('"End turn" (turn.end) is allowed but refused: freeform.turns')),
    ).toBe(true);
    const wrongRule: Ruleset = {
      ...freeform,
      legalActions: (s, id) =>
        freeform.legalActions(s, id).map((o) => (o.blocked ? { ...o, blocked: { ...o.blocked, rule: 'freeform.general' } } : o)),
    };
    expect(
      legalProblems(wrongRule, fixture, play(wrongRule, fixture, 1, picks), 1).some((p) =>
        p.includes('is blocked by freeform.general but refused by'),
      ),
    ).toBe(true);
    expect(legalProblems(freeform, fixture, play(freeform, fixture, 1, picks), 1)).toEqual([]);
  });

  it('a clean ruleset shows players and spectators no hidden combatant (the engine scrubs what a projection names)', () => {
    expect(projectionProblems(freeform, play(freeform, fixture, 2, picks), 1)).toEqual([]);
  });

  it('an evolve that the events alone do not rebuild', () => {
    let calls = 0;
    // an evolve with a memory of its own: replaying the events gives another state
    const drifting: Ruleset = {
      ...freeform,
      evolve: (d, e, w) => (e.type === 'freeform.turn-started' ? ((d.rs.turns += calls++), true) : freeform.evolve(d, e, w)),
    };
    const run = play(drifting, fixture, 3, picks);
    expect(rebuildProblems(drifting, run)).not.toEqual([]);
  });
});
