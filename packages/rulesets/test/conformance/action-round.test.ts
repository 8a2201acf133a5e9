import { conformance } from '@fray/conformance';
import { registry } from '../../src/index.js';
import { fightFromSamples } from './fixture.js';

const actionRound = registry['action-round']!;
conformance(actionRound, { combatants: fightFromSamples(actionRound, [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 5, y: 5 }]), canaryPositions: [{ x: 6, y: 6 }, { x: 3, y: 1 }] }, {
  knownDefects: {
    // legal.ts blocks stand/delay off-turn with action-round.turns but apply refuses with action-round.stand / action-round.delay;
    // "Take readied action" is blocked by action-round.readied but refused by action-round.ready; the surge options
    // (boost, resistance, alternate-effect) are allowed with every parameter optional, yet refused without one
    legal: 'blocked rule differs from the refusal (stand, delay, readied) and surge options allowed but refused',
  },
});
