import { describe, expect, it } from 'vitest';
import { emptyDisplay } from '../../src/lib/display.js';
import { rewindLine, withRewinds, type RewindNote } from '../../src/lib/rewinds.js';
import { story, type Reader } from '../../src/lib/story.js';
import type { EncounterState, LogEntry } from '../../src/lib/types.js';

/** A player's view: Alba is theirs; the spy is hidden from them (not in their state). */
const state = {
  combatants: { alba: { id: 'alba', name: 'Alba' }, orc: { id: 'orc', name: 'Orc' } },
  rolls: [],
} as unknown as EncounterState;
const player: Reader = { role: 'player', mine: (id) => id === 'alba' };
const names = { state, effects: new Map() };
const log: LogEntry[] = [
  { seq: 1, events: [{ type: 'combatant.added', combatantId: 'alba', combatant: { name: 'Alba' } }] },
  { seq: 2, events: [{ type: 'combat.started' }, { type: 'clock.changed', round: 1, current: 'orc' }] },
  { seq: 3, events: [{ type: 'clock.changed', round: 2, current: 'alba' }] },
  // the spy's turn, as a player's projection has it: no one named
  { seq: 4, events: [{ type: 'clock.changed', current: null }] },
];
const note = (over: Partial<RewindNote>): RewindNote => ({
  branch: 1,
  fromBranch: 0,
  fromVersion: 6,
  toVersion: 3,
  at: null,
  undone: [],
  undoneCount: 3,
  ...over,
});
const attack = {
  seq: 4,
  commandId: 'c4',
  at: null,
  events: [
    {
      type: 'dice.rolled',
      rollId: 'r1',
      formula: '1d20',
      faces: [{ sides: 20, value: 14 }],
      total: 14,
      purpose: 'attack',
      combatantId: 'orc',
    },
  ],
};

describe('the GM’s rewinds in the game-words log', () => {
  it('an undo says what was undone as this viewer saw it; nothing when the viewer saw none of it', () => {
    expect(rewindLine(emptyDisplay, names, note({ fromVersion: 4, undoneCount: 1, undone: [attack] }), log, player)).toBe(
      'The GM undid the last action: Orc: attack — 14.',
    );
    expect(
      rewindLine(emptyDisplay, names, note({ fromVersion: 4, undoneCount: 1, undone: [{ ...attack, events: [] }] }), log, player),
    ).toBe('The GM undid the last action.');
  });

  it('a rewind says where the fight went back to: the round and whose turn, never a combatant the viewer cannot see', () => {
    expect(rewindLine(emptyDisplay, names, note({ toVersion: 3, undone: [attack] }), log, player)).toBe(
      'The GM rewound the fight to round 2, Alba’s turn, undoing 3 actions: Orc: attack — 14. …',
    );
    expect(rewindLine(emptyDisplay, names, note({ toVersion: 4 }), log, player)).toBe(
      'The GM rewound the fight to round 2, undoing 3 actions.',
    );
    expect(rewindLine(emptyDisplay, names, note({ toVersion: 1 }), log, player)).toBe(
      'The GM rewound the fight to before the fight began, undoing 3 actions.',
    );
  });

  it('the line sits where the fight went back to, before what came after', () => {
    const entries = withRewinds(story(emptyDisplay, names, log, player), [note({ toVersion: 1 })], () => 'rewound');
    expect(entries.map((e) => e.key ?? e.seq)).toEqual([1, 'rewind-1', 2]);
  });
});
