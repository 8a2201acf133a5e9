import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Ruleset } from '@fray/engine';
import { fieldsOf, notJson, optionProblems, ruleIdPattern, statProblems } from '../src/index.js';

describe('the pure checks', () => {
  it('notJson finds what a JSON round trip would change', () => {
    expect(notJson({ a: 1, b: [1, 'x', null], c: { d: true }, e: undefined })).toEqual([]);
    expect(notJson({ a: Number.NaN })).toEqual(['$.a is NaN']);
    expect(notJson({ a: [undefined] })).toEqual(['$.a[0] is undefined']);
    expect(notJson({ m: new Map() })).toEqual(['$.m is not a plain object']);
    expect(notJson({ z: -0 })).toEqual(['$.z is 0']);
  });

  it('a rule id is <ruleset>.<rule> or engine.<rule>', () => {
    const p = ruleIdPattern('action-round');
    expect(p.test('action-round.one-standard')).toBe(true);
    expect(p.test('engine.reactions')).toBe(true);
    expect(p.test('legends.movement')).toBe(false);
    expect(p.test('action-round')).toBe(false);
    expect(p.test('')).toBe(false);
  });

  it('options need a default and a doc each; stats a doc each', () => {
    const base = {
      id: 't',
      optionsSchema: z.object({ a: z.number().default(1), b: z.string().optional() }),
      optionDocs: { a: 'A.', c: 'C.' },
      statsSchema: z.object({ hp: z.number(), ac: z.number() }),
      statDocs: { hp: 'HP.' },
    };
    const r = base as unknown as Ruleset;
    expect(fieldsOf(base.optionsSchema)).toEqual(['a', 'b']);
    expect(optionProblems(r)).toEqual([
      'option b has no default',
      'option b has no doc in optionDocs',
      'optionDocs documents c, which is no option',
    ]);
    expect(statProblems(r)).toEqual(['stat ac has no doc in statDocs']);
  });
});
