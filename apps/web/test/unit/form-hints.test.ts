import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ruleset } from '@fray/engine';
import { commandFields, commandValue } from '../../src/lib/command-form.js';
import { combatantBody, positionFields, statFields, type Draft } from '../../src/lib/combatant-body.js';
import { displayOf } from '../../src/lib/display.js';
import { contextOf, hintsUnder, inContext, NEW_ZONE, type FormContext } from '../../src/lib/form-context.js';
import { madeId } from '../../src/lib/ids.js';
import { fieldsOf, initialValues, madeFields, parseValues, validate, type Field, type FormValues } from '../../src/lib/schema-form.js';
import { repeatedKeys, rowsOfText, valueOfRows } from '../../src/lib/schema-rows.js';
import type { EncounterState, RulesetInfo } from '../../src/lib/types.js';

/**
 * The GM's forms in the game's words (the rulesets' form hints, `display.forms`): nothing to type
 * as JSON or as an id, in any ruleset's stats or options.
 */
const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, Ruleset> };
const { rulesetInfo } = (await import(resolve(import.meta.dirname, '../../../server/src/rulesets-info.ts'))) as {
  rulesetInfo(r: Ruleset): RulesetInfo;
};
/** What GET /rulesets gives, through JSON as the browser gets it. */
const info = (id: string): RulesetInfo => JSON.parse(JSON.stringify(rulesetInfo(registry[id]!))) as RulesetInfo;
const optionFields = (r: RulesetInfo) => fieldsOf(r.options.schema, r.options.docs, hintsUnder(displayOf([r], r.id), 'options'));
const byName = (fs: Field[]) => Object.fromEntries(fs.map((f) => [f.name, f]));
const names = (fs: Field[]) => new Set(fs.map((f) => f.name));

describe('every ruleset: no stat, option or position part is JSON', () => {
  for (const id of Object.keys(registry)) {
    it(`${id}: each field has an input of its own (rows for lists and maps), and the options form starts valid from the defaults`, () => {
      const r = info(id);
      const all = [...statFields(r, r.options.defaults), ...optionFields(r), ...positionFields(r)];
      expect(all.filter((f) => f.kind === 'json' && !f.rows).map((f) => f.name)).toEqual([]);
      // the defaults go through the form (entries, rows of maps) and come back as the ruleset's own
      const fs = optionFields(r);
      const values = initialValues(fs, r.options.defaults as Record<string, unknown>);
      for (const f of fs.filter((x) => x.rows)) values[f.name] = JSON.stringify(valueOfRows(f, rowsOfText(f, String(values[f.name]))));
      const parsed = parseValues(fs, values);
      expect(parsed.errors).toEqual({});
      expect(validate(r.options.schema, parsed.value)).toEqual({});
      expect(registry[id]!.optionsSchema.parse(parsed.value)).toEqual(r.options.defaults);
    });
  }
});

describe('action-round: attack and damage by attack kind, skills, powers, commander', () => {
  const r = info('action-round');
  const fs = statFields(r, r.options.defaults);
  const f = byName(fs);

  it("attack and damage are a number field per attack kind, in the game's words and ranges, read and written inside the stat", () => {
    expect(
      ['close', 'ranged', 'court', 'rumor'].map((k) => [f[`attack.${k}`]?.label, f[`attack.${k}`]?.min, f[`attack.${k}`]?.max]),
    ).toEqual([
      ['Close attack', -20, 40],
      ['Ranged attack', -20, 40],
      ['Court attack', -20, 40],
      ['Rumor attack', -20, 40],
    ]);
    expect([f['damage.close']?.label, f['damage.close']?.kind, f['damage.close']?.min, f['damage.close']?.max]).toEqual([
      'Close damage rank',
      'integer',
      0,
      40,
    ]);
    const values: FormValues = { ...initialValues(fs), 'attack.close': '5', 'damage.ranged': '3' };
    expect(values['attack.ranged']).toBe('0');
    const parsed = parseValues(fs, values).value;
    expect(parsed.attack).toEqual({ close: 5, ranged: 0, court: 0, rumor: 0 });
    expect(parsed.damage).toEqual({ close: 0, ranged: 3, court: 0, rumor: 0 });
    expect(registry['action-round']!.statsSchema.safeParse(parsed).success).toBe(true);
    // an entry out of range: its own field says so, before anything is sent
    const bad = parseValues(fs, { ...values, 'damage.close': '41' }).value;
    expect(validate(r.stats.schema, bad, names(fs))['damage.close']).toBe('must be at most 40');
  });

  it('skills are rows of a skill and its ranks, the usual skills offered (the option skillAbilities), back to a map', () => {
    const skills = inContext(f.skills!, contextOf(r, null, { options: r.options.defaults }));
    expect(skills.rows!.map((x) => [x.name, x.label, x.kind])).toEqual([
      ['__key', 'Skill', 'text'],
      ['__value', 'Ranks', 'integer'],
    ]);
    expect(skills.rows![0]!.choices).toContain('athletics');
    expect(skills.rows![0]!.choiceLabels?.athletics).toBe('Athletics');
    const rows = rowsOfText(skills, JSON.stringify({ athletics: 4 }));
    expect(rows).toEqual([{ __key: 'athletics', __value: '4' }]);
    const more = [...rows, { __key: 'wits', __value: '2' }];
    expect(valueOfRows(skills, more)).toEqual({ athletics: 4, wits: 2 });
    // a skill without a name, or a rank left blank, is not dropped without a word
    expect(
      parseValues([skills], { skills: JSON.stringify(valueOfRows(skills, [...more, { __key: '', __value: '1' }])) }).errors.skills,
    ).toBe('need a skill in every row');
    const blank = valueOfRows(skills, [{ __key: 'insight', __value: '' }]);
    expect(validate(r.stats.schema, { skills: blank }).skills).toMatch(/insight: must be integer/);
    expect(repeatedKeys(skills, [...more, { __key: 'wits', __value: '3' }])).toEqual(['wits']);
  });

  it("a power's id is made from its name (unique in the list, kept when editing); the commander is picked by name", () => {
    const powers = f.powers!;
    const id = powers.rows!.find((x) => x.name === 'id')!;
    expect(id.madeFrom).toBe('name');
    const row = (name: string, idValue = ''): FormValues => ({ ...initialValues(powers.rows!), name, id: idValue });
    expect(valueOfRows(powers, [row('Fire Blast'), row('Fire blast'), row('Old', 'kept-id')])).toMatchObject([
      { id: 'fire-blast', name: 'Fire Blast' },
      { id: 'fire-blast-2', name: 'Fire blast' },
      { id: 'kept-id', name: 'Old' },
    ]);
    const ctx: FormContext = {
      combatants: [
        { id: 'c1', name: 'Captain', side: 'heroes' },
        { id: 'c2', name: 'Me', side: 'heroes' },
      ],
      self: 'c2',
    };
    const commander = inContext(f.commander!, ctx);
    expect([commander.kind, commander.choices, commander.choiceLabels?.c1]).toEqual(['select', ['c1'], 'Captain (heroes)']);
  });
});

describe("ocv-phases: skills as rows; the options' maps as rows of a condition or a manoeuvre and its modifiers", () => {
  const r = info('ocv-phases');
  it('skills: a skill and its roll (0–40)', () => {
    const skills = byName(statFields(r, r.options.defaults)).skills!;
    expect(skills.rows!.map((x) => [x.label, x.kind, x.min, x.max])).toEqual([
      ['Skill', 'text', undefined, undefined],
      ['Roll (3d6 or less)', 'integer', 0, 40],
    ]);
    expect(valueOfRows(skills, [{ __key: 'acrobatics', __value: '12' }])).toEqual({ acrobatics: 12 });
  });
  it("a manoeuvre is picked from the catalogue by its label; the modifiers' fields are labelled OCV, DCV", () => {
    const m = inContext(byName(optionFields(r)).manoeuvreModifiers!, contextOf(r));
    expect(m.rows!.map((x) => x.label)).toEqual(['Manoeuvre', 'OCV', 'DCV', 'DCV halved', 'DCV 0']);
    expect(m.rows![0]!.choiceLabels?.haymaker).toBe('Haymaker');
    expect(valueOfRows(m, [{ __key: 'haymaker', ocv: '1', dcv: '-4', halveDcv: false, zeroDcv: false }])).toEqual({
      haymaker: { ocv: 1, dcv: -4, halveDcv: false, zeroDcv: false },
    });
  });
  it('a dice formula shows its example and is checked before sending, in words', () => {
    const die = byName(optionFields(r)).tieBreakDie!;
    expect([die.kind, die.example, die.label]).toEqual(['text', '1d6', 'Tie-break die']);
    expect(validate(r.options.schema, { tieBreakDie: 'one d6' }).tieBreakDie).toBe('must be written like 1d6');
    expect(validate(r.options.schema, { tieBreakDie: '2d6+1' })).toEqual({});
  });
});

describe('action-points: feats in words, weapons without ids to type, actions picked by name', () => {
  const r = info('action-points');
  it('feats are ticked in words (others typed); a weapon id is made from its name; damage dice are checked', () => {
    const f = byName(statFields(r, r.options.defaults));
    expect([f.feats!.kind, f.feats!.open, f.feats!.choiceLabels?.['improved-trip']]).toEqual(['multiselect', true, 'Improved Trip']);
    const weapons = f.weapons!;
    const row = { ...initialValues(weapons.rows!), name: 'Long sword', damage: '1d8+1' };
    expect(valueOfRows(weapons, [row])).toMatchObject([{ id: 'long-sword', name: 'Long sword', damage: '1d8+1' }]);
    const bad = valueOfRows(weapons, [{ ...row, damage: '1d8 plus 1' }]);
    expect(validate(r.stats.schema, { weapons: bad }).weapons).toBe('row 1 · damage: must be written like 1d8');
    // a row without its name: said on the list, by its row, not as a field of the combatant
    const nameless = valueOfRows(weapons, [row, { ...row, name: '' }]);
    expect(validate(r.stats.schema, { weapons: nameless }, undefined, madeFields([weapons]))).toEqual({
      weapons: 'row 2 · name: is required',
    });
  });
  it('an option by size is a choice per size; actions are picked by their labels', () => {
    const o = byName(optionFields(r));
    expect([o['baseSpeedBySize.large']?.kind, o['baseSpeedBySize.large']?.label, o['baseSpeedBySize.large']?.default]).toEqual([
      'select',
      'Base action speed by size · large',
      'average',
    ]);
    const ctx = contextOf(r);
    // the advanced actions only (their AP may be split up)
    const nc = inContext(o.nonConsecutiveActions!, ctx);
    expect([nc.choices?.includes('charge'), nc.choices?.includes('attack'), nc.choiceLabels?.charge]).toEqual([true, false, 'Charge']);
    expect(inContext(o.earliestPhaseOverrides!, ctx).rows![0]!.choiceLabels?.['aid-another']).toBe('Aid another');
    expect(inContext(o.earliestPhaseOverrides!, ctx).rows![0]!.kind).toBe('select');
  });
});

describe('legends: zones picked by name, a new zone by its name alone, groups by who is in them', () => {
  const r = info('legends');
  const state = {
    rs: {
      zones: {
        main: { id: 'main', name: 'Main', neighbors: [], traits: {}, features: [] },
        yard: { id: 'yard', name: 'Courtyard', neighbors: [], traits: {}, features: [] },
      },
    },
    combatants: {
      a: { id: 'a', name: 'Aria', side: 'heroes', position: { zone: 'main', area: null, group: 'grp-1', engagement: null } },
      b: { id: 'b', name: 'Borin', side: 'heroes', position: { zone: 'main', area: null, group: 'grp-1', engagement: null } },
    },
    options: {},
  } as unknown as EncounterState;
  const ctx = contextOf(r, state, { newZone: true });
  const pos = byName(positionFields(r).map((f) => inContext(f, ctx)));

  it('the zone is a choice of the zones by name, and a new one; a group is named by who is in it', () => {
    expect(pos['position.zone']!.choices).toEqual(['main', 'yard', NEW_ZONE]);
    expect(pos['position.zone']!.choiceLabels?.yard).toBe('Courtyard');
    expect(pos['position.group']!.choiceLabels).toEqual({ 'grp-1': 'with Aria, Borin' });
    expect(byName(statFields(r, {})).mountId!.refers).toBe('combatant');
  });

  it('a new zone named in the form: its id made from the name, not one taken, and the position in it', () => {
    const fields = statFields(r, {});
    const values = { ...initialValues(fields), DEX: '10', SPD: '10', STR: '10' };
    const d: Draft = {
      name: 'Cara',
      side: 'heroes',
      hidden: false,
      secret: [],
      items: [],
      position: { 'position.zone': NEW_ZONE },
      newZone: 'Courtyard',
    };
    const out = combatantBody(r, fields, positionFields(r), values, d, ['main', 'courtyard']);
    expect(out.errs).toEqual({});
    expect(out.zone).toEqual({ id: 'courtyard-2', name: 'Courtyard' });
    expect(out.body.position).toMatchObject({ zone: 'courtyard-2' });
    expect(combatantBody(r, fields, positionFields(r), values, { ...d, newZone: ' ' }).errs['position.zone']).toBe(
      "needs the new zone's name",
    );
  });

  it('defineZone: a zone picked by name or a new one made from its name; neighbours picked by name', () => {
    const fs = commandFields(r.commandInfo.defineZone!.schema, hintsUnder(displayOf([r], r.id), 'commands.defineZone'));
    const f = byName(fs.map((x) => inContext(x, ctx)));
    expect([f['zone.id']!.kind, f['zone.id']!.madeFrom, f['zone.id']!.choices]).toEqual(['select', 'name', ['main', 'yard']]);
    expect([f['zone.neighbors']!.kind, f['zone.neighbors']!.choiceLabels?.main]).toEqual(['multiselect', 'Main']);
    const values = { ...initialValues(fs), 'zone.name': 'Great Hall', 'zone.neighbors': ['main'] };
    expect(commandValue(fs, values, { taken: ['main', 'yard'] }).value).toMatchObject({
      zone: { id: 'great-hall', name: 'Great Hall', neighbors: ['main'] },
    });
    expect(commandValue(fs, { ...values, 'zone.id': 'yard' }, { taken: ['main', 'yard'] }).value).toMatchObject({ zone: { id: 'yard' } });
  });
});

describe('ids made from names', () => {
  it('lower-case words joined by -, accents dropped, numbered when taken, a fallback when nothing is left', () => {
    expect(madeId('Old Courtyard')).toBe('old-courtyard');
    expect(madeId('Café  du Nord!')).toBe('cafe-du-nord');
    expect(madeId('Old Courtyard', ['old-courtyard', 'old-courtyard-2'])).toBe('old-courtyard-3');
    expect(madeId('!!!', [], 'zone')).toBe('zone');
  });
});
