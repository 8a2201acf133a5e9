import { apply, createEncounter } from '@fray/engine';
import { describe, expect, it } from 'vitest';
import { SCRIPT_COMMANDS, buildScript, fights, rulesets } from '../src/fights.js';

const gm = { role: 'gm' } as const;

describe('the scripted fights', () => {
  // the e2e bench gives every encounter a script this long: a fight that ended sooner would leave
  // its encounters idle in the later phases
  for (const ruleset of Object.keys(fights)) {
    it(`${ruleset}: ${SCRIPT_COMMANDS} legal commands, the fight still on, the state not growing along it`, () => {
      const fight = fights[ruleset]!;
      const R = rulesets[ruleset]!;
      let s = createEncounter(R, { id: 'x', name: 'bench', seed: 1, options: fight.options });
      for (const c of [...fight.setup, { type: 'combat.start' }]) {
        const r = apply(R, s, { ...c, by: gm });
        if (!r.ok) throw new Error(r.error.message);
        s = r.state;
      }
      const script = buildScript(ruleset, s, () => -1, SCRIPT_COMMANDS, 1000);
      expect(script.steps).toHaveLength(SCRIPT_COMMANDS);
      // every command of the script is legal from the state before it, as the GM sends it here
      let t = s;
      for (const step of script.steps) {
        const r = apply(R, t, { ...step.command, by: gm });
        expect(r.ok).toBe(true);
        if (r.ok) t = r.state;
      }
      expect(t.status).toBe('active');
      const [first, ...rest] = script.stateBytes;
      expect(Math.max(...rest)).toBeLessThan(first! * 1.2);
    });
  }
});
