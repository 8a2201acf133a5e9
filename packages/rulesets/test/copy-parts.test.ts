import { describe, expect, it } from 'vitest';
import { createEncounter, type Ruleset } from '@fray/engine';
import { actionPoints } from '../src/action-points/index.js';
import { actionRound } from '../src/action-round/index.js';
import { legends } from '../src/legends/index.js';
import { copyData as legendsCopyData } from '../src/legends/events/index.js';
import { ocvPhases } from '../src/ocv-phases/index.js';
import { copyData as ocvCopyData } from '../src/ocv-phases/state/index.js';
import { started } from './legends/helpers.js';
import { encounter } from './ocv-phases/helpers.js';

// Engine plumbing, not rules: the copy-on-write path copies `rs` (Ruleset.copyRs) and combatant data
// (Writer.own's copy) with the rulesets' own functions, which must give exactly what a spread gives.
type Obj = Record<string, unknown>;
function expectPlainCopy(copy: (v: Obj) => Obj, v: Obj): void {
  const c = copy(v);
  expect(c).not.toBe(v);
  expect(Object.keys(c)).toEqual(Object.keys(v));
  for (const k of Object.keys(v)) expect(c[k]).toBe(v[k]);
  // another key, or another order: still what a spread gives
  const odd = { ...v, extra: 1 };
  expect(Object.keys(copy(odd))).toEqual(Object.keys(odd));
  expect(copy(odd).extra).toBe(1);
  const [first, ...rest] = Object.keys(v);
  const reordered = Object.fromEntries([...rest, first!].map((k) => [k, v[k]]));
  expect(Object.keys(copy(reordered))).toEqual(Object.keys(reordered));
}

describe('rulesets copy their parts as a spread would', () => {
  for (const R of [legends, ocvPhases, actionRound, actionPoints] as unknown as Ruleset[]) {
    it(`${R.id}: copyRs`, () => {
      const rs = createEncounter(R, { id: 'e', seed: 1 }).rs as Obj;
      expect(R.copyRs).toBeTypeOf('function');
      expectPlainCopy(R.copyRs as (v: Obj) => Obj, rs);
    });
  }

  it('legends: copyData', () => {
    const t = started([
      { id: 'a1', side: 'a' },
      { id: 'b1', side: 'b' },
    ]);
    expectPlainCopy(legendsCopyData as unknown as (v: Obj) => Obj, t.state.combatants.a1!.data as unknown as Obj);
  });

  it('ocv-phases: copyData', () => {
    const { s } = encounter([
      { id: 'a', side: 'x', cv: 5 },
      { id: 'b', side: 'y', cv: 5 },
    ]);
    expectPlainCopy(ocvCopyData as unknown as (v: Obj) => Obj, s.combatants.a!.data as unknown as Obj);
  });
});
