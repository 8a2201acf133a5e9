import { describe, expect, it } from 'vitest';
import { ACTIONS, REACTIONS, actionPoints } from '../../src/action-points/index.js';
import { act, encounter, legal, until } from './helpers.js';

/** The action list of the text: [id, type, AP, subtypes]. "(Combat; 2 AP)" is read as the attack subtype. */
const TEXT: Array<[string, string, number, string[]]> = [
  ['aid-another', 'simple', 1, ['attack']],
  ['appraise-item', 'simple', 1, []],
  ['attack', 'simple', 1, ['attack']],
  ['bull-rush', 'simple', 1, ['attack']],
  ['cast-swift-spell', 'simple', 1, []],
  ['control-mount', 'simple', 1, ['complex']],
  ['demoralize', 'simple', 1, []],
  ['direct-spell', 'simple', 1, []],
  ['dismiss-spell', 'simple', 1, []],
  ['disarm', 'simple', 1, ['attack']],
  ['draw-sheathe', 'simple', 1, []],
  ['escape-grapple', 'simple', 1, []],
  ['feint', 'simple', 1, ['attack']],
  ['handle-animal', 'simple', 1, []],
  ['light-torch', 'simple', 1, []],
  ['load-light-crossbow', 'simple', 1, ['complex']],
  ['lower-spell-resistance', 'simple', 1, []],
  ['manipulate-item', 'simple', 1, ['complex']],
  ['move', 'simple', 1, ['move']],
  ['mount-dismount', 'simple', 1, ['move']],
  ['open-close-door', 'simple', 1, []],
  ['overrun', 'simple', 1, ['attack']],
  ['ready', 'simple', 1, []],
  ['ready-drop-shield', 'simple', 1, []],
  ['remove-dirty-trick', 'simple', 1, []],
  ['search', 'simple', 1, []],
  ['spell-combat', 'simple', 1, ['attack', 'complex']],
  ['step', 'simple', 1, []],
  ['sunder', 'simple', 1, ['attack']],
  ['trip', 'simple', 1, ['attack']],
  ['administer-potion', 'full-round', 3, ['complex']],
  ['appraise-hoard', 'full-round', 3, []],
  ['cast-round-spell', 'advanced', 3, ['complex']],
  ['cast-standard-spell', 'advanced', 2, ['complex']],
  ['charge', 'advanced', 2, ['move']],
  ['concentrate', 'advanced', 2, []],
  ['continue-grapple', 'advanced', 2, []],
  ['coup-de-grace', 'full-round', 3, ['complex']],
  ['dirty-trick', 'advanced', 2, ['attack']],
  ['disable-device', 'advanced', 3, ['complex']],
  ['drag', 'advanced', 2, ['attack']],
  ['drink', 'advanced', 2, ['complex']],
  ['escape-net', 'advanced', 2, ['complex']],
  ['extinguish-flames', 'advanced', 2, ['complex']],
  ['find-tracks', 'advanced', 3, []],
  ['initiate-grapple', 'advanced', 2, ['attack']],
  ['load-heavy-crossbow', 'advanced', 2, ['complex']],
  ['load-firearm-one-handed', 'advanced', 2, ['complex']],
  ['load-firearm-two-handed', 'full-round', 3, ['complex']],
  ['lock-gauntlet', 'advanced', 2, ['complex']],
  ['natural-attacks', 'full-round', 3, ['attack']],
  ['prepare-oil', 'advanced', 2, ['complex']],
  ['first-aid', 'advanced', 2, ['complex']],
  ['push-animal', 'full-round', 3, []],
  ['reposition', 'advanced', 2, ['attack']],
  ['run', 'full-round', 3, ['move']],
  ['sleight-of-hand', 'advanced', 2, ['complex']],
  ['spellstrike', 'advanced', 2, ['complex']],
  ['steal', 'advanced', 2, ['attack']],
  ['total-defense', 'advanced', 2, []],
  ['command-word', 'advanced', 2, []],
  ['spell-completion', 'advanced', 2, ['complex']],
  ['spell-trigger', 'advanced', 2, []],
  ['supernatural-ability', 'advanced', 2, []],
  ['touch-six-allies', 'full-round', 3, ['complex']],
  ['cast-defensively', 'free', 0, []],
  ['cease-concentrating', 'free', 0, []],
  ['draw-nock', 'free', 0, []],
  ['drop-item', 'free', 0, []],
  ['drop-prone', 'free', 0, []],
  ['fight-defensively', 'free', 0, []],
  ['prepare-components', 'free', 0, []],
  ['recall-knowledge', 'free', 0, []],
  ['speak', 'free', 0, []],
  ['free-ability', 'free', 0, []],
];

describe('every action of the text, as data', () => {
  it('"The sections below divide actions by type and describe them in more detail including subtype, AP required"', () => {
    for (const [id, type, ap, subtypes] of TEXT) {
      const a = ACTIONS.find((x) => x.id === id);
      expect(a, id).toBeDefined();
      expect([id, a!.type, a!.ap, a!.subtypes]).toEqual([id, type, ap, subtypes]);
    }
    expect(REACTIONS.map((r) => r.id)).toEqual(['complete-ready', 'attack-of-opportunity', 'spend-aoo', 'immediate-action']);
    const cat = actionPoints.catalogue.map((c) => c.id);
    for (const [id] of TEXT) expect(cat).toContain(id);
  });

  it('"Disable Device (Complex; At Least 3 AP)" and "Find Tracks (At Least 3 AP)": the cost is at least 3', () => {
    let s = encounter([{ id: 'pc', side: 'a', at: { x: 0, y: 0 } }]);
    s = until(s, 'pc', 'ready-missile');
    expect(act(s, 'pc', 'disable-device', { ap: 10, consecutive: false }).state.combatants.pc!.data.inProgress[0]).toMatchObject({
      cost: 10,
      consecutive: false,
    });
    expect(act(s, 'pc', 'find-tracks', { ap: 1 }).state.combatants.pc!.data.inProgress[0]!.cost).toBe(3);
  });

  it('feats change actions: Rapid Reload, Improved Feint, hasty sleight of hand, a companion pushed as a simple action', () => {
    let s = encounter([
      {
        id: 'pc',
        side: 'a',
        stats: {
          feats: ['rapid-reload', 'improved-feint'],
          weapons: [{ id: 'xb', name: 'Light crossbow', kind: 'crossbow', category: 'ranged', loaded: false }],
        },
        at: { x: 0, y: 0 },
      },
      { id: 'o', side: 'b', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    const opts = legal(s, 'pc');
    expect(opts.find((o) => o.action === 'load-light-crossbow')).toMatchObject({ kind: 'free', cost: { ap: 0 }, allowed: true });
    expect(opts.find((o) => o.action === 'feint')).toMatchObject({ subtype: ['safe'], earliestPhase: 'ready-missile' });
    const r = act(s, 'pc', 'load-light-crossbow');
    expect(r.state.combatants.pc!.data.ap).toBe(3);
    expect(r.state.combatants.pc!.data.unloaded).toEqual([]);
    expect(act(s, 'pc', 'sleight-of-hand', { hasty: true }).state.combatants.pc!.data.inProgress).toHaveLength(0);
    expect(act(s, 'pc', 'push-animal', { companion: true }).state.combatants.pc!.data.ap).toBe(2);
  });

  it('"Appraise a single item ... If you are holding the item ... this action has the complex subtype"; "When you search an area, this action has the complex subtype"', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'o', side: 'b', at: { x: 1, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    expect(act(s, 'pc', 'appraise-item').state.reaction).toBeNull();
    expect(act(s, 'pc', 'appraise-item', { holding: true }).state.reaction).not.toBeNull();
    expect(act(s, 'pc', 'search', { area: true }).state.reaction).not.toBeNull();
  });

  it('"Aid Another ... has all of the subtypes of the action you aid"', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'o', side: 'b', at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'ready-missile');
    expect(act(s, 'pc', 'aid-another', { aids: 'light-torch' }).state.combatants.pc!.data.ap).toBe(2);
    expect(() => act(s, 'pc', 'aid-another', { aids: 'attack' })).toThrow(/WRONG_PHASE/);
  });
});
