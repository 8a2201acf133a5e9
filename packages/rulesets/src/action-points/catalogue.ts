import type { CatalogueEntry } from '@fray/engine';

/**
 * Every action of the rule text as data: type, AP cost, subtypes, whether AP must be consecutive,
 * and the ids of the rules a refusal names. The commands and checks read this table; nothing about
 * an action's cost lives anywhere else.
 */

/** The kinds of the ruleset's reaction windows. */
export const AOO_WINDOW = 'action-points.attack-of-opportunity';
export const READY_WINDOW = 'action-points.ready';

/** The rule ids refusals carry (`action-points.<rule>`), each with the sentence it implements. */
export const RULE = {
  /** "Creatures begin each combat round with 3 AP" / "limited to using 2 action points during a surprise round"; the round ends for a creature when "each participant has used their allotment of action points" */
  actionPoints: 'action-points.action-points',
  /** "Each phase can be assumed to take approximately 1 second" (option apPerPhase) */
  oneApAPhase: 'action-points.one-ap-a-phase',
  /** "Combatants act in initiative order (highest to lowest) during each phase" */
  initiativeOrder: 'action-points.initiative-order',
  /** "it may perform another action now or delay until the next phase" */
  delay: 'action-points.delay',
  /** "During this phase all of the players declare what actions they intend" */
  declaration: 'action-points.declaration',
  /** "only those creatures may act during the first round" */
  surpriseRound: 'action-points.surprise-round',
  /** a creature at 0 hit points or less takes no actions */
  down: 'action-points.down',
  /** "have chosen to make no further expenditures of AP" */
  stopped: 'action-points.stopped',
  /** "Once you ready an action, you forfeit all other actions this round." */
  readyForfeits: 'action-points.ready-forfeits',
  /** "You ready a single simple or advanced action ... You must designate a definite trigger ... you must have enough AP left" */
  ready: 'action-points.ready',
  /** "these are the earliest phases of combat when such actions can be attempted" */
  actionPhases: 'action-points.action-phases',
  /** "the earliest action phase in which the action may begin is the one associated with the character's base action speed or weapon speed, whichever is later" */
  actionSpeed: 'action-points.action-speed',
  /** "Readied missiles (arrows already nocked and drawn)"; "an arrow that was nocked and drawn in the second action phase ... may be released" in the third */
  nockedThisPhase: 'action-points.nocked-this-phase',
  /** "you can perform no more than one free action per action phase" */
  freePerPhase: 'action-points.free-per-phase',
  /** "a limit of six such actions a round is logical in most cases" */
  freePerRound: 'action-points.free-per-round',
  /** "Reactions may be limited to one per phase" */
  reactionsPerPhase: 'action-points.reactions-per-phase',
  /** "When you declare an advanced action, you spend 1 AP immediately. During the next action phase, you may spend another AP" */
  advancedOneApAPhase: 'action-points.advanced-one-ap-a-phase',
  /** an advanced action in progress is continued, not started again */
  advancedInProgress: 'action-points.advanced-in-progress',
  /** "During the next action phase, you may spend another AP towards completing the action." */
  advanced: 'action-points.advanced',
  /** a full-round action "can't be combined with attack actions or any other simple action" */
  fullRoundAlone: 'action-points.full-round-alone',
  /** "When taking a full-round action you may take a 5-foot step as a free action" */
  fullRoundStep: 'action-points.full-round-step',
  /** Total defense: "you can't take actions with the attack subtype" */
  totalDefense: 'action-points.total-defense',
  /** "When a foe you threaten provokes an attack of opportunity, you can make a single melee attack against that foe." */
  attackOfOpportunity: 'action-points.attack-of-opportunity',
  /** one attack of opportunity a round, more with Combat Reflexes (stat extraAttacksOfOpportunity) */
  aooPerRound: 'action-points.aoo-per-round',
  /** "Determine which characters are aware of their opponents" (before combat) */
  awareness: 'action-points.awareness',
  /** a class feature or feat the action needs */
  requires: 'action-points.requires',
  /** "you must take any requisite actions before you can take the free action" */
  conjunction: 'action-points.conjunction',
  castDefensively: 'action-points.cast-defensively',
  fightDefensively: 'action-points.fight-defensively',
  spellCombat: 'action-points.spell-combat',
  naturalAttacks: 'action-points.natural-attacks',
  removeDirtyTrick: 'action-points.remove-dirty-trick',
  drawNock: 'action-points.draw-nock',
  load: 'action-points.load',
  grapple: 'action-points.grapple',
  standUp: 'action-points.stand-up',
  dropProne: 'action-points.drop-prone',
  coupDeGrace: 'action-points.coup-de-grace',
  /** Charge: "You move twice your speed directly toward a designated foe"; "If anything hinders or blocks your movement along the path of a charge, you can't take the charge action" */
  charge: 'action-points.charge',
  /** Run: "You move four times your speed in a straight line" */
  run: 'action-points.run',
  aidAnother: 'action-points.aid-another',
  target: 'action-points.target',
  weapon: 'action-points.weapon',
  reach: 'action-points.reach',
  movement: 'action-points.movement',
} as const;

export type ActionType = 'simple' | 'advanced' | 'full-round' | 'free' | 'reaction';
export type Subtype = 'attack' | 'complex' | 'move';

/**
 * Tags that drive behaviour:
 * - `thought`: can be taken at the speed of thought (declaration phase)
 * - `swift`: a swift action (resolved first in the ready-missile phase)
 * - `spell`: casting a spell (cast defensively, spell combat exclusivity, `casts` ready trigger)
 * - `target`: needs a target combatant
 * - `path`: moves along a path of squares
 * - `weapon`: an attack with a weapon (weapon speed, ranged provocation)
 * - `maneuver`: a combat maneuver check (CMB against CMD); `feat` removes its provocation
 * - `no-step`: a full-round action that allows no free 5-foot step
 * - `variable`: the GM (or the player, within `minAp`) sets the AP cost
 * - `anytime`: may be taken on another creature's initiative (speak)
 */
export type Tag =
  | 'thought'
  | 'swift'
  | 'spell'
  | 'target'
  | 'path'
  | 'weapon'
  | 'maneuver'
  | 'no-step'
  | 'variable'
  | 'anytime'
  | 'natural';

export interface ActionDef {
  id: string;
  label: string;
  type: ActionType;
  ap: number;
  /** "At Least N AP" */
  minAp?: number;
  /** empty = safe ("if an action has no subtype, assume it is safe") */
  subtypes: Subtype[];
  consecutive: boolean;
  tags: Tag[];
  /** the feat that lets the maneuver be taken without provoking */
  feat?: string;
  /** a class feature or feat needed to take the action at all */
  requires?: string;
  /** the rule text (short quote) */
  rule: string;
}

const simple = (id: string, label: string, subtypes: Subtype[], tags: Tag[], rule: string, extra: Partial<ActionDef> = {}): ActionDef => ({
  id,
  label,
  type: 'simple',
  ap: 1,
  subtypes,
  consecutive: true,
  tags,
  rule,
  ...extra,
});
const advanced = (
  id: string,
  label: string,
  ap: number,
  subtypes: Subtype[],
  tags: Tag[],
  rule: string,
  extra: Partial<ActionDef> = {},
): ActionDef => ({ id, label, type: 'advanced', ap, subtypes, consecutive: true, tags, rule, ...extra });
const fullRound = (id: string, label: string, subtypes: Subtype[], tags: Tag[], rule: string, extra: Partial<ActionDef> = {}): ActionDef => ({
  id,
  label,
  type: 'full-round',
  ap: 3,
  subtypes,
  consecutive: true,
  tags,
  rule,
  ...extra,
});
const free = (id: string, label: string, tags: Tag[], rule: string, extra: Partial<ActionDef> = {}): ActionDef => ({
  id,
  label,
  type: 'free',
  ap: 0,
  subtypes: [],
  consecutive: false,
  tags,
  rule,
  ...extra,
});

export const ACTIONS: ActionDef[] = [
  // ---- Simple actions (1 AP) ----
  simple('aid-another', 'Aid another', ['attack'], ['target'], 'Aid Another: ... This action has all of the subtypes of the action you aid.'),
  simple('appraise-item', 'Appraise a single item', [], [], 'If you are holding the item, you gain a +2 bonus on the check and this action has the complex subtype.'),
  simple('attack', 'Attack', ['attack'], ['target', 'weapon'], 'Attack (Attack): You make one or more attacks against a single foe'),
  simple('bull-rush', 'Bull rush', ['attack'], ['target', 'maneuver'], 'Bull Rush (Attack): You push a foe ... straight back.', { feat: 'improved-bull-rush' }),
  simple('cast-swift-spell', 'Cast a swift spell', [], ['swift', 'spell'], 'Cast a Swift Spell: You cast a single spell ... with a casting time of 1 swift action.'),
  simple('control-mount', 'Control a frightened mount', ['complex'], [], 'Control a Frightened Mount (Complex)'),
  simple('demoralize', 'Demoralize', [], ['target'], 'Demoralize: You shout threats at a foe within 30 feet'),
  simple('direct-spell', 'Direct or redirect a spell', [], [], 'Direct or Redirect a Spell'),
  simple('dismiss-spell', 'Dismiss a spell', [], [], 'Dismiss a Spell: You dismiss the effects of a dismissible spell.'),
  simple('disarm', 'Disarm', ['attack'], ['target', 'maneuver'], 'Disarm (Attack): You attempt to disarm your foe.', { feat: 'improved-disarm' }),
  simple('draw-sheathe', 'Draw or sheathe a weapon', [], [], 'Draw or Sheathe a Weapon ... If your base attack bonus is +0, this action provokes an attack of opportunity.'),
  simple('escape-grapple', 'Escape a grapple', [], [], 'The second time in a round you take this action, you take a -5 penalty on the check. The third time, -10.'),
  simple('feint', 'Feint', ['attack'], ['target'], 'Feint (Attack) ... If you have the Improved Feint feat, this action doesn\'t have the attack subtype.'),
  simple('handle-animal', 'Handle an animal', [], [], 'Handle an Animal: You command an animal to perform a trick it knows'),
  simple('light-torch', 'Light a torch', [], [], 'Light a Torch with a Tindertwig or Open Flame'),
  simple('load-light-crossbow', 'Load a hand or light crossbow', ['complex'], [], 'Load a Hand Crossbow or Light Crossbow (Complex) ... If you have the Rapid Reload feat ... this is a free action.'),
  simple('lower-spell-resistance', 'Lower or reactivate spell resistance', [], [], 'Lower or Reactivate Spell Resistance'),
  simple('manipulate-item', 'Manipulate an item', ['complex'], ['variable'], 'Manipulate an Item (Complex) ... the Judge might rule that manipulating an item is an advanced action'),
  simple('move', 'Move', ['move'], ['path'], 'Move (Move): You move up to your speed.'),
  simple('mount-dismount', 'Mount or dismount a steed', ['move'], [], 'Mount or Dismount a Steed (Move) ... as a free action by attempting a DC 20 Ride check; failure means you provoke'),
  simple('open-close-door', 'Open or close a door', [], [], 'Open or Close a Door ... You must have at least one hand free'),
  simple('overrun', 'Overrun', ['attack'], ['target', 'maneuver', 'path'], 'Overrun (Attack): You move up to your speed ... through the space of a foe', { feat: 'improved-overrun' }),
  simple('ready', 'Ready an action', [], [], 'Ready a Simple Action or an Advanced Action ... Once you ready an action, you forfeit all other actions this round.'),
  simple('ready-drop-shield', 'Ready or drop a shield', [], [], 'Ready or Drop a Shield ... base attack bonus of +1 or higher, ... as a free action when you take the move simple action.'),
  simple('remove-dirty-trick', 'Remove a dirty trick\'s condition', [], [], 'Dirty Trick ... The target or an ally adjacent to the target can remove the condition by spending 1 AP. Removing a condition applied by a dirty trick does not provoke attacks of opportunity.'),
  simple('search', 'Search', [], [], 'Search ... When you search an area, this action has the complex subtype.'),
  simple('spell-combat', 'Spell combat', ['attack', 'complex'], ['target', 'weapon', 'spell'], 'Spell Combat (Attack, Complex) ... can take this action only once per round', {
    requires: 'spell-combat',
  }),
  simple('step', 'Step', [], ['path'], 'Step: You move 5 feet.'),
  simple('stand-up', 'Stand up', ['move'], [], 'stand up from a prone position in a space that has at least 1 square in a foe\'s threatened area'),
  simple('sunder', 'Sunder', ['attack'], ['target', 'maneuver'], 'Sunder (Attack): You try to sunder an item held or worn by your foe.', { feat: 'improved-sunder' }),
  simple('trip', 'Trip', ['attack'], ['target', 'maneuver'], 'Trip (Attack): You try to trip your opponent.', { feat: 'improved-trip' }),

  // ---- Advanced actions (2+ AP) ----
  fullRound('administer-potion', 'Administer a potion or oil to an unconscious creature', ['complex'], ['target'], 'Administer a Potion or Elixir, or Apply an Oil, to an Unconscious Creature (Complex; 3 AP)'),
  fullRound('appraise-hoard', 'Appraise a hoard', [], [], 'Appraise a Hoard (3 AP)'),
  advanced('cast-round-spell', 'Cast a 1-round-action spell', 3, ['complex'], ['spell'], 'Cast a 1-Round-Action Spell (Complex; 3 AP): You can split the AP over 2 rounds, but those rounds must be consecutive.'),
  advanced('cast-standard-spell', 'Cast a standard-action spell', 2, ['complex'], ['spell'], 'Cast a Standard-Action Spell (Complex; 2 AP)'),
  advanced('charge', 'Charge', 2, ['move'], ['target', 'path'], 'Charge (Move; 2 AP): You move twice your speed directly toward a designated foe ... +2 bonus'),
  advanced('concentrate', 'Concentrate to maintain a spell', 2, [], [], 'Concentrate to Maintain an Active Spell (2 AP)'),
  advanced('continue-grapple', 'Continue a grapple', 2, [], ['target'], 'Continue a Grapple (2 AP) ... you attempt a grapple combat maneuver check with a +5 bonus.'),
  fullRound('coup-de-grace', 'Deliver a coup de grace', ['complex'], ['target', 'weapon'], 'Deliver a Coup de Grace (Complex; 3 AP): ... you automatically hit and confirm a critical hit.'),
  advanced('dirty-trick', 'Dirty trick', 2, ['attack'], ['target', 'maneuver'], 'Dirty Trick (Combat; 2 AP) ... This condition lasts for 1 round. For every 5 by which your check exceeds the target\'s CMD, 1 additional round.', {
    feat: 'improved-dirty-trick',
  }),
  advanced('disable-device', 'Disable device', 3, ['complex'], ['variable'], 'Disable Device (Complex; At Least 3 AP) ... These AP may or may not need to be consecutive', { minAp: 3 }),
  advanced('drag', 'Drag', 2, ['attack'], ['target', 'maneuver'], 'Drag (Combat; 2 AP)', { feat: 'improved-drag' }),
  advanced('drink', 'Drink a liquid or apply an oil', 2, ['complex'], [], 'Drink a Liquid or Apply an Oil (Complex; 2 AP)'),
  advanced('escape-net', 'Escape from a net', 2, ['complex'], [], 'Escape from a Net (Complex; 2 AP): Attempt a DC 20 Escape Artist check'),
  advanced('extinguish-flames', 'Extinguish flames', 2, ['complex'], [], 'Extinguish Flames (Complex; 2 AP)'),
  advanced('find-tracks', 'Find tracks', 3, [], ['variable'], 'Find Tracks (At Least 3 AP): This requires at least 3 consecutive AP', { minAp: 3 }),
  advanced('initiate-grapple', 'Initiate a grapple', 2, ['attack'], ['target', 'maneuver'], 'Initiate a Grapple (Attack; 2 AP)', { feat: 'improved-grapple' }),
  advanced('load-heavy-crossbow', 'Load a heavy or repeating crossbow', 2, ['complex'], [], 'Load a Heavy or Repeating Crossbow (Complex; 2 AP)'),
  advanced('load-firearm-one-handed', 'Load a one-handed early firearm', 2, ['complex'], [], 'Load a One-Handed Early Firearm (Complex; 2 AP) ... Rapid Reload ... reduced to a simple action.'),
  fullRound('load-firearm-two-handed', 'Load a two-handed early firearm', ['complex'], [], 'Load a Two-Handed Early Firearm (Complex; 3 AP) ... Rapid Reload ... only 2 AP'),
  advanced('lock-gauntlet', 'Lock or unlock a locked gauntlet', 2, ['complex'], [], 'Lock or Unlock a Weapon in a Locked Gauntlet (Complex; 2 AP)'),
  fullRound('natural-attacks', 'Make all natural attacks', ['attack'], ['target', 'natural'], 'Make All Natural Attacks (Attack; 3 AP)'),
  advanced('prepare-oil', 'Prepare a flask of oil', 2, ['complex'], [], 'Prepare a Flask of Oil as a Splash Weapon (Complex; 2 AP)'),
  advanced('first-aid', 'First aid, treat a wound or poison', 2, ['complex'], ['target'], 'Provide First Aid, Treat a Wound, or Treat Poison (Complex; 2 AP)'),
  fullRound('push-animal', 'Push an animal', [], [], 'Push an Animal (3 AP) ... Characters with animal companions ... can push their companions as simple actions instead.'),
  advanced('reposition', 'Reposition', 2, ['attack'], ['target', 'maneuver'], 'Reposition (Combat; 2 AP)', { feat: 'improved-reposition' }),
  fullRound('run', 'Run', ['move'], ['path', 'no-step'], 'Run (Move; 3 AP): You move four times your speed in a straight line ... you lose your Dexterity bonus to AC'),
  advanced('sleight-of-hand', 'Sleight of hand', 2, ['complex'], [], 'Sleight of Hand (Complex; 2 AP) ... You can attempt this as a simple action by taking a -20 penalty'),
  advanced('spellstrike', 'Spellstrike', 2, ['complex'], ['target', 'weapon', 'spell'], 'Spellstrike (Complex; 2 AP) ... You must have the spellstrike class feature', { requires: 'spellstrike' }),
  advanced('steal', 'Steal', 2, ['attack'], ['target', 'maneuver'], 'Steal (Combat; 2 AP)', { feat: 'improved-steal' }),
  advanced('total-defense', 'Total defense', 2, [], [], 'Total Defense (2 AP) ... you can\'t take actions with the attack subtype, and you gain a +4 dodge bonus to AC.'),
  advanced('command-word', 'Use a command word item', 2, [], [], 'Use a Command Word Item (2 AP)'),
  advanced('spell-completion', 'Use a spell completion item', 2, ['complex'], ['spell'], 'Use a Spell Completion Item (Complex; 2 AP)'),
  advanced('spell-trigger', 'Use a spell trigger item', 2, [], ['spell'], 'Use a Spell Trigger Item (2 AP)'),
  advanced('supernatural-ability', 'Use a standard-action supernatural ability', 2, [], [], 'Use a Standard-Action Supernatural Ability (2 AP)'),
  fullRound('touch-six-allies', 'Touch up to six allies with a spell', ['complex'], [], 'Use a Touch Spell on up to Six Allies (Complex; 3 AP)'),

  // ---- Free actions (0 AP) ----
  free('cast-defensively', 'Cast defensively', [], 'Cast Defensively ... If you succeed, that spell loses the complex subtype for that casting. If you fail, you lose the spell.'),
  free('cease-concentrating', 'Cease concentrating on a spell', ['thought'], 'Cease Concentrating on a Spell'),
  free('draw-nock', 'Draw and nock an arrow', [], 'Draw and Nock an Arrow ... used only immediately prior to making an attack with a bow.'),
  free('drop-item', 'Drop an item', [], 'Drop an Item'),
  free('drop-prone', 'Drop prone', [], 'Drop Prone: You drop prone within your space.'),
  free('fight-defensively', 'Fight defensively', ['thought'], 'Fight Defensively: At the start of your round of actions ... -4 penalty on all attack rolls, ... +2 dodge bonus to AC'),
  free('prepare-components', 'Prepare spell components or focus', [], 'Prepare Spell Components or a Spell Focus'),
  free('recall-knowledge', 'Recall knowledge', ['thought'], 'Recall Knowledge'),
  free('speak', 'Speak', ['thought', 'anytime'], 'Speak ... this action can be taken even when on another creature\'s initiative'),
  free('free-ability', 'Use a free-action ability', [], 'Use a Free-Action Ability'),
  free('five-foot-step', '5-foot step (full-round action)', [], 'When taking a full-round action you may take a 5-foot step as a free action (for 0 AP) before, during, or after the action', {
    tags: ['path'],
  }),
  free('end-grapple', 'End a grapple you initiated', [], 'you must either take this action at the start of each subsequent round or end the grapple as a free action'),
];

/** Reactions (0 AP, only when triggered): separate commands, listed here for the catalogue. */
export const REACTIONS: ActionDef[] = [
  { id: 'complete-ready', label: 'Complete a readied action', type: 'reaction', ap: 0, subtypes: [], consecutive: false, tags: [], rule: 'Complete a Readied Action (Varies) ... your place in the initiative order does not change.' },
  { id: 'attack-of-opportunity', label: 'Attack of opportunity', type: 'reaction', ap: 0, subtypes: ['attack'], consecutive: false, tags: ['target', 'weapon'], rule: 'Make an Attack of Opportunity: ... a single melee attack against that foe.' },
  { id: 'spend-aoo', label: 'Spend a use of an attack of opportunity', type: 'reaction', ap: 0, subtypes: [], consecutive: false, tags: [], rule: 'Spend a Use of an Attack of Opportunity ... it is considered a reaction.' },
  { id: 'immediate-action', label: 'Use an immediate-action ability', type: 'reaction', ap: 0, subtypes: [], consecutive: false, tags: [], rule: 'Use an Immediate-Action Ability' },
];

export const ACTION_IDS = ACTIONS.map((a) => a.id);
const byId = new Map(ACTIONS.map((a) => [a.id, a]));
export function actionDef(id: string): ActionDef | undefined {
  return byId.get(id);
}

/** The catalogue GET /rulesets shows: every action and reaction with its cost, what provokes, and its rule. */
export const catalogue: CatalogueEntry[] = [
  ...[...ACTIONS, ...REACTIONS].map(
    (a): CatalogueEntry => ({
      id: a.id,
      label: a.label,
      kind: a.type,
      cost: a.minAp ? `at least ${a.minAp} AP` : { ap: a.ap },
      provokes: a.subtypes.includes('complex')
        ? 'always, before it is taken and in each phase AP are spent on it'
        : a.subtypes.includes('move')
          ? 'when leaving a threatened square (or standing up in one)'
          : a.subtypes.includes('attack')
            ? a.feat
              ? `from the target, without ${a.feat}; ranged: from all threatening foes`
              : 'only when ranged (or unarmed without improved-unarmed-strike)'
            : 'no (safe)',
      rule: a.rule,
      notes: `subtypes: ${a.subtypes.join(', ') || 'safe'}${a.type === 'advanced' || a.type === 'full-round' ? `; ${a.consecutive ? 'consecutive' : 'non-consecutive'} AP` : ''}`,
    }),
  ),
  { id: 'declare', label: 'Declare an intent', kind: 'declaration', rule: 'Intended actions are just that; the Judge and the players can choose to adjust their plans in later phases' },
  { id: 'stop', label: 'Stop spending AP this round', kind: 'turn', rule: 'or have chosen to make no further expenditures of AP' },
  { id: 'delay', label: 'Delay to a later phase', kind: 'turn', rule: 'it may perform another action now or delay until the next phase' },
  { id: 'continue', label: 'Spend an AP on an advanced action in progress', kind: 'advanced', cost: { ap: 1 }, rule: 'During the next action phase, you may spend another AP towards completing the action.' },
];
