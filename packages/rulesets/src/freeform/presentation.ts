import type { RulesetDisplay, Viewer } from '@fray/engine';
import type { RS } from './state.js';

/** How freeform is shown: docs/rulesets/freeform.md ("How it is shown"). */
export const display: RulesetDisplay = {
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
      doc: 'Hit points, from the "hp" stat; at 0 the combatant is down (what that means is the game\'s).',
    },
  ],
  namedVitals: {
    names: 'vitals',
    rising: 'risingVitals',
    spec: {
      key: '{name}',
      label: '{name}',
      short: '{name}',
      current: { in: 'data', key: '{name}' },
      max: { in: 'stats', key: 'vitals.{name}' },
      onlyWithMax: true,
      direction: 'down',
      amountWords: ['full', 'high', 'about half', 'low', 'none'],
      adjustable: true,
      doc: 'A vital the GM named for this encounter; its maximum is in the "vitals" stat. Harm lowers it (raises it when it rises, like Stress).',
    },
  },
  statGroups: [
    { label: 'Vitals', stats: ['hp', 'vitals'] },
    { label: 'Initiative', stats: ['initiative', 'initiativeBonus'] },
  ],
  statLabels: { hp: 'Max HP', vitals: 'Max of the named vitals', initiative: 'Initiative dice', initiativeBonus: 'Initiative bonus' },
  internal: [],
  dataLabels: { initiative: 'Initiative', holding: 'Holding its turn', actions: 'Actions this turn' },
  effects: {
    units: { round: 'rounds', turn: 'turns' },
    conditions: [],
  },
  events: {
    'freeform.initiative': [
      { when: { rolled: true }, text: '{combatantId} rolls {value} for initiative.' },
      { text: "The GM sets {combatantId}'s initiative to {value}." },
    ],
    'freeform.tie-broken': '{combatantId} breaks an initiative tie with a {roll}.',
    'freeform.round-started': 'Round {round} begins.',
    'freeform.turn-started': "Round {round}: {combatantId}'s turn.",
    'freeform.turn-ended': "{combatantId}'s turn ends.",
    'freeform.acted': [
      { when: { kind: 'attack', targetId: true, rolled: true }, text: '{combatantId} attacks {targetId}: {description} (rolls {total}).' },
      { when: { kind: 'attack', targetId: true }, text: '{combatantId} attacks {targetId}: {description}.' },
      { when: { kind: 'attack', rolled: true }, text: '{combatantId} attacks: {description} (rolls {total}).' },
      { when: { kind: 'attack' }, text: '{combatantId} attacks: {description}.' },
      { when: { kind: 'cast', targetId: true, rolled: true }, text: '{combatantId} casts on {targetId}: {description} (rolls {total}).' },
      { when: { kind: 'cast', targetId: true }, text: '{combatantId} casts on {targetId}: {description}.' },
      { when: { kind: 'cast', rolled: true }, text: '{combatantId} casts: {description} (rolls {total}).' },
      { when: { kind: 'cast' }, text: '{combatantId} casts: {description}.' },
      { when: { targetId: true, rolled: true }, text: '{combatantId} → {targetId}: {description} (rolls {total}).' },
      { when: { targetId: true }, text: '{combatantId} → {targetId}: {description}.' },
      { when: { rolled: true }, text: '{combatantId}: {description} (rolls {total}).' },
      { text: '{combatantId}: {description}.' },
    ],
    'freeform.delayed': '{combatantId} delays and holds its turn.',
    'freeform.resumed': [
      { when: { afterId: true }, text: '{combatantId} stops holding and acts after {afterId}.' },
      { text: '{combatantId} stops holding and acts next.' },
    ],
    // the change is the table's story; the total stays with the bars' secrecy (numbers for the GM and the controller)
    'freeform.vital-changed': [
      { when: { $numbers: true }, text: '{combatantId}: {label} {change} (now {value}).' },
      { text: '{combatantId}: {label} {change}.' },
    ],
    'freeform.condition-ticked': '{left} left of a condition.',
  },
  quiet: ['freeform.condition-ticked', 'freeform.tie-broken'],
  // an attack or a spell on someone is the table's to settle: the GM says what it did
  harmPrompts: [
    { event: 'freeform.acted', when: { kind: 'attack', targetId: true } },
    { event: 'freeform.acted', when: { kind: 'cast', targetId: true } },
  ],
  samples: [
    {
      name: 'Bandit',
      side: 'bandits',
      stats: { hp: 11, initiativeBonus: 1 },
      doc: 'A roadside cutthroat with a short blade: goes down in two or three solid hits.',
    },
    {
      name: 'Cultist',
      side: 'cult',
      stats: { hp: 9, initiative: '1d20+2', vitals: { Mana: 10 } },
      doc: 'A robed caster; give the encounter a "Mana" vital to track its spells.',
    },
    { name: 'Ogre', side: 'monsters', stats: { hp: 45, initiativeBonus: -1 }, doc: 'Big, slow and hard to bring down.' },
  ],
};

/**
 * What players and spectators see of freeform's own state: it holds only a turn count, nothing
 * about a combatant, so it is shown as it is (the engine hides hidden combatants, their events and
 * rolls, and secret stats).
 */
export function projectState(rs: RS, _viewer: Viewer): RS {
  return rs;
}
