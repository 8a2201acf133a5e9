import { describe, expect, it } from 'vitest';
import { apply, createEncounter, type RulesetDisplay } from '@fray/engine';
import { registry } from '../src/index.js';

/** What the web's forms read from `display`: duration units, named conditions, common actions. */
describe('each ruleset gives its forms their choices', () => {
  for (const [id, r] of Object.entries(registry)) {
    const d = r.display as RulesetDisplay;

    it(`${id}: every duration unit it offers makes an effect that ends (none lasts until removed by mistake)`, () => {
      const units = Object.keys(d.effects?.units ?? {});
      expect(units.length).toBeGreaterThan(0);
      let s = createEncounter(r, { id: 'e1', name: 'test', seed: 32 });
      const added = apply(r, s, {
        type: 'combatant.add',
        by: { role: 'gm' },
        combatant: { id: 'aria', name: 'Aria', side: 'pcs', stats: d.samples?.[0]?.stats ?? {} },
      });
      if (!added.ok) throw new Error(added.error.message);
      s = added.state;
      for (const unit of units) {
        const res = apply(r, s, { type: 'effect.apply', by: { role: 'gm' }, targetId: 'aria', name: 'x', duration: { unit, count: 2 } });
        if (!res.ok) throw new Error(res.error.message);
        const fx = Object.values(res.state.effects).find((e) => e.duration?.unit === unit);
        expect([unit, fx?.expires ?? null]).not.toEqual([unit, null]);
      }
    });

    it(`${id}: its common actions and named kinds are actions it has`, () => {
      const ids = new Set(r.catalogue.flatMap((e) => [e.id, e.kind]));
      for (const a of d.actions?.common ?? []) expect([a, ids.has(a)]).toEqual([a, true]);
    });
  }
});
