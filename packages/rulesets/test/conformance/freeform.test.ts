import { conformance, defaultFill } from '@fray/conformance';
import { registry } from '../../src/index.js';
import { fightFromSamples } from './fixture.js';

const freeform = registry.freeform!;
conformance(freeform, {
  options: { vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] },
  combatants: fightFromSamples(freeform, []),
  fill(state, id, option, pick) {
    const cmd = defaultFill(state, id, option, pick);
    if (!cmd) return null;
    if (option.command === 'act') return { ...cmd, description: 'swings a sword', roll: pick % 2 ? '1d20+3' : undefined };
    if (option.command === 'vital') return { ...cmd, amount: pick % 3 === 0 ? 2 : -3 };
    return cmd;
  },
  extra: (state, pick) => {
    const ids = Object.keys(state.combatants);
    const id = ids[pick % ids.length]!;
    const gm = { role: 'gm' } as const;
    const tools = [
      {
        type: 'effect.apply',
        by: gm,
        targetId: id,
        name: 'Stunned',
        condition: 'stunned',
        duration: { unit: pick % 2 ? 'turns' : 'rounds', count: 1 + (pick % 3) },
      },
      { type: 'combatant.adjust', by: gm, combatantId: id, vital: 'hp', amount: 1 + (pick % 5) },
      { type: 'initiative.set', by: gm, combatantId: id, value: pick % 20 },
      { type: 'act', by: gm, combatantId: id, kind: 'other', description: 'the GM acts out of turn' },
    ];
    return tools[pick % tools.length]!;
  },
});
