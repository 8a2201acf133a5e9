import { conformance } from '@fray/conformance';
import { registry } from '../../src/index.js';
import { fightFromSamples } from './fixture.js';

const legends = registry.legends!;
conformance(legends, {
  combatants: fightFromSamples(legends, [{ zone: 'a' }, { zone: 'a' }, { zone: 'a' }, { zone: 'b' }]),
  canaryPositions: [{ zone: 'b' }, { zone: 'b' }],
});
