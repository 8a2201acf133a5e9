import { conformance } from '@fray/conformance';
import { registry } from '../../src/index.js';
import { fightFromSamples } from './fixture.js';

const ocvPhases = registry['ocv-phases']!;
conformance(ocvPhases, {
  combatants: fightFromSamples(ocvPhases, [
    { q: 0, r: 0 },
    { q: 1, r: 0 },
    { q: 2, r: 0 },
    { q: 4, r: 2 },
  ]),
  canaryPositions: [
    { q: 5, r: 3 },
    { q: 3, r: 1 },
  ],
});
