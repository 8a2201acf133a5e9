import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { apply, commandsOf, createEncounter, type Ruleset, type RulesetDisplay } from '@fray/engine';
import { registry } from '../src/index.js';

type Js = {
  properties?: Record<string, Js>;
  items?: Js | boolean;
  prefixItems?: Js[];
  additionalProperties?: Js | boolean;
  anyOf?: Js[];
  type?: unknown;
};

/** The JSON Schema at a form hint's path (`stats.powers.id`, `commands.defineZone.zone.neighbors`), as GET /rulesets publishes it. */
function schemaAt(r: Ruleset, path: string): Js | undefined {
  const [root, ...rest] = path.split('.');
  const zod =
    root === 'stats'
      ? r.statsSchema
      : root === 'options'
        ? r.optionsSchema
        : root === 'position'
          ? z.object({ position: r.positionSchema })
          : root === 'commands'
            ? commandsOf(r)[rest.shift()!]?.schema
            : undefined;
  if (!zod) return undefined;
  let s: Js | undefined = z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any' }) as Js;
  if (root === 'position') rest.unshift('position');
  for (const k of rest) {
    // an entry of a pair or tuple (`opposing.0`)
    if (/^\d+$/.test(k) && s?.prefixItems) {
      s = s.prefixItems[Number(k)];
      continue;
    }
    // through a nullable, a list's entries and a map's values to the object that has the field
    for (let i = 0; i < 3 && s && !s.properties?.[k]; i++)
      s =
        s.anyOf?.find((b) => b.type !== 'null') ??
        (typeof s.items === 'object' ? s.items : undefined) ??
        (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    s = s?.properties?.[k];
  }
  return s;
}

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

    it(`${id}: each form hint is about a field it has, and a new zone is made by a command it has`, () => {
      const hints = Object.keys(d.forms?.fields ?? {});
      expect(hints.filter((h) => !schemaAt(r, h))).toEqual([]);
      const nz = d.forms?.newZone;
      if (nz) expect(schemaAt(r, `commands.${nz.command}.${nz.field}.name`)).toBeDefined();
      // a hint that picks an action picks one of the catalogue
      if (JSON.stringify(d.forms ?? {}).includes('"action"')) expect(r.catalogue.length).toBeGreaterThan(0);
    });

    it(`${id}: its common actions and named kinds are actions it has`, () => {
      const ids = new Set(r.catalogue.flatMap((e) => [e.id, e.kind]));
      for (const a of d.actions?.common ?? []) expect([a, ids.has(a)]).toEqual([a, true]);
    });
  }
});
