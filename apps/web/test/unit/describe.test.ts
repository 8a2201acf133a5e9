import { describe, expect, it } from 'vitest';
import { describeEvent, formatCost, formatDuration, formatFaces, rollOf } from '../../src/lib/describe.js';
import { parseRoute } from '../../src/lib/router.js';
import type { EncounterState } from '../../src/lib/types.js';

const state = {
  combatants: { a: { id: 'a', name: 'Aria' }, b: { id: 'b', name: 'Borin' } },
  rolls: [],
} as unknown as EncounterState;

describe('what the log says', () => {
  it('a roll: who, why, formula, every face (dropped ones marked), total', () => {
    const e = {
      type: 'dice.rolled',
      rollId: 'r3.1',
      formula: '2d12kl1',
      faces: [
        { sides: 12, value: 9, kept: false },
        { sides: 12, value: 4, kept: true },
      ],
      total: 4,
      purpose: 'turn order roll',
      combatantId: 'a',
    };
    const r = rollOf(state, e)!;
    expect(r).toMatchObject({ who: 'Aria', purpose: 'turn order roll', formula: '2d12kl1', total: 4, secret: false });
    expect(formatFaces(r.faces)).toBe('d12:9 (dropped), d12:4');
  });

  it('core events in words, ruleset events with names for ids', () => {
    expect(describeEvent(state, { type: 'clock.changed', round: 2, phase: 'action', current: 'b' })).toBe(
      "Clock: round 2, phase action, Borin's turn.",
    );
    expect(
      describeEvent(state, {
        type: 'effect.applied',
        effect: {
          id: 'e1',
          name: 'Stunned',
          condition: 'stunned',
          targetId: 'a',
          sourceId: null,
          duration: { unit: 'round', count: 2 },
          expires: null,
          startedAt: { round: 1, phase: null, current: null },
        },
      }),
    ).toBe('stunned on Aria (2 rounds).');
    expect(describeEvent(state, { type: 'legends.attacked', combatantId: 'b', targetId: 'a', range: 'short' })).toBe(
      'legends.attacked — combatant: Borin; target: Aria; range: short',
    );
    expect(describeEvent(state, { type: 'reaction.responded', combatantId: 'a', response: 'passed', by: 'gm' })).toBe(
      'Aria passes (GM resolved).',
    );
  });

  it('costs and durations', () => {
    expect(formatCost({ major: 1, free: 0 })).toBe('1 major');
    // units in words, never a raw key: "1 movement roll", "2 AP"
    expect(formatCost({ movementRoll: 1 })).toBe('1 movement roll');
    expect(formatCost({ ap: 2 })).toBe('2 AP');
    expect(formatDuration(null)).toBe('until removed');
    expect(formatDuration({ unit: 'turn', count: 1 })).toBe('1 turn');
    expect(formatDuration({ unit: 'segments', count: 3 })).toBe('3 segments');
  });
});

describe('routes', () => {
  it('GM console, invite links with the token after #, unknown paths', () => {
    expect(parseRoute('/', '')).toEqual({ name: 'home' });
    expect(parseRoute('/gm', '')).toEqual({ name: 'gm' });
    expect(parseRoute('/gm/e/enc_1', '')).toEqual({ name: 'console', encounterId: 'enc_1' });
    expect(parseRoute('/play/enc_1', '#tok')).toEqual({ name: 'play', encounterId: 'enc_1', token: 'tok' });
    expect(parseRoute('/watch/enc_1', '')).toEqual({ name: 'watch', encounterId: 'enc_1', token: '' });
    expect(parseRoute('/gm/e/enc_1/replay', '')).toEqual({ name: 'replay', encounterId: 'enc_1' });
    expect(parseRoute('/replay', '#fray_rpl_x')).toEqual({ name: 'shared-replay', token: 'fray_rpl_x' });
    expect(parseRoute('/nope', '')).toEqual({ name: 'missing', path: '/nope' });
  });
});
