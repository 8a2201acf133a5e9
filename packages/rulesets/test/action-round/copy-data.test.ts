import { describe, expect, it } from 'vitest';
import { copyData } from '../../src/action-round/state/index.js';
import { copiesLikeASpread } from '../copy.js';
import { setup } from './helpers.js';

// Engine plumbing, not a rule: the copy-on-write path copies a combatant's data with the ruleset's own
// copy function, which must give exactly what a spread gives.
describe('action-round copyData', () => {
  const { s } = setup([
    { id: 'a', side: 'x', at: [0, 0] },
    { id: 'b', side: 'y', at: [1, 0] },
  ]);
  const d = s.combatants.a!.data;

  it('has the 40 keys initCombatant gives', () => {
    expect(Object.keys(copyData(d))).toHaveLength(40);
  });

  copiesLikeASpread(d, copyData, 'slots');
});
