import type { CatalogueEntry, ParamSpec } from '@fray/engine';

export type OaTag = 'OA' | 'OA from movement' | 'OA from certain movement' | 'conditional' | 'OA varies' | 'no';
export type CatType = 'standard' | 'move' | 'quick' | 'free' | 'reaction' | 'none' | 'varies';

/** One action of the text as data: its type, its OA tag, the command that performs it. */
export interface ActionDef {
  id: string;
  label: string;
  type: CatType;
  oa: OaTag;
  command: string;
  /** fixed fields of the command (e.g. the attack kind) */
  template?: Record<string, unknown>;
  params?: ParamSpec[];
  rule: string;
  notes?: string;
}

const target: ParamSpec = { name: 'targetId', kind: 'combatant' };
const path: ParamSpec = { name: 'path', kind: 'path', label: 'squares, in order' };
const skill: ParamSpec = { name: 'skill', kind: 'text' };
const raises: ParamSpec = { name: 'raises', kind: 'number', min: 0, max: 2, optional: true, label: 'Raise (reaction)' };
const item: ParamSpec = { name: 'itemId', kind: 'item' };
const stuntBenefits = ['afflict', 'disarm', 'grab', 'pull', 'push', 'break'];

export const ACTIONS: ActionDef[] = [
  // STANDARD
  { id: 'attack-close', label: 'Attack, close', type: 'standard', oa: 'conditional', command: 'attack', template: { kind: 'close' }, params: [target, raises], rule: 'make a close attack check against any opponent within the attack’s reach. Attacking an armed opponent while unarmed normally provokes' },
  { id: 'attack-court', label: 'Attack, court', type: 'standard', oa: 'conditional', command: 'attack', template: { kind: 'court' }, params: [target, raises], rule: 'a court attack check against any opponent within conversation range. Attacking an opponent who has ranks in Wits while you do not, normally provokes' },
  { id: 'attack-ranged', label: 'Attack, ranged', type: 'standard', oa: 'OA', command: 'attack', template: { kind: 'ranged' }, params: [target, raises], rule: 'an attack check against any non-adjacent opponent within the attack’s range' },
  { id: 'attack-rumor', label: 'Attack, rumor', type: 'standard', oa: 'OA', command: 'attack', template: { kind: 'rumor' }, params: [target, raises], rule: 'a rumor attack check against any opponent outside conversation range but within communication range' },
  { id: 'defend', label: 'Defend', type: 'standard', oa: 'no', command: 'defend', rule: 'you make a defense check to determine your defense versus each attack made on you until the start of your next turn ... you also roll the Fortune Die' },
  { id: 'recover', label: 'Recover', type: 'standard', oa: 'no', command: 'recover', params: [{ name: 'choice', kind: 'choice', options: ['damage', 'fatigue', 'resist'] }], rule: 'you gain 1 point of Stress, but remove your highest level of damage or fatigue' },
  { id: 'charge', label: 'Charge', type: 'standard', oa: 'OA from movement', command: 'charge', params: [target, { ...path, optional: true }], rule: 'You move as if you had taken the move action, but at -1 to your speed rank in a relatively straight line towards your target ... -1 Disadvantage to the attack check' },
  { id: 'ready', label: 'Ready', type: 'standard', oa: 'no', command: 'ready', params: [{ name: 'action', kind: 'text' }, { name: 'trigger', kind: 'text' }], rule: 'specify the action you will take and the trigger after which you will take it' },
  { id: 'trick', label: 'Trick', type: 'standard', oa: 'no', command: 'trick', params: [target, skill, { name: 'opposing', kind: 'list' }, { name: 'condition', kind: 'text' }], rule: 'opposed by the better of any two skills of your choice so long as each is of a different ability, but all must come from the same ability group' },
  ...stuntBenefits.map<ActionDef>((b) => ({ id: `stunt-${b}`, label: `Stunt: ${b}`, type: 'standard', oa: 'OA', command: 'stunt', template: { benefit: b }, params: [target], rule: `STUNT [Standard, OA] ... ${b.toUpperCase()}` })),
  { id: 'assist-skill', label: 'Assist (skill)', type: 'standard', oa: 'no', command: 'assist', template: { mode: 'skill' }, params: [{ name: 'allyId', kind: 'combatant' }, skill], rule: 'must delay to the same point in the initiative order ... Make an Easy DC (DC 10) skill check' },
  { id: 'assist-aid', label: 'Assist: aid', type: 'standard', oa: 'no', command: 'assist', template: { mode: 'aid' }, params: [{ name: 'allyId', kind: 'combatant' }, target], rule: 'AID: an attack check against a Moderate DC (DC 10 + Power Level) to grant an ally a bonus to Attack against the target' },
  { id: 'assist-coordinate', label: 'Assist: coordinate', type: 'standard', oa: 'no', command: 'assist', template: { mode: 'coordinate' }, params: [{ name: 'allyId', kind: 'combatant' }, target], rule: 'COORDINATE: an attack check against the target’s defense to grant an ally a bonus to the effect rank' },
  { id: 'assist-combine', label: 'Assist: combine', type: 'standard', oa: 'no', command: 'assist', template: { mode: 'combine' }, params: [{ name: 'allyId', kind: 'combatant' }, skill], rule: 'COMBINE: a Lore check ... against a Hard DC (DC 10 + Power level x 2)' },
  { id: 'assist-distract', label: 'Assist: distract', type: 'standard', oa: 'no', command: 'assist', template: { mode: 'distract' }, params: [{ name: 'allyId', kind: 'combatant' }, target], rule: 'DISTRACT: an attack check against a Moderate DC ... a bonus to Defense against the target' },
  { id: 'assess-analyze', label: 'Assessment: analyze', type: 'standard', oa: 'OA', command: 'assess', template: { benefit: 'analyze' }, params: [target, skill], rule: 'ANALYZE: +1 Advantage to Defense per degree of success ... up to a maximum bonus of +5' },
  { id: 'assess-appraisal', label: 'Assessment: appraisal', type: 'standard', oa: 'OA', command: 'assess', template: { benefit: 'appraisal' }, params: [target, skill], rule: 'APPRAISAL: The GM tells you the target’s attack and defense Advantage relative to yours' },
  // MOVE
  { id: 'move-walk', label: 'Move: walk', type: 'move', oa: 'OA from movement', command: 'move', template: { mode: 'walk' }, params: [path], rule: 'WALK: You can move up to your normal speed rank' },
  { id: 'move-run', label: 'Move: run', type: 'move', oa: 'OA from movement', command: 'move', template: { mode: 'run' }, params: [path], rule: 'RUN: a Athletics check with a Moderate DC ... as a free action to run faster ... can cause Fatigue' },
  { id: 'move-squeeze', label: 'Move: squeeze', type: 'move', oa: 'OA from movement', command: 'move', template: { mode: 'squeeze' }, params: [path], rule: 'SQUEEZE: ... at your normal speed -1 rank' },
  { id: 'move-crawl', label: 'Move: crawl', type: 'move', oa: 'OA from movement', command: 'move', template: { mode: 'crawl' }, params: [path], rule: 'CRAWL: While prone, you can only move by crawling ... speed -3 ranks' },
  { id: 'stand', label: 'Stand', type: 'move', oa: 'OA', command: 'stand', rule: 'You stand up from a prone position' },
  { id: 'stand-acrobatic', label: 'Stand (Acrobatics, free)', type: 'free', oa: 'no', command: 'stand', template: { acrobatic: true }, rule: 'from prone to standing as a free action (with no Opportunity Action) by making an Acrobatics check with a Hard DC' },
  { id: 'advance', label: 'Advance', type: 'move', oa: 'OA from certain movement', command: 'advance', params: [path], rule: 'As long as you are moving towards the nearest enemy you do not provoke an OA for leaving a threatened square' },
  { id: 'withdraw', label: 'Withdraw', type: 'move', oa: 'OA from certain movement', command: 'withdraw', params: [path], rule: 'As long as you are moving away from the nearest enemy you do not provoke an OA' },
  { id: 'escape', label: 'Escape', type: 'move', oa: 'OA from certain movement', command: 'escape', params: [skill, { ...path, optional: true }], rule: 'Make a Might or Acrobatics skill check opposed by a Might or Dexterity skill check chosen by your opponent' },
  { id: 'retrieve', label: 'Retrieve or store object', type: 'move', oa: 'OA', command: 'retrieve', params: [item, { name: 'to', kind: 'choice', options: ['hand', 'carried'] }], rule: 'Retrieving or putting away a stored object requires a move action' },
  { id: 'aim', label: 'Aim', type: 'move', oa: 'OA', command: 'aim', params: [target], rule: '+1 Advantage to your next attack check ... up to a maximum bonus of +5' },
  { id: 'gambit', label: 'Gambit', type: 'move', oa: 'OA', command: 'gambit', params: [skill, { name: 'beneficiaryId', kind: 'combatant', optional: true }], rule: 'a skill check vs a Mod DC (DC 10 + Power Level), or a Passive Reaction or Guile if threatened' },
  { id: 'command', label: 'Command', type: 'move', oa: 'no', command: 'command', params: [{ name: 'minionId', kind: 'combatant' }, { name: 'order', kind: 'text' }], rule: 'Issuing a command to a character or creature under your control requires a move action' },
  { id: 'influence', label: 'Influence', type: 'move', oa: 'OA', command: 'influence', params: [target, skill, { name: 'goal', kind: 'choice', options: ['improve', 'worsen', 'shift'] }], rule: 'improve others’ attitudes ... with an opposed Interaction Skill check' },
  { id: 'conceal', label: 'Counter an assessment', type: 'move', oa: 'no', command: 'conceal', params: [{ name: 'assessorId', kind: 'combatant' }, skill], rule: 'a Deception or Stealth check as a move action, opposed by Insight or Perception' },
  // QUICK
  { id: 'draw', label: 'Draw weapon', type: 'quick', oa: 'no', command: 'draw', template: { mode: 'draw' }, params: [item], rule: 'Drawing and putting weapons away requires a quick action' },
  { id: 'sheathe', label: 'Sheathe weapon', type: 'quick', oa: 'no', command: 'draw', template: { mode: 'sheathe' }, params: [item], rule: 'Drawing and putting weapons away requires a quick action' },
  { id: 'manipulate', label: 'Pick up or manipulate object', type: 'quick', oa: 'no', command: 'manipulate', params: [{ ...item, optional: true }, { name: 'description', kind: 'text', optional: true }], rule: 'Picking up or manipulating an object requires a quick action' },
  { id: 'study', label: 'Study', type: 'quick', oa: 'no', command: 'study', params: [skill, { ...target, optional: true }], rule: 'learn something useful or interesting ... with an appropriate opposed Skill check as a quick action' },
  { id: 'stance', label: 'Stance', type: 'quick', oa: 'no', command: 'stance', params: [{ name: 'penalty', kind: 'text' }, { name: 'bonus', kind: 'text' }], rule: 'Before you make an Attack on your turn, you can take between -1 to -5 Disadvantage ... and add the same number' },
  { id: 'switch-alternate', label: 'Switch alternate effect', type: 'quick', oa: 'no', command: 'switch-alternate', params: [{ name: 'powerId', kind: 'text' }, { name: 'alternate', kind: 'text' }], rule: 'Switching between Alternate Effects of a power requires a quick action' },
  // FREE
  { id: 'talk', label: 'Talk', type: 'free', oa: 'no', command: 'talk', params: [{ name: 'text', kind: 'text' }], rule: 'speaking is a free action that you can perform even when it isn’t your turn' },
  { id: 'drop-prone', label: 'Drop prone', type: 'free', oa: 'no', command: 'drop', template: { what: 'prone' }, rule: 'Dropping to a prone position or dropping a held item is a free action' },
  { id: 'drop-item', label: 'Drop item', type: 'free', oa: 'no', command: 'drop', template: { what: 'item' }, params: [item], rule: 'Dropping to a prone position or dropping a held item is a free action' },
  { id: 'ammo', label: 'Draw or store ammo', type: 'free', oa: 'no', command: 'ammo', params: [{ name: 'mode', kind: 'choice', options: ['draw', 'store'] }], rule: 'Drawing ammunition for use with a ranged attack or weapon ... is a free action' },
  { id: 'maintain-aim', label: 'Maintain aim', type: 'free', oa: 'no', command: 'maintain-aim', rule: 'it requires a free action to maintain your aim before you make your attack' },
  ...['coup', 'edit-scene', 'improve-roll', 'inspiration', 'recover', 'stunt'].map<ActionDef>((u) => ({
    id: `spend-${u}`,
    label: `Spend Destiny/Fate/Corruption: ${u}`,
    type: 'free',
    oa: 'no',
    command: 'spend',
    template: { use: u },
    params: [{ name: 'pool', kind: 'choice', options: ['destiny', 'fate', 'corruption'] }],
    rule: `SPEND DESTINY, FATE, OR CORRUPTION [Free] ... ${u.toUpperCase()}`,
  })),
  // REACTIONS
  { id: 'opportunity-attack', label: 'Opportunity attack', type: 'reaction', oa: 'no', command: 'opportunity-attack', rule: 'You may make a melee attack as if you had taken the Close Attack action' },
  ...['additional-action', 'alternate-effect', 'boost', 'burst', 'edge', 'counter', 'resistance', 'retry'].map<ActionDef>((b) => ({
    id: `surge-${b}`,
    label: `Surge: ${b}`,
    type: 'reaction',
    oa: 'no',
    command: 'surge',
    template: { benefit: b },
    rule: `Using a Surge is a Reaction and can be performed at any time, but is limited to once per turn ... ${b.toUpperCase()}`,
  })),
  { id: 'smash', label: 'Smash', type: 'reaction', oa: 'no', command: 'attack', template: { smash: true }, params: [target], rule: 'you make a damage or effect rank check to determine your damage or effect rank for this attack', notes: 'a flag on an attack' },
  { id: 'slam', label: 'Slam', type: 'reaction', oa: 'no', command: 'attack', template: { slam: true }, params: [target], rule: '+1 Advantage per 10’ moved that round before your attack, gaining up to a maximum bonus of +5', notes: 'a flag on an attack' },
  { id: 'raise', label: 'Raise', type: 'reaction', oa: 'no', command: 'attack', template: { raises: 1 }, params: [target], rule: 'increase the DC by +5. If you succeed, the degree of success is increased by +2 degrees', notes: 'the `raises` field (1 or 2) of any check command' },
  { id: 'hunch', label: 'Hunch', type: 'reaction', oa: 'no', command: 'use-skill', template: { hunch: true }, params: [skill], rule: 'as a Reaction before making a skill check, may attempt an Intuition check vs an Easy DC (DC 10)', notes: 'the `hunch` flag of any skill check command' },
  { id: 'counter-stunt', label: 'Counter-stunt', type: 'reaction', oa: 'no', command: 'counter-stunt', rule: 'If you lose the opposed check, the defender may immediately make an attempt to use a Stunt on you as a Reaction' },
  { id: 'readied', label: 'Take readied action', type: 'reaction', oa: 'no', command: 'readied', rule: 'you may take the readied action as a Reaction to that trigger' },
  // NO ACTION
  { id: 'delay', label: 'Delay', type: 'none', oa: 'no', command: 'delay', rule: 'You cannot delay if you have already taken an action on your turn, or if you are unable to take actions' },
  { id: 'act-now', label: 'Take delayed turn', type: 'none', oa: 'no', command: 'act-now', rule: 'At any point after any other character in the conflict has acted, you can choose to take your turn' },
  { id: 'resistance-check', label: 'Resistance check', type: 'none', oa: 'no', command: 'turn.end', rule: 'certain die rolls like resistance checks, for example, are not considered actions at all', notes: 'made automatically at the end of your turn' },
  // VARIABLE
  { id: 'power-personal', label: 'Use power, personal', type: 'varies', oa: 'no', command: 'use-power', template: { range: 'personal' }, rule: 'use a personal power on yourself without provoking an Opportunity Attack' },
  { id: 'power-close', label: 'Use power, close', type: 'varies', oa: 'no', command: 'use-power', template: { range: 'close' }, rule: 'within the power’s reach and area of effect without provoking an Opportunity Attack' },
  { id: 'power-ranged', label: 'Use power, ranged', type: 'varies', oa: 'OA', command: 'use-power', template: { range: 'ranged' }, rule: 'against any non-adjacent opponent or ally within the power’s range ... but does provoke an Opportunity Attack' },
  { id: 'power-court', label: 'Use power, court', type: 'varies', oa: 'no', command: 'use-power', template: { range: 'court' }, rule: 'without provoking an Opportunity Attack from adjacent or court ranged opponents' },
  { id: 'power-gossip', label: 'Use power, gossip', type: 'varies', oa: 'OA', command: 'use-power', template: { range: 'gossip' }, rule: 'against any non-court opponent ... but does provoke an Opportunity Attack from adjacent or court ranged opponents' },
  { id: 'use-skill', label: 'Use skill', type: 'varies', oa: 'OA varies', command: 'use-skill', params: [skill], rule: 'What type of action a Skill requires can vary from use to use ... Use GM’s discretion for both' },
  { id: 'use-tool', label: 'Use tool or device', type: 'varies', oa: 'OA varies', command: 'use-tool', params: [item], rule: 'What type of action a tool or device requires can vary from item to item' },
  { id: 'load', label: 'Load complex weapon', type: 'varies', oa: 'OA', command: 'load', params: [item], rule: 'loading a complex weapon always provokes an Opportunity Attack' },
];

export const catalogue: CatalogueEntry[] = ACTIONS.map((a) => ({
  id: a.id,
  label: a.label,
  kind: a.type,
  cost: a.type === 'standard' || a.type === 'move' || a.type === 'quick' ? { [a.type]: 1 } : a.type,
  provokes: a.oa,
  rule: a.rule,
  ...(a.notes ? { notes: a.notes } : {}),
}));

/**
 * The rule ids every refusal names (`action-round.<rule>`), the most specific that applies. The
 * sentence each implements is quoted where it is checked (checks/) or in the catalogue above.
 */
export const RULE = {
  turns: 'action-round.turns',
  oneStandard: 'action-round.one-standard',
  oneMove: 'action-round.one-move',
  oneQuick: 'action-round.one-quick',
  freeActions: 'action-round.free-actions',
  oneReaction: 'action-round.one-reaction',
  reactions: 'action-round.reactions',
  readyConcentration: 'action-round.ready-concentration',
  raise: 'action-round.raise',
  incapacitated: 'action-round.incapacitated',
  turnSkipped: 'action-round.turn-skipped',
  delay: 'action-round.delay',
  delayInterrupt: 'action-round.delay-interrupt',
  targets: 'action-round.targets',
  items: 'action-round.items',
  powers: 'action-round.powers',
  oneAreaPower: 'action-round.one-area-power',
  slam: 'action-round.slam',
  crawl: 'action-round.crawl',
  charge: 'action-round.charge',
  move: 'action-round.move',
  advance: 'action-round.advance',
  withdraw: 'action-round.withdraw',
  noSplitMove: 'action-round.no-split-move',
  ready: 'action-round.ready',
  readied: 'action-round.readied',
  trick: 'action-round.trick',
  stunt: 'action-round.stunt',
  counterStunt: 'action-round.counter-stunt',
  opportunityAttack: 'action-round.opportunity-attack',
  assist: 'action-round.assist',
  assistDelay: 'action-round.assist-delay',
  assistCombine: 'action-round.assist-combine',
  stand: 'action-round.stand',
  escape: 'action-round.escape',
  retrieve: 'action-round.retrieve',
  aim: 'action-round.aim',
  aimTarget: 'action-round.aim-target',
  gambit: 'action-round.gambit',
  command: 'action-round.command',
  influence: 'action-round.influence',
  draw: 'action-round.draw',
  drop: 'action-round.drop',
  manipulate: 'action-round.manipulate',
  stance: 'action-round.stance',
  switchAlternate: 'action-round.switch-alternate',
  quickInReaction: 'action-round.quick-in-reaction',
  destiny: 'action-round.destiny',
  destinyCoup: 'action-round.destiny-coup',
  destinyImproveRoll: 'action-round.destiny-improve-roll',
  destinyStunt: 'action-round.destiny-stunt',
  destinyUnconscious: 'action-round.destiny-unconscious',
  surge: 'action-round.surge',
  recover: 'action-round.recover',
  load: 'action-round.load',
  attack: { close: 'action-round.attack-close', ranged: 'action-round.attack-ranged', court: 'action-round.attack-court', rumor: 'action-round.attack-rumor' },
  power: {
    personal: 'action-round.power-personal',
    close: 'action-round.power-close',
    ranged: 'action-round.power-ranged',
    court: 'action-round.power-court',
    gossip: 'action-round.power-gossip',
  },
} as const;
