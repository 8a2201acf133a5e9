import { describe, expect, it } from 'vitest';
import { started, type Spec, type Table } from './helpers.js';

const sword = {
  id: 'sword',
  name: 'Sword',
  location: 'right-hand',
  props: { weapon: 'melee', type: 'sword', oneHanded: { STR: 8 }, twoHanded: { STR: 5 } },
};
const shield = { id: 'shield', name: 'Shield', location: 'left-hand' };
const rope = { id: 'rope', name: 'Rope', location: 'carried' };
const dagger = { id: 'dagger', name: 'Dagger', location: 'carried', props: { weapon: 'melee', type: 'dagger' } };
const specs: Spec[] = [
  { id: 'a1', side: 'h', STR: 6, items: [sword, shield, rope, dagger], stats: { competences: ['dagger'] } },
  { id: 'a2', side: 'h', items: [{ id: 'torch', name: 'Torch', location: 'carried' }] },
  { id: 'b1', side: 'f', items: [{ id: 'axe', name: 'Axe', location: 'right-hand', props: { weapon: 'melee', type: 'axe' } }] },
  { id: 'b2', side: 'f' },
];
const engaged = (t: Table) => {
  t.do({ type: 'formGroup', combatantIds: ['a1', 'a2'] });
  t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'b1', 'b2'] });
};
const item = (t: Table, owner: string, id: string) => t.c(owner).items.find((i) => i.id === id);

function go(setup?: (t: Table) => void) {
  const t = started(specs, { setup, options: { firstRoundGroupDefense: false } });
  expect(t.clock.phase).toBe('action');
  return t;
}

describe('legends: inventory actions', () => {
  it('"You may drop an object from one or both of your hands as a free action ... These may be done on the same turn as any of the following inventory actions."', () => {
    const t = go();
    t.do({ type: 'act', combatantId: 'a1', action: 'drop' });
    expect(item(t, 'a1', 'sword')!.location).toBe('ground');
    expect(item(t, 'a1', 'shield')!.location).toBe('ground');
    t.do({ type: 'act', combatantId: 'a1', action: 'draw', itemId: 'rope' });
    expect(item(t, 'a1', 'rope')!.location).toBe('right-hand');
  });

  it('"As a free action, you may draw a single item." / "you must have a free hand in order to grab an item"', () => {
    const t = go();
    t.refuse({ type: 'act', combatantId: 'a1', action: 'draw', itemId: 'rope' }, 'legends.free-hands');
    // "may freely move an item from one hand to the other" — not into a full hand
    t.refuse({ type: 'act', combatantId: 'a1', action: 'swap-hands', itemId: 'sword', hand: 'left-hand' }, 'legends.free-hands');
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.do({ type: 'act', combatantId: 'a1', action: 'swap-hands', itemId: 'sword', hand: 'left-hand' });
    t.do({ type: 'act', combatantId: 'a1', action: 'draw', itemId: 'rope' });
    expect(item(t, 'a1', 'rope')!.location).toBe('right-hand');
  });

  it('"can be either a free, minor, or major action. You must choose one of the three."', () => {
    const t = go();
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.do({ type: 'act', combatantId: 'a1', action: 'draw', itemId: 'rope' });
    t.refuse(
      { type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'stow', itemId: 'rope' }] },
      'legends.inventory.choose-one',
    );
  });

  it('"As a minor action, you can choose one of the following options" / "As a major action, you may choose up to three"', () => {
    const t = go();
    t.refuse(
      {
        type: 'act',
        combatantId: 'a1',
        action: 'inventory',
        ops: [
          { op: 'stow', itemId: 'sword' },
          { op: 'stow', itemId: 'shield' },
        ],
      },
      'legends.inventory',
    );
    t.do({
      type: 'act',
      combatantId: 'a1',
      action: 'inventory',
      as: 'major',
      ops: [
        { op: 'stow', itemId: 'sword' },
        { op: 'stow', itemId: 'shield' },
        { op: 'draw', itemId: 'dagger' },
      ],
    });
    expect(t.c('a1').items.map((i) => i.location)).toEqual(['carried', 'carried', 'carried', 'right-hand']);
    expect(t.clock.current).toBe('a2');
  });

  it('the table may restrict the minor inventory options (minorInventoryOptions)', () => {
    const t = started(specs, { options: { minorInventoryOptions: ['stow'] } });
    t.refuse(
      { type: 'act', combatantId: 'a1', action: 'inventory', as: 'major', ops: [{ op: 'draw', itemId: 'rope' }] },
      'legends.inventory',
    );
  });

  it('"Any hand that is used to hang onto an item or perform a major action will continue to be unavailable until your next turn."', () => {
    const t = go();
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.do({ type: 'defineAction', action: { key: 'cast', name: 'Cast a gesture spell', kinds: ['major'], hands: 1 } });
    t.do({ type: 'act', combatantId: 'a1', action: 'cast' });
    expect(t.c('a1').data.busyHands).toBe(1);
    t.skipTo('action', 2);
    expect(t.clock.current).toBe('a1');
    expect(t.c('a1').data.busyHands).toBe(0);
  });

  it('"If you are holding two objects ... you must put away or drop an object in order to do something that requires a free hand"', () => {
    const t = go(engaged);
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2' }, 'legends.free-hands');
  });

  it('"a tech counts as having hands, and an animal does not"', () => {
    const t = started(
      [
        { id: 'wolf', side: 'f', stats: { kind: 'animal' } },
        { id: 'bot', side: 'f', stats: { kind: 'tech' } },
        { id: 'h', side: 'h' },
      ],
      {
        setup: (t) => t.do({ type: 'formGroup', combatantIds: ['wolf', 'bot'] }),
        options: { firstRoundGroupDefense: false },
      },
    );
    t.endTurnsUntil('bot');
    t.do({ type: 'act', combatantId: 'bot', action: 'touch', targetId: 'wolf' });
    t.do({ type: 'turn.end', combatantId: 'bot' });
    expect(t.clock.current).toBe('h');
    t.skipTo('action', 2);
    t.endTurnsUntil('wolf');
    t.refuse({ type: 'act', combatantId: 'wolf', action: 'touch', targetId: 'bot' }, 'legends.free-hands');
  });
});

describe('legends: dropped items in engagements', () => {
  it('"you can pick up any item that you dropped on your immediately previous turn, if you have not attempted a movement roll since then"', () => {
    const t = go(engaged);
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.skipTo('action', 2);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', itemId: 'shield' }] });
    expect(ev.some((e) => e.type === 'dice.rolled')).toBe(false);
    expect(item(t, 'a1', 'shield')!.location).toBe('left-hand');
  });

  it('"Otherwise, picking up an item dropped by any character in an engagement requires a d12 roll on either DEX or SPD (your choice); outnumbering dice apply"', () => {
    const t = go(engaged);
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.skipTo('action', 3);
    t.force(12); // fail
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', itemId: 'shield', stat: 'SPD' }] });
    const roll = ev.find((e) => e.type === 'dice.rolled')!;
    expect(roll.formula).toBe('1d12');
    expect(roll.purpose).toMatch(/d12 on SPD/);
    expect(item(t, 'a1', 'shield')!.location).toBe('ground');
    // "If you fail the roll and picking the item up would have been a minor action for you, you may devote your major action to the attempt and roll again."
    t.force(1);
    t.do({ type: 'act', combatantId: 'a1', action: 'pickup-retry' });
    expect(item(t, 'a1', 'shield')!.location).toBe('left-hand');
  });

  it('no retry without a failed minor-action pickup', () => {
    const t = go(engaged);
    t.refuse({ type: 'act', combatantId: 'a1', action: 'pickup-retry' }, 'legends.dropped-items');
  });

  it('"you can attempt to pick up an item dropped by an enemy, provided they dropped it before their immediately previous turn"', () => {
    const t = go(engaged);
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.endTurnsUntil('b1');
    t.do({ type: 'act', combatantId: 'b1', action: 'drop', itemId: 'axe' });
    t.skipTo('action', 2);
    // b1's immediately previous turn was the one it dropped the axe in
    t.refuse({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', itemId: 'axe' }] }, 'legends.dropped-items');
    t.skipTo('action', 3);
    t.force(1);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', itemId: 'axe', stat: 'DEX' }] });
    expect(ev.find((e) => e.type === 'dice.rolled')!.purpose).toMatch(/d12 on DEX/);
    expect(item(t, 'a1', 'axe')!.location).toBe('left-hand');
    expect(item(t, 'b1', 'axe')).toBeUndefined();
  });

  it('outside an engagement, dropped items are picked up without a roll', () => {
    const t = go();
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.skipTo('action', 3);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', itemId: 'shield' }] });
    expect(ev.some((e) => e.type === 'dice.rolled')).toBe(false);
  });

  it('"Items dropped due to Hand/Arm Injuries fall under the rules above, as if you had dropped them on your previous turn."', () => {
    const t = go(engaged);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'dropItem', combatantId: 'a1', itemId: 'sword' });
    t.skipTo('action', 2);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', itemId: 'sword' }] });
    expect(ev.some((e) => e.type === 'dice.rolled')).toBe(false);
  });
});

describe('legends: fallen characters and dropped items', () => {
  it('"If you are incapacitated or paralyzed, you will technically drop any item(s) in your hands ... if you are healed, you may pick up these items again as a free action, without a roll"', () => {
    const t = go(engaged);
    const down = t.do({ type: 'effect.apply', targetId: 'a1', name: 'Paralyzed', condition: 'paralyzed' });
    expect(down.filter((e) => e.type === 'legends.itemMoved')).toHaveLength(2);
    expect(item(t, 'a1', 'sword')!.location).toBe('ground');
    t.do({ type: 'effect.remove', effectId: t.effectsOn('a1')[0]!.id });
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'recover-items' });
    expect(ev.some((e) => e.type === 'dice.rolled')).toBe(false);
    expect(item(t, 'a1', 'sword')!.location).not.toBe('ground');
    expect(item(t, 'a1', 'shield')!.location).not.toBe('ground');
  });

  it('"Any ally that can touch your body can put away a single item back into your inventory as a major action."', () => {
    const t = go(engaged);
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Down', condition: 'incapacitated' });
    expect(t.clock.current).toBe('a1');
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'stow-for-ally', targetId: 'a1', itemId: 'sword' });
    expect(item(t, 'a1', 'sword')!.location).toBe('carried');
  });

  it('"If your body is moved in any way ... this special status ceases"', () => {
    const t = go(engaged);
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Down', condition: 'incapacitated' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'inventory', ops: [{ op: 'pickup', carryId: 'a1' }] });
    expect((item(t, 'a1', 'sword')!.props!.dropped as { fallen: boolean }).fallen).toBe(false);
  });
});

describe('legends: giving items', () => {
  it('"Offering the item does not require an action ... Taking the item is a minor inventory action ... You must be grouped-up"', () => {
    const t = go(engaged);
    const ev = t.do({ type: 'offerItem', combatantId: 'a1', itemId: 'shield', toId: 'a2' });
    const offerId = (ev[0]!.offer as { id: string }).id;
    expect(t.c('a1').data.turn.seq).toEqual([]);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'inventory', ops: [{ op: 'take', offerId }] });
    expect(item(t, 'a2', 'shield')!.location).toBe('right-hand');
    expect(t.c('a2').data.turn.minors).toEqual(['inventory']);
    // "Giving items with these rules (by either method) does not count as a touch."
    expect(t.state.rs.touches).toEqual([]);
    t.refuse({ type: 'offerItem', combatantId: 'b1', itemId: 'axe', toId: 'a1' }, 'legends.giving');
  });

  it('"You may also offer an item from your inventory that is not currently in your hands ... This is a minor action for both you and the recipient."', () => {
    const t = go(engaged);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'offer-from-inventory', targetId: 'a2', itemId: 'rope' });
    const offerId = (ev.find((e) => e.type === 'legends.offered')!.offer as { id: string }).id;
    expect(t.c('a1').data.turn.minors).toEqual(['offer-from-inventory']);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'inventory', ops: [{ op: 'take', offerId }] });
    expect(item(t, 'a2', 'rope')!.location).toBe('right-hand');
  });

  it('"providing it is not concealed" / "you may use the same rules to add an item to a willing character\'s inventory"', () => {
    const t = started(
      [
        { ...specs[0]!, items: [{ id: 'note', name: 'Note', location: 'carried', tags: ['concealed'] }, rope] },
        specs[1]!,
        specs[2]!,
        specs[3]!,
      ],
      { setup: engaged, options: { firstRoundGroupDefense: false } },
    );
    t.refuse({ type: 'act', combatantId: 'a1', action: 'offer-from-inventory', targetId: 'a2', itemId: 'note' }, 'legends.giving');
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'give-into-inventory', targetId: 'a2', itemId: 'rope' });
    const offerId = (ev.find((e) => e.type === 'legends.offered')!.offer as { id: string }).id;
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'inventory', ops: [{ op: 'accept', offerId }] });
    expect(item(t, 'a2', 'rope')!.location).toBe('carried');
  });
});

describe('legends: touching', () => {
  const free: Spec[] = [
    { id: 'a1', side: 'h' },
    { id: 'a2', side: 'h' },
    { id: 'a3', side: 'h' },
    { id: 'a4', side: 'h' },
    { id: 'b1', side: 'f' },
    { id: 'b2', side: 'f' },
  ];
  const grouped = (t: Table) => t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3', 'a4'] });

  it('"a slowing free action that requires a free hand, and you may only touch one character per turn"', () => {
    const t = started(free, { setup: grouped, options: { firstRoundGroupDefense: false } });
    t.do({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2' });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a3' }, 'legends.touch', 'BUDGET_EXHAUSTED');
    // "Touching normally lasts until the end of the toucher's turn"
    expect(t.state.rs.touches).toHaveLength(1);
    t.do({ type: 'turn.end', combatantId: 'a1' });
    expect(t.state.rs.touches).toHaveLength(0);
  });

  it('"You must be grouped-up with any ally you touch" / "If the character is unwilling, you may only touch them if you are in a grapple."', () => {
    const t = started(free, { options: { firstRoundGroupDefense: false } });
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2' }, 'legends.touch');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'b1' }, 'legends.touch');
    t.do({ type: 'effect.apply', targetId: 'a1', name: 'Grappling b1', condition: 'grappling' });
    t.do({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'b1' });
  });

  it('"Characters can only be touched via these rules by 2 characters per round"', () => {
    const t = started(free, { setup: grouped, options: { firstRoundGroupDefense: false } });
    t.do({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a4' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'touch', targetId: 'a4', until: 'next-turn' });
    t.do({ type: 'turn.end', combatantId: 'a2' });
    t.refuse({ type: 'act', combatantId: 'a3', action: 'touch', targetId: 'a4' }, 'legends.touch');
  });

  it('"Characters who make a movement roll ... are no longer considered touching"; touching is slowing', () => {
    const t = started(free, { setup: grouped, options: { firstRoundGroupDefense: false } });
    t.do({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2', until: 'maintained' });
    t.skipTo('movement', 2);
    expect(t.state.rs.touches).toHaveLength(1);
    t.force(1);
    t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'hill' } });
    expect(t.state.rs.touches).toHaveLength(0);
    t.do({ type: 'finishMove', combatantId: 'a1' });
    t.skipTo('action', 2);
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'a2' }, /legends\.(slowing|touch)/);
  });
});

describe('legends: wielding and competence', () => {
  it('"they meet the stat requirements to do so in the manner they are currently holding it (two-handed or one-handed)"', () => {
    const t = go(engaged);
    // one-handed needs STR 8; a1 has 6
    const e = t.refuse({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'sword' }, 'legends.wielding');
    expect(e.message).toMatch(/STR 8/);
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.do({ type: 'act', combatantId: 'a1', action: 'swap-hands', itemId: 'sword', hand: 'both-hands' });
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'sword' });
    // "Without competence, both melee and ranged attacks are much less effective."
    expect(ev.find((e) => e.type === 'legends.attacked')).toMatchObject({ weaponId: 'sword', competent: false });
  });

  it('"They are wielding a weapon competently if they have a corresponding Ability"', () => {
    const t = go(engaged);
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'shield' });
    t.do({ type: 'act', combatantId: 'a1', action: 'draw', itemId: 'dagger' });
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'dagger' });
    expect(ev.find((e) => e.type === 'legends.attacked')).toMatchObject({ competent: true });
  });

  it('"A character must be wielding a weapon in order to use it to attack": a weapon in the pack is not wielded; melee needs the engagement', () => {
    const t = go();
    t.refuse({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'dagger' }, 'legends.wielding');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1' }, 'legends.engagement');
  });

  it('"If a character requires two hands to meet the stat requirements ... they are not considered to be wielding it if they hold it in one hand"', () => {
    const t = started(
      [
        {
          id: 'a',
          side: 'h',
          items: [{ id: 'pike', name: 'Pike', location: 'right-hand', props: { weapon: 'melee', type: 'polearm', twoHandedOnly: true } }],
        },
        { id: 'b', side: 'f' },
      ],
      {
        setup: (t) => t.do({ type: 'formEngagement', combatantIds: ['a', 'b'] }),
      },
    );
    t.refuse({ type: 'act', combatantId: 'a', action: 'melee-attack', targetId: 'b', weaponId: 'pike' }, 'legends.wielding');
  });
});
