import { describe, expect, it } from 'vitest';
import { DATA_KEYS, copyData, type Data } from '../../src/action-points/index.js';
import { copiesLikeASpread } from '../copy.js';
import { encounter } from './helpers.js';

// Engine plumbing, not a rule: the copy-on-write path copies a combatant's data with the ruleset's own
// copy function, which must give exactly what a spread gives.
describe('action-points copyData', () => {
  const s = encounter([
    { id: 'a', side: 'x', at: { x: 0, y: 0 } },
    { id: 'b', side: 'y', at: { x: 1, y: 0 } },
  ]);
  const d = s.combatants.a!.data as Data;

  it('DATA_KEYS are the keys initCombatant gives, in its order', () => {
    expect(Object.keys(d)).toEqual(DATA_KEYS);
  });

  copiesLikeASpread(d, copyData, 'hp');
});
