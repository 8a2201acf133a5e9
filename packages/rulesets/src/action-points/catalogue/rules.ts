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
