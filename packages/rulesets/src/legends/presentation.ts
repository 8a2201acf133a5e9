import { keepIf, keepKeys, mapValuesShared, withParts, type RulesetDisplay, type Viewer } from '@fray/engine';
import type { LRS, LState } from './state/index.js';

/** How `legends` is shown: see docs/rulesets/legends.md ("How it is shown"). */
export const display: RulesetDisplay = {
  vitals: [
    {
      key: 'fatigue',
      label: 'Fatigue',
      short: 'FAT',
      current: { in: 'data', key: 'fatigue' },
      direction: 'up',
      adjustable: true,
      doc: 'Fatigue taken (rushing gives 6 by default); it only grows in combat. Healing lowers it.',
    },
    {
      key: 'wounds',
      label: 'Wounds',
      short: 'WND',
      current: { in: 'data', key: 'wounds' },
      max: { in: 'stats', key: 'toughness' },
      direction: 'up',
      adjustable: true,
      doc: 'Wounds taken from confirmed attacks (option attackOutcome) or the GM; at the toughness (stat, default 10) the character is taken out (incapacitated). Healing lowers them.',
    },
  ],
  statGroups: [
    { label: 'Characteristics', stats: ['DEX', 'SPD', 'STR', 'externalSPD'] },
    { label: 'Movement', stats: ['encumbrance', 'mobilityInjury', 'sprintingFocus', 'vehicle', 'mountId', 'willingToBeCarried'] },
    { label: 'Body', stats: ['kind', 'hands', 'toughness'] },
    { label: 'Abilities', stats: ['competences', 'actions'] },
  ],
  statLabels: {
    DEX: 'DEX',
    SPD: 'SPD',
    STR: 'STR',
    externalSPD: 'External SPD',
    encumbrance: 'Encumbrance',
    mobilityInjury: 'Mobility Injury',
    sprintingFocus: 'Sprinting Focus',
    vehicle: 'Vehicle',
    mountId: 'Rides',
    kind: 'Kind',
    hands: 'Hands',
    toughness: 'Toughness',
    willingToBeCarried: 'Willing to be carried',
    competences: 'Competent with',
    actions: 'Ability actions',
  },
  internal: [
    'moveRollRound',
    'turn.n',
    'turn.seq',
    'turn.touched',
    'turn.pickupFailed',
    'turn.ended',
    'turn.forfeited',
    'turn.bypassed',
    'turn.verbal',
    'busyHands',
    'noMeleeUntilRound',
    'forfeitRound',
    'turnRound',
    'bypassedRound',
  ],
  dataLabels: {
    surprised: 'Surprised',
    stealth: 'Stealth',
    carriedBy: 'Carried by',
    'turn.free': 'Free actions this turn',
    'turn.minors': 'Minor actions this turn',
    'turn.major': 'Major action this turn',
  },
  effects: {
    units: {
      round: 'rounds',
      'movement-phase': 'movement phases',
      'end-of-round': 'to end of round',
      'start-of-turn': 'to start of turn',
      'end-of-turn': 'to end of turn',
      second: 'seconds',
    },
    conditions: ['surprised', 'grappled', 'paralyzed', 'deafened', 'unconscious', 'incapacitated'],
  },
  events: {
    'legends.attacked': [
      { when: { unarmed: true }, text: '{combatantId} attacks {targetId} unarmed ({attack}).' },
      { text: '{combatantId} attacks {targetId} with {weaponId} ({attack}).' },
    ],
    'legends.attackRolled': [
      {
        when: { 'attack.hit': true },
        text: '{combatantId} rolls {attack.total} to hit {targetId}: a hit for {attack.damage} damage ({attack.damageFormula}), waiting for the GM.',
      },
      { text: '{combatantId} rolls {attack.total} to hit {targetId}: a miss, waiting for the GM.' },
    ],
    'legends.attackResolved': [
      { when: { hit: true, changed: true }, text: 'The GM rules that {combatantId} hits {targetId} for {damage} damage.' },
      { when: { hit: true }, text: '{combatantId} hits {targetId} for {damage} damage.' },
      { when: { changed: true }, text: 'The GM rules that {combatantId} misses {targetId}.' },
      { text: '{combatantId} misses {targetId}.' },
    ],
    // the amount is the table's story; the total stays with the bars' secrecy (numbers for the GM and the controller)
    'legends.wounded': [
      { when: { healed: true }, text: '{combatantId} is healed ({reason}).' },
      { when: { amount: true }, text: '{combatantId} takes {amount} wounds ({reason}).' },
      { text: '{combatantId}: wounds unchanged.' },
    ],
    'legends.acted': [
      { when: { targetId: true }, text: '{combatantId} takes a {kind} action: {action} on {targetId}.' },
      { text: '{combatantId} takes a {kind} action: {action}.' },
    ],
    'legends.actionDefined': 'The GM defines the action {action.name}.',
    'legends.actionRemoved': 'The GM removes the action {key}.',
    'legends.actionResolved': [
      { when: { targetId: true }, text: '{combatantId}: {action} on {targetId} is resolved.' },
      { text: '{combatantId}: {action} is resolved.' },
    ],
    'legends.bypassRolled': [
      { when: { success: true }, text: '{combatantId} slips past (bypass roll made by {margin}).' },
      { text: '{combatantId} fails to slip past (bypass roll missed by {margin}).' },
    ],
    'legends.carried': '{combatantId} picks up and carries {targetId}.',
    'legends.carryEnded': '{combatantId} no longer carries {targetId}.',
    'legends.fatigueChanged': [
      { when: { $numbers: true }, text: '{combatantId} now has {fatigue} fatigue.' },
      { text: 'The fatigue of {combatantId} changes.' },
    ],
    'legends.forfeited': '{combatantId} forfeits this turn to change places in the turn order.',
    'legends.forfeitsCleared': 'Forfeited turns are cleared.',
    'legends.groupDefenseBrokenDown': 'The group defense of {group} breaks down.',
    'legends.groupDefenseDeclared': '{combatantId} defends the group {group}.',
    'legends.groupDefenseLeft': '{combatantId} leaves the group defense of {group}.',
    'legends.groupDefenseOverflow': 'Too many attackers: the group defense of {group} is overwhelmed.',
    'legends.groupDefenseReset': 'Group defenses end.',
    'legends.groupMoveAgreed': '{combatantId} agrees to move with the group {group}.',
    'legends.groupMoveDeclared': '{combatantId} proposes that the group {groupMove.group} moves together.',
    'legends.groupMoveEnded': 'The group {group} has moved.',
    'legends.groupMoveFailed': 'The group {group} does not move together.',
    'legends.groupMoveRolled': 'The group {group} rolls to move.',
    'legends.itemMoved': [
      { when: { location: 'ground' }, text: '{combatantId} drops {itemId}.' },
      { text: '{combatantId} puts {itemId} in {location}.' },
    ],
    'legends.moveFinished': '{combatantId} finishes moving.',
    'legends.moveRolled': [
      { when: { 'pending.success': true }, text: '{combatantId} makes the movement roll ({pending.total}).' },
      { when: { 'pending.success': false }, text: '{combatantId} fails the movement roll ({pending.total}).' },
      { text: '{combatantId} rolls to move.' },
    ],
    'legends.moveUpdated': [{ when: { rush: true }, text: '{combatantId} rushes.' }, { text: '{combatantId} decides how to move.' }],
    'legends.moved': '{combatantId} moves.',
    'legends.movementDeclined': '{combatantId} does not move ({reason}).',
    'legends.movementEnded': 'The movement phase ends.',
    'legends.movementPhase': 'Round {round}: the movement phase begins.',
    'legends.offerClosed': 'The offer is closed.',
    'legends.offered': '{combatantId} offers {offer.itemId} to {offer.to}.',
    'legends.orderSet': 'Turn order: {order}.',
    'legends.pickupFailed': '{combatantId} fails to pick up {itemId}.',
    'legends.pickupRolled': [
      { when: { success: true }, text: '{combatantId} picks up {itemId}.' },
      { text: '{combatantId} fumbles {itemId}.' },
    ],
    'legends.placed': 'Combatants are placed ({reason}).',
    'legends.reactionPrepared': '{combatantId} prepares a reactive movement.',
    'legends.reactionUsed': '{combatantId} uses a prepared reaction.',
    'legends.reactionsSpent': 'Prepared reactions are spent.',
    'legends.roundBegan': 'Round {round} begins.',
    'legends.roundEnded': 'Round {round} ends.',
    'legends.rushed': '{combatantId} rushes: {fatigue} fatigue, +{plusTn} to the target number.',
    'legends.surprised': [
      { when: { surprised: true }, text: '{combatantId} is surprised.' },
      { text: '{combatantId} is no longer surprised.' },
    ],
    'legends.touched': '{combatantId} touches {touch.target}.',
    'legends.turnBegan': "{combatantId}'s turn.",
    'legends.turnEnded': "{combatantId}'s turn ends.",
    'legends.turnOrderChanged': '{combatantId} moves down the turn order.',
    'legends.turnOrderKept': '{combatantId} keeps their place in the turn order.',
    'legends.turnOrderRolled': 'Turn order rolled: {order}.',
    'legends.zoneDefined': 'The GM defines the zone {zone.name}.',
  },
  // with attackOutcome off an attack is only declared: the GM says what it did (on: the pending attack below)
  harmPrompts: [{ event: 'legends.attacked', unless: ['legends.attackRolled'], vital: 'wounds' }],
  rulings: [
    {
      list: 'attacks',
      title: 'Pending attack',
      text: [
        { when: { hit: true }, text: '{by} attacks {target} ({attack}): rolled {total}, a hit for {damage} damage ({damageFormula}).' },
        { text: '{by} attacks {target} ({attack}): rolled {total}, a miss.' },
      ],
      command: 'resolveAttack',
      idField: 'attackId',
      number: { field: 'damage', label: 'Damage', from: 'damage', min: 0, max: 1000 },
      choices: [
        { label: 'Hit', fields: { hit: true }, number: true },
        { label: 'Miss', fields: { hit: false } },
      ],
    },
  ],
  phases: {
    'turn-order': 'Turn order',
    movement: 'Movement phase',
    'group-defense': 'Group defense',
    reorder: 'New turn order',
    action: 'Action phase',
  },
  forms: {
    // "A zone `main` exists from the start"; the GM adds more by name (the id is made from it)
    newZone: { command: 'defineZone', field: 'zone' },
    fields: {
      'stats.mountId': { refers: 'combatant' },
      'stats.actions.key': { madeFrom: 'name' },
      'stats.actions.kinds': { label: 'Action kinds', choices: { free: 'Free action', minor: 'Minor action', major: 'Major action' } },
      'stats.actions.rule': { label: 'What it does' },
      'position.zone': { refers: 'zone', label: 'Zone', doc: 'The zone the character stands in.' },
      'position.area': { label: 'Area', doc: 'A place inside the zone the GM names (a feature, "the gate"); blank: its open ground.' },
      'position.group': { refers: 'shared', label: 'Grouped up', doc: 'Join a group already formed (by who is in it).' },
      'position.engagement': { refers: 'shared', label: 'Engaged', doc: 'Join an engagement already formed (by who is in it).' },
      'commands.defineZone.zone.id': { refers: 'zone', madeFrom: 'name', label: 'Zone', doc: 'A zone to change, or a new one.' },
      'commands.defineZone.zone.name': { label: 'Name' },
      'commands.defineZone.zone.neighbors': { refers: 'zone', label: 'Neighbouring zones' },
      // a group or an engagement to join, by who is in it (else a new one)
      // where a move goes: a zone by its name; a group's defense broken: the group by who is in it
      'commands.move.destination.zone': { refers: 'zone', label: 'Zone' },
      'commands.groupMove.destination.zone': { refers: 'zone', label: 'Zone' },
      'commands.react.destination.zone': { refers: 'zone', label: 'Zone' },
      'commands.breakGroupDefense.group': { refers: 'shared', label: 'Group' },
      'commands.formGroup.groupId': { refers: 'shared', label: 'Join the group', doc: 'Left as it is: a new group.' },
      'commands.formEngagement.engagementId': { refers: 'shared', label: 'Join the engagement', doc: 'Left as it is: a new engagement.' },
      'commands.defineZone.zone.features.id': { madeFrom: 'name' },
      'options.hindranceTnStep': { label: 'Hindrance TN step' },
      'options.rollPlusTarget': { label: 'Roll-plus-stat target' },
    },
  },
  quiet: ['legends.queue', 'legends.normalized', 'legends.reanchored'],
  samples: [
    {
      name: 'Goblin',
      side: 'goblins',
      stats: { DEX: 12, SPD: 12, STR: 8, competences: ['short blade'] },
      items: [
        {
          id: 'knife',
          name: 'Knife',
          location: 'right-hand',
          tags: ['melee', 'short blade'],
          props: { weapon: 'melee', type: 'short blade' },
        },
      ],
      doc: 'Quick, weak, cowardly; fights with a knife.',
    },
    {
      name: 'Archer',
      side: 'raiders',
      stats: { DEX: 14, SPD: 10, STR: 9, competences: ['bow'] },
      items: [
        { id: 'short-bow', name: 'Short bow', location: 'both-hands', tags: ['ranged', 'bow'], props: { weapon: 'ranged', type: 'bow' } },
      ],
      doc: 'Keeps their distance; a short bow.',
    },
    {
      name: 'Brute',
      side: 'raiders',
      stats: { DEX: 8, SPD: 8, STR: 16, competences: ['club'] },
      items: [{ id: 'club', name: 'Club', location: 'both-hands', tags: ['melee', 'club'], props: { weapon: 'melee', type: 'club' } }],
      doc: 'Big and slow; a two-handed club.',
    },
    { name: 'Wolf', side: 'beasts', stats: { DEX: 14, SPD: 16, STR: 10, kind: 'animal' }, doc: 'A fast animal without hands.' },
  ],
};

/** What players and spectators may see of the ruleset state: the hidden combatants' parts, and the GM's plans for its characters, go. */
export function projectState(rs: LRS, viewer: Viewer, state: LState): LRS {
  if (viewer.role === 'gm') return rs;
  const pid = viewer.role === 'player' ? viewer.playerId : null;
  const seen = (id: string) => {
    const c = state.combatants[id];
    return c !== undefined && (!c.hidden || (pid !== null && c.controller === pid));
  };
  // the GM's plans for its characters stay with the GM; the players' plans are said at the table
  const told = (id: string) => seen(id) && state.combatants[id]!.controller !== null;
  // every part the viewer loses nothing of is the state's own (keepIf and the rest give it back)
  return withParts(rs, {
    turnRolls: keepKeys(rs.turnRolls, seen),
    queue: keepIf(rs.queue, (id) => seen(id) || !state.combatants[id]),
    lastOrder: keepIf(rs.lastOrder, seen),
    movers: keepIf(rs.movers, seen),
    pending: keepIf(rs.pending, (p) => seen(p.combatantId)),
    reactions: keepIf(rs.reactions, (r) => r.by.every(told)),
    groupMoves: keepIf(rs.groupMoves, (g) => g.members.every(seen)),
    defense: mapValuesShared(rs.defense, (d) => withParts(d, { protected: keepIf(d.protected, seen) })),
    touches: keepIf(rs.touches, (t) => seen(t.by) && seen(t.target)),
    touchLog: keepIf(rs.touchLog, (t) => t.split('>').every(seen)),
    offers: keepIf(rs.offers, (o) => seen(o.from) && seen(o.to)),
    forfeits: keepIf(rs.forfeits, seen),
    attacks: keepIf(rs.attacks ?? [], (a) => seen(a.by) && seen(a.target)),
  });
}
