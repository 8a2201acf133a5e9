import { describe, expect, it } from 'vitest';
import { projectState } from '@fray/engine';
import { actionPoints } from '../../src/action-points/index.js';
import { act, encounter, legal, ok, until } from './helpers.js';

describe('legalActions', () => {
  it('gives each action with its AP cost, subtype, earliest phase, provocation (and from whom), blocked reasons, AP left and the advanced action in progress', () => {
    let s = encounter([
      { id: 'pc', side: 'a', stats: { weapons: [{ id: 'gs', name: 'Greatsword', category: 'two-handed' }] }, at: { x: 0, y: 0 } },
      { id: 'orc', side: 'b', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    let opts = legal(s, 'pc');
    const drink = opts.find((o) => o.action === 'drink')!;
    expect(drink).toMatchObject({
      command: 'act',
      kind: 'advanced',
      cost: { ap: 2 },
      subtype: ['complex'],
      earliestPhase: 'ready-missile',
      provokes: { from: ['orc'] },
      allowed: true,
      apLeft: 3,
      inProgress: [],
      template: { combatantId: 'pc', action: 'drink' },
    });
    const attack = opts.find((o) => o.action === 'attack')!;
    expect(attack).toMatchObject({
      allowed: false,
      earliestPhase: 'slow',
      subtype: ['attack'],
      blocked: { code: 'WRONG_PHASE', rule: 'action-points.action-speed' },
    });
    expect(opts.find((o) => o.action === 'step')).toMatchObject({ subtype: ['safe'], provokes: null, allowed: true });
    expect(opts.find((o) => o.action === 'move')).toMatchObject({ subtype: ['move'], earliestPhase: 'thrown' });
    // every action of the catalogue is listed, allowed or with a reason
    for (const o of opts.filter((x) => x.command === 'act')) expect(o.allowed || o.blocked !== undefined).toBe(true);

    s = act(s, 'pc', 'concentrate').state;
    opts = legal(s, 'pc');
    expect(opts[0]!.apLeft).toBe(2);
    expect(opts[0]!.inProgress).toEqual([{ key: expect.any(String), action: 'concentrate', spent: 1, cost: 2, consecutive: true }]);
    const cont = opts.find((o) => o.command === 'continue')!;
    expect(cont).toMatchObject({ allowed: false, blocked: { rule: 'action-points.advanced-one-ap-a-phase' } });
    // someone else's initiative: blocked with the reason
    const orcOpts = legal(s, 'orc');
    expect(orcOpts.find((o) => o.action === 'light-torch')!.blocked!.code).toBe('NOT_YOUR_TURN');
  });
});

describe('projection', () => {
  it('a hidden NPC\'s declared intent is not shown to players ("The Judge should also decide how other combatants intend to act")', () => {
    let s = encounter([
      { id: 'pc', side: 'a', controller: 'p1', at: { x: 0, y: 0 } },
      { id: 'orc', side: 'b', at: { x: 3, y: 0 } },
    ]);
    s = ok(s, { type: 'combatant.update', combatantId: 'orc', changes: { hidden: true } }).state;
    s = ok(s, { type: 'declare', combatantId: 'orc', intent: 'ambush the wizard' }).state;
    s = ok(s, { type: 'declare', combatantId: 'pc', intent: 'hold the door' }).state;
    const seen = projectState(actionPoints as never, s as never, { role: 'player', playerId: 'p1' }) as unknown as typeof s;
    expect(seen.rs.intents.map((i) => i.combatantId)).toEqual(['pc']);
    const gmView = projectState(actionPoints as never, s as never, { role: 'gm' }) as unknown as typeof s;
    expect(gmView.rs.intents).toHaveLength(2);
  });
});
