import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, createEncounter, type EncounterState, type Ruleset } from '@fray/engine';
import { schemaParams } from '../../src/lib/action-schema.js';
import { commandValue } from '../../src/lib/command-form.js';
import { statEntriesText } from '../../src/lib/describe.js';
import { displayOf } from '../../src/lib/display.js';
import { contextOf, inContext } from '../../src/lib/form-context.js';
import { elsewhere, gmCommandFields } from '../../src/lib/gm-commands.js';
import { initialValues, validate, type FormValues } from '../../src/lib/schema-form.js';
import { rowErrors } from '../../src/lib/schema-validate.js';
import type { RulesetInfo } from '../../src/lib/types.js';

/** The GM's command forms in the game's words: what each field picks, and the command it sends. */
const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, Ruleset> };
const { rulesetInfo } = (await import(resolve(import.meta.dirname, '../../../server/src/rulesets-info.ts'))) as {
  rulesetInfo(r: Ruleset): RulesetInfo;
};
const info = (id: string): RulesetInfo => JSON.parse(JSON.stringify(rulesetInfo(registry[id]!))) as RulesetInfo;
const gm = { role: 'gm' } as const;

/** An action-round fight: Aria (a power with an alternate effect, a sword), a goblin, a roll and a condition. */
function fight(): EncounterState {
  const r = registry['action-round']!;
  let s = createEncounter(r, { id: 'e', seed: 3 });
  const run = (cmd: Record<string, unknown>) => {
    const out = apply(r, s, { by: gm, ...cmd } as never);
    if (!out.ok) throw new Error(out.error.message);
    s = out.state;
  };
  const power = { id: 'fire-blast', name: 'Fire Blast', rank: 6, alternates: ['Ice Wall'] };
  const sword = { id: 'sword', name: 'Sword', location: 'right-hand', tags: [], props: {} };
  run({ type: 'combatant.add', combatant: { id: 'a', name: 'Aria', side: 'heroes', stats: { powers: [power] }, items: [sword] } });
  run({ type: 'combatant.add', combatant: { id: 'g', name: 'Goblin', side: 'foes', stats: {} } });
  run({ type: 'dice.roll', formula: '1d20', purpose: 'a hunch' });
  run({ type: 'effect.apply', targetId: 'g', name: 'Prone', condition: 'prone' });
  return s;
}

/** The field `name` of the command's form, with its choices from the encounter. */
function fieldOf(r: RulesetInfo, s: EncounterState, type: string, name: string) {
  const f = gmCommandFields(r, type).find((x) => x.name === name);
  if (!f) throw new Error(`${type} has no field ${name}`);
  return inContext(f, contextOf(r, s));
}
const words = (f: ReturnType<typeof fieldOf>) => (f.choices ?? []).map((c) => f.choiceLabels?.[c] ?? c);

describe('the GM command form picks by name what its fields name', () => {
  const r = info('action-round');
  const s = fight();
  it('items, rolls, effects, vitals and stats in words; ids are what is sent', () => {
    expect(words(fieldOf(r, s, 'draw', 'itemId'))).toEqual(['Sword (Aria)']);
    expect(words(fieldOf(r, s, 'dice.override', 'rollId'))[0]).toMatch(/^The GM rolled \d+ for a hunch \(1d20/);
    expect(words(fieldOf(r, s, 'effect.remove', 'effectId'))).toEqual(['prone on Goblin']);
    expect(fieldOf(r, s, 'combatant.adjust', 'vital').choiceLabels).toMatchObject({ damage: 'Damage', socialDamage: 'Conflict damage' });
    expect(words(fieldOf(r, s, 'combatant.setStat', 'stat'))).toContain('Attack');
    // a roll is never offered as a combatant (it was, by its name ending in Id)
    expect(fieldOf(r, s, 'dice.override', 'rollId')).toMatchObject({ refers: 'roll', kind: 'select' });
  });

  it('a power by its name, and its alternate effects (or the power itself) by theirs', () => {
    expect(words(fieldOf(r, s, 'switch-alternate', 'powerId'))).toEqual(['Fire Blast (Aria)']);
    expect(fieldOf(r, s, 'switch-alternate', 'alternate').choices).toEqual(['Ice Wall', 'Fire Blast']);
  });

  it('a pair (trick: the two skills the target resists with) is two fields, sent as a list', () => {
    const fs = gmCommandFields(r, 'trick');
    expect(fs.filter((f) => f.name.startsWith('opposing.')).map((f) => f.label)).toEqual(['Target resists with', '…or with']);
    const values: FormValues = {
      ...initialValues(fs),
      combatantId: 'a',
      targetId: 'g',
      skill: 'Deception',
      'opposing.0': 'Insight',
      'opposing.1': 'Athletics',
      condition: 'dazed',
    };
    const { value } = commandValue(fs, values);
    expect(value.opposing).toEqual(['Insight', 'Athletics']);
    expect(validate(r.commandInfo!.trick!.schema, value)).toEqual({});
  });

  it('a DC is a number or a word; a stat value is typed (12 is a number); an optional part left blank is left out', () => {
    const skill = gmCommandFields(r, 'use-skill');
    expect(skill.find((f) => f.name === 'dc')).toMatchObject({ kind: 'text', loose: true, choices: ['easy', 'moderate', 'hard'] });
    const v = commandValue(skill, { ...initialValues(skill), combatantId: 'a', skill: 'Athletics', dc: '12' }).value;
    expect(v.dc).toBe(12);
    const ready = gmCommandFields(r, 'ready');
    const rv = commandValue(ready, { ...initialValues(ready), combatantId: 'a', action: 'attack', 'trigger.event': 'moves' }).value;
    expect(validate(r.commandInfo!.ready!.schema, rv)).toEqual({});
    const set = gmCommandFields(r, 'combatant.setStat');
    expect(commandValue(set, { ...initialValues(set), combatantId: 'a', stat: 'defense', value: '4' }).value).toEqual({
      combatantId: 'a',
      stat: 'defense',
      value: 4,
    });
  });

  it('Place combatant: x and y, sent as the position the server takes', () => {
    const fs = gmCommandFields(r, 'combatant.place');
    const value = commandValue(fs, { ...initialValues(fs), combatantId: 'g', 'position.x': '3', 'position.y': '4' }).value;
    expect(value).toEqual({ combatantId: 'g', position: { x: 3, y: 4 } });
    const out = apply(registry['action-round']!, s, { type: 'combatant.place', by: gm, ...value } as never);
    expect(out.ok && out.state.combatants.g!.position).toEqual({ x: 3, y: 4 });
    // blank: the schema's own complaint, on the position
    expect(validate(r.commandInfo!['combatant.place']!.schema, commandValue(fs, { ...initialValues(fs), combatantId: 'g' }).value)).toEqual(
      {
        position: 'is required',
      },
    );
  });

  it('commands with a form of their own point there; a pending ruling is done on its card', () => {
    expect(elsewhere(r, 'combatant.add')).toMatch(/Add a combatant/);
    expect(elsewhere(r, 'effect.apply')).toMatch(/Conditions and effects/);
    expect(elsewhere(info('legends'), 'resolveAttack')).toMatch(/card/);
    expect(elsewhere(r, 'combatant.place')).toBeNull();
  });
});

describe("a list's errors on the row that has them", () => {
  it("a power's rank out of range is on that row's rank; a map's value on its key's row", () => {
    const r = info('action-round');
    const stats = {
      powers: [
        { id: 'a', name: 'A', rank: 5 },
        { id: 'b', name: 'B', rank: 999 },
      ],
      skills: { Stealth: -50 },
    };
    const errs = rowErrors(r.stats.schema, stats);
    expect(errs['powers[1].rank']).toMatch(/at most/);
    expect(errs['powers[0].rank']).toBeUndefined();
    expect(errs['skills[Stealth].__value']).toMatch(/at least/);
    // the wall of a map inside a command's object
    const walls = rowErrors(r.commandInfo!['map.set']!.schema, { map: { width: 5, height: 5, walls: [{ x: 1 }] } });
    expect(walls['map.walls[0].y']).toBe('is required');
  });
});

describe('the combatant card says attack bonuses in the game’s words', () => {
  it('action-round: "close +6, ranged +4" under Attack, "close 4" under Damage rank', () => {
    const d = displayOf([info('action-round')], 'action-round');
    expect(statEntriesText(d, 'attack', { close: 6, ranged: 4 })).toBe('close +6, ranged +4');
    expect(statEntriesText(d, 'attack', { close: -2 })).toBe('close -2');
    expect(statEntriesText(d, 'damage', { close: 4 })).toBe('close 4');
    // a map without hints keeps its keys; a number is no list
    expect(statEntriesText(d, 'vitals', { Mana: 10 })).toBe('Mana 10');
    expect(statEntriesText(d, 'defense', 3)).toBeNull();
  });
});

describe("a player's action whose command takes an object asks its fields", () => {
  it("action-round's Stance: the penalty and the bonus each a choice and a number; Ready's trigger its event, who and what", () => {
    const r = info('action-round');
    const stance = {
      command: 'stance',
      label: 'Stance',
      allowed: true,
      params: [
        { name: 'penalty', kind: 'text' as const },
        { name: 'bonus', kind: 'text' as const },
      ],
    };
    const parts = schemaParams(r, stance);
    expect(parts.get('penalty')!.map((f) => `${f.name}:${f.kind}`)).toEqual(['penalty.on:select', 'penalty.n:integer']);
    expect(parts.get('bonus')!.map((f) => f.name)).toEqual(['bonus.on', 'bonus.n']);
    const fields = [...parts.values()].flat();
    const value = commandValue(fields, { 'penalty.on': 'defense', 'penalty.n': '2', 'bonus.on': 'attack', 'bonus.n': '2' }).value;
    expect(validate(r.commandInfo!.stance!.schema, { combatantId: 'a', ...value })).toEqual({});
    const ready = schemaParams(r, { command: 'ready', label: 'Ready', allowed: true, params: [{ name: 'trigger', kind: 'text' }] });
    expect(ready.get('trigger')!.map((f) => `${f.name}${f.refers ? `(${f.refers})` : ''}`)).toEqual([
      'trigger.event',
      'trigger.by(combatant)',
      'trigger.description',
    ]);
  });
});

describe('legends: zones and groups by name in the GM command form', () => {
  it("a move's zone is a zone picker; a group's defense is broken by picking the group by who is in it", () => {
    const r = info('legends');
    const zone = gmCommandFields(r, 'move').find((f) => f.name === 'destination.zone');
    expect(zone).toMatchObject({ kind: 'select', refers: 'zone' });
    const group = gmCommandFields(r, 'breakGroupDefense').find((f) => f.name === 'group');
    expect(group).toMatchObject({ kind: 'select', refers: 'shared' });
    const s = {
      combatants: { a: { id: 'a', name: 'Aria', side: 'heroes', position: { zone: 'main', group: 'g1' }, stats: {}, items: [] } },
    };
    const picked = inContext(group!, contextOf(r, s as unknown as EncounterState));
    expect(picked.choiceLabels?.g1).toBe('with Aria');
  });
});
