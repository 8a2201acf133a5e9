import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fieldsOf, initialValues, labelOf, parseValues, validate, withEntryFields, type FormValues } from '../../src/lib/schema-form.js';

const { registry } = (await import('@fray/rulesets' as string)) as {
  registry: Record<string, { id: string; statsSchema: z.ZodType; optionsSchema: z.ZodType; statDocs?: Record<string, string> }>;
};

/** The JSON Schema the server publishes for a zod schema (apps/server/src/rulesets-info.ts). */
const json = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });

describe('forms generated from a ruleset stats schema', () => {
  it("a list of plain objects (legends' ability actions) is rows of fields, not JSON: its entries' fields, and the list read back", () => {
    const legends = Object.values(registry).find((r) => r.id === 'legends')!;
    const f = fieldsOf(json(legends.statsSchema)).find((x) => x.name === 'actions')!;
    expect(f.kind).toBe('json');
    expect(f.rows?.map((r) => `${r.name}:${r.kind}`)).toEqual([
      'key:text',
      'name:text',
      'kinds:multiselect',
      'tags:multiselect',
      'hands:integer',
      'target:select',
      'repeatable:boolean',
      'rule:text',
    ]);
    const row = { ...initialValues(f.rows!), key: 'rally', name: 'Rally', kinds: ['minor'] };
    expect(parseValues(f.rows!, row).value).toMatchObject({ key: 'rally', name: 'Rally', kinds: ['minor'], repeatable: false });
  });

  const legends = registry.legends!;
  const schema = json(legends.statsSchema);
  const fields = fieldsOf(schema, legends.statDocs);
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it('one field per stat, with the right input, range, requiredness and doc', () => {
    expect(byName.DEX).toMatchObject({ kind: 'integer', min: 0, max: 40, required: true, label: 'DEX' });
    expect(byName.DEX!.doc).toMatch(/turn order/i);
    expect(byName.encumbrance).toMatchObject({ kind: 'integer', required: false, default: 0, label: 'Encumbrance' });
    expect(byName.kind).toMatchObject({ kind: 'select', choices: ['person', 'animal', 'tech'] });
    expect(byName.mountId).toMatchObject({ nullable: true, kind: 'text' });
    expect(byName.competences).toMatchObject({ kind: 'list' });
    expect(byName.actions).toMatchObject({ kind: 'json' });
    expect(byName.vehicle).toMatchObject({ kind: 'boolean', default: false });
  });

  it("a bound is shown only when it is the game's: an integer without one (zod gives ±2^53 − 1) shows none", () => {
    const ap = fieldsOf(json(registry['action-points']!.statsSchema));
    const ac = ap.find((f) => f.name === 'ac')!;
    expect(ac.kind).toBe('integer');
    expect([ac.min, ac.max]).toEqual([undefined, undefined]);
    expect(fieldsOf(json(z.object({ n: z.number().int().min(-5).max(1e6) })))[0]).toMatchObject({ min: -5, max: 1e6 });
  });

  it("rejects invalid stats with the schema's message before sending", () => {
    const values: FormValues = { ...initialValues(fields), DEX: '99', SPD: '5', STR: '' };
    const parsed = parseValues(fields, values);
    const errors = validate(schema, parsed.value);
    expect(errors.DEX).toBe('must be at most 40');
    expect(errors.STR).toBe('is required');
    expect(errors.SPD).toBeUndefined();
    expect(validate(schema, { ...parsed.value, DEX: 12, STR: 3 })).toEqual({});
    expect(parseValues(fields, { ...values, DEX: 'abc' }).errors.DEX).toBe('must be a number');
  });

  it('turns inputs into typed values: numbers, lists, null for a blank nullable, JSON', () => {
    const parsed = parseValues(fields, {
      ...initialValues(fields),
      DEX: '7',
      SPD: '8',
      STR: '9',
      competences: 'sword, bow',
      mountId: '',
      actions: '[]',
    });
    expect(parsed.errors).toEqual({});
    expect(parsed.value).toMatchObject({
      DEX: 7,
      SPD: 8,
      STR: 9,
      competences: ['sword', 'bow'],
      mountId: null,
      actions: [],
      vehicle: false,
      kind: 'person',
    });
    expect(legends.statsSchema.safeParse(parsed.value).success).toBe(true);
  });

  it('labels read like words', () => {
    expect(labelOf('mobilityInjury')).toBe('Mobility injury');
    expect(labelOf('OCV')).toBe('OCV');
    expect(labelOf('max-hp')).toBe('Max hp');
  });

  // The browser's check and the server's must agree, for every ruleset the server offers.
  for (const r of Object.values(registry)) {
    it(`${r.id}: defaults plus filled required stats pass both the browser check and the ruleset's own schema`, () => {
      const s = json(r.statsSchema);
      const fs = fieldsOf(s);
      const values = initialValues(fs);
      for (const f of fs) {
        if (!f.required) continue;
        if (f.kind === 'integer' || f.kind === 'number') values[f.name] = String(Math.min(f.max ?? 10, Math.max(f.min ?? 0, 10)));
        else if (f.kind === 'select') values[f.name] = f.choices![0]!;
        else if (f.kind === 'text' || f.kind === 'list') values[f.name] = 'x';
      }
      const parsed = parseValues(fs, values);
      expect(validate(s, parsed.value)).toEqual({});
      const server = r.statsSchema.safeParse(parsed.value);
      expect(server.success, server.success ? '' : z.prettifyError(server.error)).toBe(true);
    });
    it(`${r.id}: the options form starts valid from the published defaults`, () => {
      const s = json(r.optionsSchema);
      const fs = fieldsOf(s);
      const defaults = r.optionsSchema.parse({}) as Record<string, unknown>;
      const parsed = parseValues(fs, initialValues(fs, defaults));
      expect(parsed.errors).toEqual({});
      expect(validate(s, parsed.value)).toEqual({});
      expect(r.optionsSchema.safeParse(parsed.value).success).toBe(true);
    });
  }
});

describe('a stat holding a number per vital the encounter names (freeform\'s "vitals")', () => {
  const freeform = registry.freeform!;
  const schema = json(freeform.statsSchema);
  const entries = new Map([
    [
      'vitals',
      [
        { key: 'Mana', label: 'Max Mana' },
        { key: 'Stress', label: 'Max Stress' },
      ],
    ],
  ]);
  const fields = withEntryFields(fieldsOf(schema, freeform.statDocs), entries);

  it('is one number field per named vital, not a JSON field, and none when the encounter names none', () => {
    expect(fields.filter((f) => f.parent === 'vitals').map((f) => [f.name, f.label, f.kind, f.min, f.max])).toEqual([
      ['vitals.Mana', 'Max Mana', 'integer', 0, 100_000],
      ['vitals.Stress', 'Max Stress', 'integer', 0, 100_000],
    ]);
    expect(fields.some((f) => f.kind === 'json')).toBe(false);
    expect(withEntryFields(fieldsOf(schema), new Map([['vitals', []]])).map((f) => f.name)).not.toContain('vitals');
  });

  it("reads and writes the entries inside the stat, and puts an entry's error on its own field", () => {
    const values: FormValues = initialValues(fields, { hp: 9, vitals: { Mana: 10 } });
    expect(values).toMatchObject({ hp: '9', 'vitals.Mana': '10', 'vitals.Stress': '' });
    const parsed = parseValues(fields, { ...values, 'vitals.Stress': '6' });
    expect(parsed.value).toEqual({ hp: 9, vitals: { Mana: 10, Stress: 6 } });
    expect(parseValues(fields, { ...values, 'vitals.Mana': '' }).value).toEqual({ hp: 9 });
    const errs = validate(schema, { vitals: { Mana: -1 } }, new Set(fields.map((f) => f.name)));
    expect(errs['vitals.Mana']).toBe('must be at least 0');
  });
});
