import { describe, expect, it } from 'vitest';
import { apply, createEncounter } from '../src/engine.js';
import { projectState } from '../src/projection.js';
import { projectEvents } from '../src/project-events.js';
import { projectActions, redactText, unseenBy, unseenNamedBy, withoutCombatants } from '../src/unseen.js';
import type { ActionOption, EncounterState, Viewer } from '../src/types.js';
import { mini } from './fixture.js';

/** "A hidden combatant's id never reaches a player or a spectator" (issue 29): the engine's parts. */

const gm = { role: 'gm' } as const;
const spectator: Viewer = { role: 'spectator' };
const p1: Viewer = { role: 'player', playerId: 'p1' };

function run(s: EncounterState, cmd: Record<string, unknown>) {
  const r = apply(mini as never, s as never, { by: gm, ...cmd });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}

/** Hero (p1's), and Shade, hidden, whose turn it is. */
function table(): EncounterState {
  let s = createEncounter(mini as never, { id: 'e', seed: 1 }) as EncounterState;
  s = run(s, {
    type: 'combatant.add',
    combatant: { id: 'hero', name: 'Hero', side: 'pcs', controller: 'p1', stats: { hp: 5, init: 1 } },
  }).state;
  s = run(s, {
    type: 'combatant.add',
    combatant: { id: 'shade', name: 'Shade', side: 'npcs', hidden: true, stats: { hp: 5, init: 9 } },
  }).state;
  s = run(s, { type: 'combat.start' }).state;
  if (s.clock.current !== 'shade') s = run(s, { type: 'turn.end', combatantId: s.clock.current }).state;
  expect(s.clock.current).toBe('shade');
  return s;
}

describe('what players and spectators see of hidden combatants', () => {
  it('"an effect applied while the hidden combatant\'s turn is current" shows no id of it: not as startedAt.current, not as its source', () => {
    const s = table();
    const r = run(s, {
      type: 'effect.apply',
      targetId: 'hero',
      sourceId: 'shade',
      name: 'Chill',
      data: { from: 'shade', note: 'Shade laughs', n: 2 },
    });
    for (const viewer of [spectator, p1]) {
      const view = projectState(mini as never, r.state as never, viewer);
      expect(view.effects).toHaveLength(1);
      expect(view.effects[0]).toMatchObject({
        name: 'Chill',
        sourceId: null,
        startedAt: { current: null },
        data: { from: null, note: 'someone laughs', n: 2 },
      });
      const events = projectEvents(r.events, viewer, r.state as never, view);
      expect(events.map((e) => e.type)).toContain('effect.applied');
      expect(JSON.stringify([view, events])).not.toContain('shade');
    }
    // the GM sees the effect whole
    expect(projectState(mini as never, r.state as never, gm).effects[0]).toMatchObject({
      sourceId: 'shade',
      startedAt: { current: 'shade' },
    });
  });

  it("a roll's purpose and a reaction trigger's description never name an unseen combatant", () => {
    const s = table();
    const r = run(s, { type: 'dice.roll', formula: '1d6', purpose: 'Hero dodges Shade', combatantId: 'hero' });
    const view = projectState(mini as never, r.state as never, spectator);
    expect(view.rolls.at(-1)!.purpose).toBe('Hero dodges someone');
    expect(JSON.stringify(projectEvents(r.events, spectator, r.state as never, view))).toContain('Hero dodges someone');
    expect(redactText('Shade moved; Shadeling stays; shade-2 too; shade waits', [{ id: 'shade', name: 'Shade' }])).toBe(
      'someone moved; Shadeling stays; shade-2 too; someone waits',
    );
  });

  it('legal actions list no unseen combatant as a choice, a provoker, or in their text', () => {
    const actions: ActionOption[] = [
      {
        command: 'attack',
        label: 'Attack (Shade is near)',
        allowed: false,
        blocked: { code: 'ILLEGAL_ACTION', rule: 'r', message: 'Shade blocks the way.' },
        params: [{ name: 'targetId', kind: 'combatant', options: ['hero', 'shade', { value: 'shade', label: 'Shade' }] }],
        provokes: { from: ['shade'], reason: 'Shade threatens you' },
        template: { combatantId: 'hero' },
      },
      { command: 'parry', label: 'Parry as Shade', allowed: true, template: { combatantId: 'shade' } },
    ];
    const out = projectActions(actions, unseenBy(table(), p1));
    expect(out).toHaveLength(1);
    expect(out[0]!.params![0]!.options).toEqual(['hero']);
    expect(out[0]!.provokes).toBeNull();
    expect(JSON.stringify(out)).not.toMatch(/shade/i);
    expect(projectActions(actions, [])).toBe(actions);
  });

  it('a command naming an unseen combatant is judged as if it did not exist', () => {
    const s = table();
    const unseen = unseenBy(s, p1);
    expect(unseen.map((u) => u.id)).toEqual(['shade']);
    expect(unseenNamedBy({ type: 'attack', combatantId: 'hero', targetIds: [{ id: 'shade' }], by: p1 }, unseen)).toEqual(['shade']);
    const without = withoutCombatants(s, ['shade']);
    expect(Object.keys(without.combatants)).toEqual(['hero']);
    expect(without.clock.order).toEqual(['hero']);
    expect(without.clock.current).toBeNull();
    // nothing of the hidden one when the player controls it
    expect(unseenBy(s, { role: 'player', playerId: 'p2' })).toEqual(unseen);
    expect(unseenBy(s, gm)).toEqual([]);
  });
});
