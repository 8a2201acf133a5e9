import { conformance } from '@fray/conformance';
import { registry } from '../../src/index.js';
import { fightFromSamples } from './fixture.js';

const actionRound = registry['action-round']!;
conformance(actionRound, {
  combatants: fightFromSamples(actionRound, [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
    { x: 2, y: 0 },
    { x: 5, y: 5 },
  ]),
  canaryPositions: [
    { x: 6, y: 6 },
    { x: 3, y: 1 },
  ],
});
