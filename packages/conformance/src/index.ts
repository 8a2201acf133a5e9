import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ruleset } from '@fray/engine';
import {
  invariantProblems,
  jsonProblems,
  legalProblems,
  projectionProblems,
  rebuildProblems,
  replayProblems,
  ruleIdProblems,
} from './checks.js';
import { optionProblems, sampleProblems, statProblems } from './docs.js';
import { play } from './stream.js';
import type { ConformanceFixture, Run } from './types.js';

export type { ConformanceFixture, FixtureCombatant } from './types.js';
export { defaultFill, play } from './stream.js';
export * from './checks.js';
export * from './docs.js';

/** The properties `conformance` declares, by name (the keys of `ConformanceOptions.knownDefects`). */
export const PROPERTIES = [
  'replay',
  'rebuild',
  'json',
  'legal',
  'rule-ids',
  'projection',
  'invariants',
  'options',
  'stats',
  'samples',
] as const;
export type PropertyName = (typeof PROPERTIES)[number];

export interface ConformanceOptions {
  /**
   * Properties the ruleset is known to break, each with the defect in words: the test is declared
   * with `it.fails` (it fails the suite the day the defect is fixed, so the entry goes).
   */
  knownDefects?: Partial<Record<PropertyName, string>>;
}

interface Sample {
  seed: number;
  picks: number[];
  run: Run;
}

/** The sampled runs, made once per suite: seeded, so that a failure names a case that replays. */
function sampler(ruleset: Ruleset, fixture: ConformanceFixture): () => Sample[] {
  let samples: Sample[] | null = null;
  return () => {
    if (samples) return samples;
    const arb = fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.array(fc.nat(), { minLength: 1, maxLength: fixture.steps ?? 30 }));
    const cases = fc.sample(arb, { numRuns: fixture.numRuns ?? 12, seed: fixture.seed ?? 35 });
    samples = cases.map(([seed, picks]) => ({ seed, picks, run: play(ruleset, fixture, seed, picks) }));
    return samples;
  };
}

/** The problems a property finds over the samples, each tagged with the case that shows it. */
function over(samples: Sample[], check: (s: Sample) => string[]): string[] {
  const out: string[] = [];
  for (const s of samples) {
    for (const p of check(s)) out.push(`${p} [seed ${s.seed}, picks ${JSON.stringify(s.picks)}]`);
    if (out.length >= 8) break;
  }
  return out;
}

/**
 * Declare the conformance tests of a ruleset (vitest): one line in its test file,
 * `conformance(myRuleset, fixture)`. See docs/rulesets/authoring.md ("Conformance").
 */
export function conformance(ruleset: Ruleset, fixture: ConformanceFixture, opts: ConformanceOptions = {}): void {
  const samples = sampler(ruleset, fixture);
  const every = 3;
  const props: Record<PropertyName, { title: string; check: () => string[] }> = {
    replay: {
      title: 'the same seed and commands give the same state and events; replaying the log gives the live state',
      check: () => over(samples(), (s) => replayProblems(ruleset, fixture, s.seed, s.picks, s.run)),
    },
    rebuild: {
      title: 'the state rebuilt from the events equals the live state',
      check: () => over(samples(), (s) => rebuildProblems(ruleset, s.run)),
    },
    json: {
      title: 'states and events are plain JSON and a state read back from JSON goes on the same',
      check: () => over(samples(), (s) => jsonProblems(ruleset, s.run, every)),
    },
    legal: {
      title: 'legalActions agrees with apply: allowed is accepted, blocked is refused with the same rule',
      check: () => over(samples(), (s) => legalProblems(ruleset, fixture, s.run, every)),
    },
    'rule-ids': {
      title: 'every refusal carries a rule id (<ruleset>.<rule> or engine.<rule>)',
      check: () => over(samples(), (s) => ruleIdProblems(ruleset, s.run)),
    },
    projection: {
      title: 'players and spectators see no hidden combatant, secret stat or GM-only field',
      check: () => over(samples(), (s) => projectionProblems(ruleset, s.run, every)),
    },
    invariants: {
      title: 'the invariants hold after every accepted command',
      check: () => over(samples(), (s) => invariantProblems(s.run)),
    },
    options: { title: 'every option has a default and a doc', check: () => optionProblems(ruleset) },
    stats: { title: 'every stat has a doc', check: () => statProblems(ruleset) },
    samples: { title: 'every sample stat block passes the stats schema', check: () => sampleProblems(ruleset) },
  };
  describe(`conformance: ${ruleset.id}`, () => {
    for (const name of PROPERTIES) {
      const { title, check } = props[name];
      const defect = opts.knownDefects?.[name];
      const test = () => expect(check()).toEqual([]);
      if (defect) it.fails(`${name}: ${title} (known defect: ${defect})`, test, 120_000);
      else it(`${name}: ${title}`, test, 120_000);
    }
  });
}
