import { describe, expect, it } from 'vitest';
import { projectState, type EncounterState, type Ruleset, type Viewer } from '@fray/engine';
import { actionPoints } from '../src/action-points/index.js';
import { actionRound } from '../src/action-round/index.js';
import { legends } from '../src/legends/index.js';
import { ocvPhases } from '../src/ocv-phases/index.js';
import { encounter as apEncounter } from './action-points/helpers.js';
import { setup as arSetup } from './action-round/helpers.js';
import { started } from './legends/helpers.js';
import { encounter as ocvEncounter } from './ocv-phases/helpers.js';

// Engine plumbing for "a client never receives data it may not see": each ruleset's projection
// narrows its part of the state for players and spectators, and shares every part it did not narrow
// (the same object: the diff skips it, and nothing is made anew per command).
const spectator: Viewer = { role: 'spectator' };
const fights: Array<[Ruleset, () => EncounterState]> = [
  [
    legends as unknown as Ruleset,
    () =>
      started([
        { id: 'a1', side: 'a' },
        { id: 'b1', side: 'b' },
      ]).state as unknown as EncounterState,
  ],
  [
    ocvPhases as unknown as Ruleset,
    () =>
      ocvEncounter([
        { id: 'a1', side: 'a', cv: 5 },
        { id: 'b1', side: 'b', cv: 4 },
      ]).s as unknown as EncounterState,
  ],
  [
    actionRound as unknown as Ruleset,
    () =>
      arSetup([
        { id: 'a1', side: 'a' },
        { id: 'b1', side: 'b' },
      ]).s as unknown as EncounterState,
  ],
  [
    actionPoints as unknown as Ruleset,
    () =>
      apEncounter([
        { id: 'a1', side: 'a' },
        { id: 'b1', side: 'b' },
      ]) as unknown as EncounterState,
  ],
];

describe('rulesets project their part of the state sharing what they do not narrow', () => {
  for (const [R, fight] of fights) {
    it(`${R.id}: nothing hidden, the ruleset part is the state's own object; a hidden combatant, a narrowed copy`, () => {
      const s = fight();
      expect(Object.keys(s.combatants).length).toBe(2);
      expect(R.projectState!(s.rs, spectator, s)).toBe(s.rs);
      expect(projectState(R, s, spectator).rs).toBe(s.rs);
      // hide b1: its entries leave the spectator's view of the ruleset part, the GM keeps them
      const hidden = { ...s, combatants: { ...s.combatants, b1: { ...s.combatants.b1!, hidden: true } } } as EncounterState;
      const view = R.projectState!(hidden.rs, spectator, hidden);
      expect(R.projectState!(hidden.rs, { role: 'gm' }, hidden)).toBe(hidden.rs);
      const text = JSON.stringify(view);
      const full = JSON.stringify(hidden.rs);
      if (full.includes('"b1"')) {
        expect(view).not.toBe(hidden.rs);
        expect(text).not.toContain('"b1"');
      } else expect(view).toBe(hidden.rs);
      // the parts the hiding did not touch are still shared
      for (const k of Object.keys(hidden.rs as object)) {
        const part = (hidden.rs as Record<string, unknown>)[k];
        if (typeof part === 'object' && part !== null && !JSON.stringify(part).includes('"b1"'))
          expect((view as Record<string, unknown>)[k], k).toBe(part);
      }
    });
  }
});
