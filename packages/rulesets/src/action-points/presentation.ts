import { keepIf, withParts, type RulesetDisplay, type Viewer } from '@fray/engine';
import { ACTIONS } from './catalogue/index.js';
import type { RS, S } from './state.js';

/**
 * The feats and class features the rules act on (a manoeuvre taken without provoking, an action
 * that needs one, a faster reload): the Feats stat's choices, in words ("Improved Trip").
 */
const FEATS = [
  ...new Set([
    ...ACTIONS.flatMap((a) => [a.feat, a.requires]).filter((f): f is string => typeof f === 'string'),
    'improved-feint',
    'improved-unarmed-strike',
    'rapid-reload',
  ]),
].sort();
const featWords = (id: string) => id.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);

/** How `action-points` is shown: see docs/rulesets/action-points.md ("How it is shown"). */
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
      doc: 'Current hit points, out of the maximum (stat `hp`). At 0 or less the creature is down: it takes no actions and loses its advanced actions in progress.',
    },
  ],
  statGroups: [
    { label: 'Defense', stats: ['ac', 'cmd', 'fortitude', 'hp'] },
    { label: 'Offense', stats: ['baseAttackBonus', 'attackBonus', 'cmb', 'reach', 'threatens', 'extraAttacksOfOpportunity', 'weapons'] },
    { label: 'Initiative and speed', stats: ['dexterity', 'initiativeModifier', 'speed', 'size', 'baseActionSpeed', 'bonusAp'] },
    { label: 'Skills and feats', stats: ['concentration', 'acrobaticsRanks', 'feats'] },
  ],
  statLabels: {
    dexterity: 'Dexterity',
    initiativeModifier: 'Initiative modifier',
    speed: 'Speed (ft)',
    size: 'Size',
    baseActionSpeed: 'Base action speed',
    hp: 'HP (max)',
    ac: 'AC',
    baseAttackBonus: 'Base attack bonus',
    attackBonus: 'Attack bonus',
    cmb: 'CMB',
    cmd: 'CMD',
    fortitude: 'Fortitude',
    concentration: 'Concentration',
    acrobaticsRanks: 'Acrobatics ranks',
    reach: 'Reach',
    bonusAp: 'Bonus AP',
    extraAttacksOfOpportunity: 'Extra attacks of opportunity',
    threatens: 'Threatens',
    feats: 'Feats',
    weapons: 'Weapons',
  },
  internal: [
    'tiebreak',
    'tieRoll',
    'apBudget',
    'apSpentThisRound',
    'apThisPhase',
    'delayUntil',
    'freeThisRound',
    'reactionsThisPhase',
    'aooThisRound',
    'attacksThisRound',
    'simpleThisRound',
    'escapesThisRound',
    'actedThisRound',
    'fullRoundThisRound',
    'freeStepUsed',
    'inProgress',
    'ready',
    'forfeitedRound',
    'nockedAt',
  ],
  dataLabels: {
    aware: 'Aware',
    initiative: 'Initiative',
    ap: 'AP left',
    stopped: 'Stopped',
    freeThisPhase: 'Free actions this phase',
    nocked: 'Arrow nocked',
    unloaded: 'Unloaded',
  },
  effects: {
    units: {
      round: 'rounds',
      minute: 'minutes',
      'combat-turn': 'combat turns',
      'end-of-round': 'to end of round',
      'own-round-start': 'to its next round',
    },
    conditions: ['prone', 'grappled', 'blinded', 'deafened', 'paralyzed', 'helpless', 'unconscious'],
  },
  events: {
    'action-points.attack-resolved': [
      { when: { hit: true }, text: '{combatantId} hits {targetId}: {total} against AC {ac}, {damage} damage.' },
      { text: '{combatantId} misses {targetId}: {total} against AC {ac}.' },
    ],
    'action-points.damaged': [
      { when: { hp: 0 }, text: '{targetId} takes {amount} damage and is down (0 HP).' },
      { when: { $numbers: true }, text: '{targetId} takes {amount} damage ({hp} HP left).' },
      { text: '{targetId} takes {amount} damage.' },
    ],
    // the total stays with the bars' secrecy (numbers for the GM and the controller)
    'action-points.hp-set': [
      { when: { $numbers: true }, text: '{combatantId} now has {hp} HP.' },
      { text: 'The GM sets the hit points of {combatantId}.' },
    ],
    'action-points.action-lost': '{combatantId} loses {action}: {reason}.',
    'action-points.action-taken': '{combatantId}: {action} ({actionType} action).',
    'action-points.advanced-progressed': '{combatantId} keeps working on {key} ({spent} AP).',
    'action-points.advanced-spoiled': '{message}',
    'action-points.advanced-started': '{combatantId} starts {advanced.action}.',
    'action-points.ap-spent': '{combatantId} spends {amount} AP on {action}.',
    'action-points.awareness-set': [
      { when: { aware: true }, text: '{combatantId} is aware of the fight.' },
      { text: '{combatantId} is unaware of the fight.' },
    ],
    'action-points.cast-defensively': [
      { when: { success: true }, text: '{combatantId} casts defensively: {total} against DC {dc}.' },
      { text: '{combatantId} fails to cast defensively: {total} against DC {dc}.' },
    ],
    'action-points.delayed': '{combatantId} delays to {phase}.',
    'action-points.intent-declared': '{combatantId} declares: {intent}.',
    'action-points.loaded': '{combatantId} loads {weaponId}.',
    'action-points.maneuver-resolved': [
      { when: { success: true }, text: '{combatantId} succeeds at {action} against {targetId}: {total} against CMD {cmd}.' },
      { text: '{combatantId} fails at {action} against {targetId}: {total} against CMD {cmd}.' },
    ],
    'action-points.moved': '{combatantId} moves.',
    'action-points.movement-stopped': '{combatantId} stops: {reason}.',
    'action-points.nocked': '{combatantId} nocks an arrow on {weaponId}.',
    'action-points.phase-started': 'Now: {phase}.',
    'action-points.provoked': '{combatantId} provokes: {reason}.',
    'action-points.reaction-used': [
      { when: { kind: 'attack-of-opportunity' }, text: '{combatantId} takes an attack of opportunity against {against}.' },
      { text: '{combatantId} uses a reaction ({kind}).' },
    ],
    'action-points.readied': '{combatantId} readies {ready.action}.',
    'action-points.ready-lost': '{combatantId} loses the readied action: {reason}.',
    'action-points.ready-queue-cleared': 'Readied actions are cleared.',
    'action-points.ready-triggered': "{combatantId}'s readied action is triggered.",
    'action-points.resolved': '{combatantId}: {action} resolves.',
    'action-points.round-ended': 'Round {round} ends.',
    'action-points.round-started': 'Round {round} begins.',
    'action-points.stopped': '{combatantId} stops for this round.',
    'action-points.tie-rolls': 'Ties in initiative are rolled off.',
    'action-points.turn': "{combatantId}'s turn.",
    'action-points.weapon-fired': '{combatantId} fires {weaponId}.',
  },
  phases: {
    declaration: 'Declaration',
    'ready-missile': 'Ready missiles and swift actions',
    thrown: 'Thrown weapons',
    fast: 'Fast attacks',
    average: 'Average attacks',
    slow: 'Slow attacks',
    'very-slow': 'Very slow attacks',
  },
  phaseHints: {
    declaration:
      'Say what your character will do this round (Declare an intent); only thought-quick free actions happen now. Then end your turn: the actions come in the phases that follow.',
    'ready-missile':
      'Free and swift actions, nocked arrows, crossbows and firearms, and actions that are neither moves nor attacks happen now. Nothing of that kind? End your turn and wait for your phase.',
    thrown:
      'Thrown weapons, bows without a nocked arrow, and moves (move, charge, run, stand up) happen now. Attacking? End your turn: attacks come in the phases that follow.',
    fast: 'Attacks of fast combatants with light, unarmed or natural weapons happen now. A slower attack? End your turn and wait for its phase.',
    average:
      'Attacks at average speed (one-handed weapons, large creatures) happen now. A slower attack? End your turn and wait for its phase.',
    slow: 'Slow attacks (two-handed weapons, huge creatures) happen now. A very slow attack? End your turn and wait for its phase.',
    'very-slow': 'The last phase of the round: very slow attacks (unwieldy weapons, the largest creatures) happen now.',
  },
  forms: {
    fields: {
      // a square by its column and row, as the map's edges number them
      'position.x': { label: 'Column (x)' },
      'position.y': { label: 'Row (y)' },
      'stats.feats': { choices: Object.fromEntries(FEATS.map((f) => [f, featWords(f)])) },
      'stats.weapons.id': { madeFrom: 'name' },
      'stats.weapons.speed': { label: 'Speed (overrides the category’s)' },
      'stats.weapons.reach': { label: 'Reach (squares; melee)' },
      'stats.weapons.critMultiplier': { label: 'Critical multiplier' },
      'options.earliestPhaseOverrides': { keys: { label: 'Action', refers: 'action', value: 'Earliest phase' } },
      'options.nonConsecutiveActions': { refers: 'action', kinds: ['advanced', 'full-round'] },
      'options.apPerRound': { label: 'AP per round' },
      'options.surpriseAp': { label: 'AP in a surprise round' },
      'options.apPerPhase': { label: 'AP per phase' },
      'options.baseSpeedBySize': { label: 'Base action speed by size' },
    },
  },
  quiet: ['action-points.ap-spent', 'action-points.resolved'],
  samples: [
    {
      name: 'Goblin',
      side: 'goblins',
      stats: {
        dexterity: 15,
        hp: 6,
        ac: 13,
        baseAttackBonus: 1,
        size: 'small',
        speed: 30,
        weapons: [{ id: 'short-sword', name: 'Short sword', category: 'light', damage: '1d4' }],
      },
      doc: 'Small and quick; a short sword.',
    },
    {
      name: 'Orc',
      side: 'orcs',
      stats: {
        dexterity: 11,
        hp: 15,
        ac: 13,
        baseAttackBonus: 3,
        attackBonus: 3,
        weapons: [{ id: 'greataxe', name: 'Greataxe', category: 'two-handed', damage: '1d12' }],
      },
      doc: 'Strong and slow; a greataxe.',
    },
    {
      name: 'Wolf',
      side: 'beasts',
      stats: {
        dexterity: 15,
        hp: 13,
        ac: 14,
        baseAttackBonus: 1,
        speed: 50,
        weapons: [{ id: 'bite', name: 'Bite', category: 'natural', damage: '1d6' }],
      },
      doc: 'A pack hunter.',
    },
  ],
};

/** What players and spectators see of `rs`: the intents and readied actions of the combatants they see. */
export function projectState(rs: RS, viewer: Viewer, state: S): RS {
  if (viewer.role === 'gm') return rs;
  const pid = viewer.role === 'player' ? viewer.playerId : null;
  const visible = (cid: string) => {
    const c = state.combatants[cid];
    return !!c && (!c.hidden || (pid !== null && c.controller === pid));
  };
  return withParts(rs, {
    intents: keepIf(rs.intents, (i) => visible(i.combatantId)),
    readyQueue: keepIf(rs.readyQueue, (r) => visible(r.actorId)),
  });
}
