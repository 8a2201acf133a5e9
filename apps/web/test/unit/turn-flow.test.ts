import { describe, expect, it } from 'vitest';
import type { RulesetDisplay } from '../../src/lib/display.js';
import { fightOver, ownResult, turnKey, upNext, waitingFor } from '../../src/lib/turn-flow.js';
import type { EncounterState } from '../../src/lib/types.js';

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
  internal: [],
  dataLabels: {},
  events: {
    'x.attack': [
      { when: { hit: true }, text: '{combatantId} hits {targetId}: {total} against AC {ac}, {damage} damage.' },
      { text: '{combatantId} misses {targetId}.' },
    ],
    'x.ruled': '{combatantId} takes {damage} damage.',
  },
  rulings: [
    {
      list: 'attacks',
      title: 'Pending attack',
      text: '{by} attacks {target}.',
      command: 'resolveAttack',
      idField: 'attackId',
      choices: [{ label: 'Hit', fields: { hit: true } }],
    },
  ],
};

const fighter = (id: string, name: string, hp: number, controller: string | null) => ({
  id,
  name,
  side: controller ? 'heroes' : 'foes',
  controller,
  hidden: false,
  secretStats: [],
  stats: { hp: 10 },
  position: null,
  items: [],
  data: { hp },
});

function encounter(over: Partial<EncounterState> = {}): EncounterState {
  return {
    id: 'e1',
    name: 'Ford',
    ruleset: 'x',
    options: {},
    version: 7,
    status: 'active',
    clock: { round: 1, phase: null, order: ['o', 'a', 'm', 'b'], current: 'o' },
    sides: {},
    combatants: {
      a: fighter('a', 'Aria', 10, 'p1'),
      b: fighter('b', 'Bram', 10, 'p1'),
      o: fighter('o', 'Orc', 0, null),
      m: fighter('m', 'Minion', 4, null),
    },
    effects: [],
    reaction: null,
    rng: [1, 2, 3, 4],
    forcedRolls: [],
    rolls: [],
    rs: {},
    ...over,
  };
}
const mine = (id: string) => id === 'a' || id === 'b';
const player = { role: 'player', mine } as const;

describe('what my command did, in the game’s words', () => {
  const attack = { type: 'x.attack', combatantId: 'a', targetId: 'o', total: 18, ac: 10, hit: true, damage: 5 };
  const own = { label: 'Attack, close', branch: 0, entry: { seq: 8, events: [attack] } };

  it('the sentences of its events, then of what followed it in the turn (the GM’s ruling), not "done."', () => {
    const log = [
      { seq: 8, events: [attack] },
      { seq: 9, events: [{ type: 'x.ruled', combatantId: 'o', damage: 5 }] },
    ];
    expect(ownResult(display, encounter(), log, own, 0, 7, player)).toEqual([
      'Aria hits Orc: 18 against AC 10, 5 damage.',
      'Orc takes 5 damage.',
    ]);
    // the ack came before its patch: its own events
    expect(ownResult(display, encounter(), [], own, 0, 7, player)).toEqual(['Aria hits Orc: 18 against AC 10, 5 damage.']);
  });

  it('nothing once the turn moved on after it, or after an undo; its label when it told nothing', () => {
    expect(ownResult(display, encounter(), [], own, 0, 9, player)).toEqual([]);
    expect(ownResult(display, encounter(), [], own, 1, 7, player)).toEqual([]);
    const quiet = { label: 'Stand up', branch: 0, entry: { seq: 8, events: [{ type: 'x.bookkeeping' }] } };
    expect(ownResult(display, encounter(), [], quiet, 0, 7, player)).toEqual(['Stand up: done.']);
  });

  it('the turn key changes with who acts, the phase, the status and the branch', () => {
    const s = encounter();
    expect(turnKey(s, 0)).not.toBe(turnKey({ ...s, clock: { ...s.clock, current: 'a' } }, 0));
    expect(turnKey(s, 0)).not.toBe(turnKey(s, 1));
    expect(turnKey(s, 0)).not.toBe(turnKey({ ...s, status: 'ended' }, 0));
  });
});

describe('what a player waits for', () => {
  const window = (responses: Record<string, 'pending' | 'passed'>) => ({
    id: 'w',
    kind: 'x.aoo',
    trigger: { combatantId: 'a', action: 'strike', description: 'Aria strikes' },
    eligible: Object.keys(responses),
    responses,
    allowed: [],
    resume: null,
  });

  it('the GM’s NPCs that may react (the turn cannot end meanwhile), other players, the GM’s rulings about mine', () => {
    expect(waitingFor(display, encounter({ reaction: window({ o: 'pending', m: 'passed' }) }), mine)).toEqual({
      lines: ['Waiting for the GM: Orc may react.'],
      rulings: [],
      blocks: true,
    });
    const other = (id: string) => id === 'o';
    expect(waitingFor(display, encounter({ reaction: window({ a: 'pending' }) }), other).lines).toEqual(['Waiting for Aria to react.']);
    const rs = { attacks: [{ id: 'at1', by: 'a', target: 'o' }] };
    expect(waitingFor(display, encounter({ rs }), mine)).toEqual({
      lines: ['Waiting for the GM to rule (pending attack): Aria attacks Orc.'],
      rulings: ['Waiting for the GM to rule (pending attack): Aria attacks Orc.'],
      blocks: false,
    });
    expect(waitingFor(display, encounter({ rs }), (id) => id === 'm').lines).toEqual([]);
  });
});

describe('when I act, and how the fight ended', () => {
  it('"You\'re next", else who acts before me and how far away', () => {
    expect(upNext(encounter(), mine)).toBe("You're next (Aria).");
    expect(upNext(encounter({ clock: { round: 1, phase: null, order: ['o', 'a', 'm', 'b'], current: 'a' } }), (id) => id === 'b')).toBe(
      'Bram acts after Minion (2nd from now).',
    );
    expect(upNext(encounter({ status: 'setup' }), mine)).toBeNull();
  });

  it('who stands and who is down, from the vitals’ thresholds', () => {
    expect(fightOver(display, encounter({ status: 'ended' }), () => true)).toEqual({
      standing: ['Aria', 'Bram', 'Minion'],
      down: ['Orc (down)'],
    });
  });
});
