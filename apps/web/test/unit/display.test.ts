import { describe, expect, it } from 'vitest';
import { reactionName, sentence, shownData, vitalsOf, type RulesetDisplay } from '../../src/lib/display.js';
import { story } from '../../src/lib/story.js';
import type { EncounterState, LogEntry, RulesetInfo } from '../../src/lib/types.js';

const display: RulesetDisplay = {
  vitals: [
    {
      key: 'hp',
      label: 'Hit points',
      short: 'HP',
      current: { in: 'data', key: 'hp' },
      max: { in: 'stats', key: 'hp' },
      direction: 'down',
      thresholds: [{ at: 0, label: 'down' }],
      adjustable: true,
      doc: '',
    },
  ],
  statGroups: [],
  statLabels: {},
  internal: ['tieRoll', 'turn.seq'],
  dataLabels: { ap: 'AP left' },
  events: {
    'x.attack': [
      { when: { hit: true }, text: '{combatantId} hits {targetId}: {total} against AC {ac}, {damage} damage.' },
      { text: '{combatantId} misses {targetId}: {total} against AC {ac}.' },
    ],
  },
  quiet: ['x.queue'],
};
const state = {
  options: {},
  rolls: [],
  combatants: {
    a: { id: 'a', name: 'Aria', stats: { hp: 12 }, data: { hp: 3 }, items: [] },
    b: { id: 'b', name: 'the Brute', stats: { hp: 20 }, data: { hp: 0 }, items: [] },
  },
} as unknown as EncounterState;

describe('the ruleset’s words, applied', () => {
  it('"a sentence for each of its events in the game\'s words": ids become names, the first matching variant wins', () => {
    expect(
      sentence(display, { state }, { type: 'x.attack', combatantId: 'a', targetId: 'b', total: 14, ac: 12, hit: true, damage: 9 }),
    ).toBe('Aria hits the Brute: 14 against AC 12, 9 damage.');
    expect(sentence(display, { state }, { type: 'x.attack', combatantId: 'a', targetId: 'b', total: 4, ac: 12, hit: false })).toBe(
      'Aria misses the Brute: 4 against AC 12.',
    );
    expect(sentence(display, { state }, { type: 'x.unknown' })).toBeNull();
  });

  it("a `phase` field is said with the ruleset's name of the phase (display.phases), never its id", () => {
    const d = { ...display, phases: { 'phase-1': 'Phase 1' }, events: { ...display.events, 'x.phase': 'Turn {turn}, {phase} begins.' } };
    expect(sentence(d, { state }, { type: 'x.phase', turn: 2, phase: 'phase-1' })).toBe('Turn 2, Phase 1 begins.');
    expect(sentence(d, { state }, { type: 'x.phase', turn: 1, phase: 'post-turn' })).toBe('Turn 1, Post turn begins.');
  });

  it('"bars, with numbers for the GM and for a player\'s own combatants": others get a bar and a word', () => {
    const [gm] = vitalsOf(display, state, state.combatants.a!, true);
    expect(gm).toMatchObject({ text: 'HP 3/12', left: 0.25 });
    const [other] = vitalsOf(display, state, state.combatants.a!, false);
    expect(other!.text).toBe('HP: badly hurt');
    expect(vitalsOf(display, state, state.combatants.b!, true)[0]!.text).toBe('HP 0/20 (down)');
    // a maximum the viewer may not see (a secret stat): no bar
    const secret = { ...state.combatants.a!, stats: {} };
    expect(vitalsOf(display, state, secret as never, false)[0]!.left).toBeNull();
  });

  it('"HP and the vitals the GM names for the encounter": each named vital from the options, its maximum read inside a stat, a rising one shown as what is left', () => {
    const named: RulesetDisplay = {
      ...display,
      namedVitals: {
        names: 'vitals',
        rising: 'risingVitals',
        spec: {
          key: '{name}',
          label: '{name}',
          short: '{name}',
          current: { in: 'data', key: '{name}' },
          max: { in: 'stats', key: 'vitals.{name}' },
          direction: 'down',
          amountWords: ['full', 'high', 'about half', 'low', 'none'],
          adjustable: true,
          doc: '',
        },
      },
    };
    const s = { ...state, options: { vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] } } as unknown as EncounterState;
    const c = {
      id: 'c',
      name: 'Cora',
      stats: { hp: 10, vitals: { Mana: 10, Stress: 6 } },
      data: { hp: 10, Mana: 4, Stress: 3 },
      items: [],
    } as never;
    expect(vitalsOf(named, s, c, true).map((v) => v.text)).toEqual(['HP 10/10', 'Mana 4/10', 'Stress 3/6']);
    expect(vitalsOf(named, s, c, false).map((v) => v.text)).toEqual(['HP: unhurt', 'Mana: low', 'Stress: about half']);
    expect(vitalsOf(named, state, c, true).map((v) => v.key)).toEqual(['hp']);
    // "a Bandit has no Mana": no maximum, no such vital
    const bandit = { id: 'd', name: 'Bandit', stats: { hp: 11 }, data: { hp: 11, Mana: 0, Stress: 0 }, items: [] } as never;
    expect(
      vitalsOf(
        { ...named, namedVitals: { ...named.namedVitals!, spec: { ...named.namedVitals!.spec, onlyWithMax: true } } },
        s,
        bandit,
        true,
      ).map((v) => v.key),
    ).toEqual(['hp']);
    expect(
      shownData(
        named,
        [
          ['Mana', 4],
          ['Stress', 3],
          ['actions', 1],
        ],
        s.options,
      ).map((e) => e.key),
    ).toEqual(['actions']);
  });

  it('internal state fields are never shown; the rest in words', () => {
    const shown = shownData(display, [
      ['tieRoll', 3],
      ['turn.seq', 'a'],
      ['ap', 2],
      ['hp', 3],
    ]);
    expect(shown).toEqual([{ key: 'ap', label: 'AP left', value: 2 }]);
  });

  it("the log per reader: bookkeeping left out, a player's own rolls in full, others' as a total", () => {
    const log: LogEntry[] = [
      {
        seq: 4,
        events: [
          { type: 'x.queue', queue: ['a'] },
          {
            type: 'dice.rolled',
            rollId: 'r1',
            formula: '1d20+2',
            faces: [{ sides: 20, value: 12, kept: true }],
            total: 14,
            purpose: 'attack',
            combatantId: 'a',
          },
          { type: 'x.attack', combatantId: 'a', targetId: 'b', total: 14, ac: 12, hit: true, damage: 9 },
        ],
      },
      {
        seq: 5,
        events: [
          {
            type: 'dice.rolled',
            rollId: 'r2',
            formula: '1d20',
            faces: [{ sides: 20, value: 5, kept: true }],
            total: 5,
            purpose: 'attack',
            combatantId: 'b',
          },
        ],
      },
    ];
    const [first, second] = story(display, { state }, log, { role: 'player', mine: (id) => id === 'a' });
    expect(first!.lines.map((l) => l.kind)).toEqual(['roll', 'text']);
    expect(first!.lines[0]).toMatchObject({ kind: 'roll', full: true });
    expect(second!.lines[0]).toMatchObject({ kind: 'roll', full: false });
  });
});

describe('a reaction window in the ruleset’s words', () => {
  it('the catalogue entry’s label, else the kind made readable; never the raw rule id', async () => {
    // GET /rulesets as the server builds it (apps/server, imported by path: the server depends on this package)
    const { rulesetInfo } = (await import('../../../server/src/rulesets-info.js' as string)) as { rulesetInfo(r: unknown): RulesetInfo };
    const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, unknown> };
    const infos = Object.values(registry).map(rulesetInfo);
    const ap = infos.find((r) => r.id === 'action-points');
    expect(reactionName(ap, 'action-points.attack-of-opportunity')).toBe('Attack of opportunity');
    const legends = infos.find((r) => r.id === 'legends');
    expect(reactionName(legends, 'legends.reactive-movement')).toBe('Reactive movement');
    expect(reactionName({ ...ap!, catalogue: [{ id: 'parry', label: 'Parry (a reaction)' }] }, 'x.parry')).toBe('Parry (a reaction)');
    expect(reactionName(undefined, 'ocv-phases.before-action')).toBe('Before action');
  });
});

describe('a vital’s total in the log follows the bars’ secrecy', () => {
  it('the GM and the controller read the total; another player reads the change without it', async () => {
    const { rulesetInfo } = (await import('../../../server/src/rulesets-info.js' as string)) as { rulesetInfo(r: unknown): RulesetInfo };
    const { registry } = (await import('@fray/rulesets' as string)) as { registry: Record<string, unknown> };
    const freeform = rulesetInfo(registry.freeform).display as RulesetDisplay;
    const log: LogEntry[] = [
      {
        seq: 1,
        events: [{ type: 'freeform.vital-changed', combatantId: 'b', vital: 'hp', label: 'HP', amount: 4, change: '−4', value: 7 }],
      },
    ];
    const line = (reader: Parameters<typeof story>[3]) => story(freeform, { state }, log, reader)[0]!.lines[0];
    expect(line({ role: 'gm', mine: () => false })).toMatchObject({ text: 'the Brute: HP −4 (now 7).' });
    expect(line({ role: 'player', mine: (id) => id === 'b' })).toMatchObject({ text: 'the Brute: HP −4 (now 7).' });
    expect(line({ role: 'player', mine: (id) => id === 'a' })).toMatchObject({ text: 'the Brute: HP −4.' });
    expect(line({ role: 'spectator', mine: () => false })).toMatchObject({ text: 'the Brute: HP −4.' });
  });
});
