import { z } from 'zod';

const DICE_FORMULA = /^[1-9]?\d?d\d{1,3}([+-]\d{1,3})?$/;

/**
 * Options of the `legends` ruleset. The rule excerpts leave the dice mechanics ("a d12 roll on
 * DEX", Hindrance, Easing, "reactive +TN", "degrees" of disadvantage) and a few lists to the
 * rest of the system; every gap we filled is an option here, with a default, documented in
 * `optionDocs` and docs/rulesets/legends.md.
 */
export const optionsSchema = z
  .object({
    rollMechanic: z.enum(['roll-under', 'roll-plus-stat']).default('roll-under'),
    rollPlusTarget: z.number().int().min(1).max(100).default(13),
    hindranceMode: z.enum(['dice', 'tn']).default('dice'),
    hindranceTnStep: z.number().int().min(1).max(12).default(2),
    initialTurnOrderDecisions: z.boolean().default(true),
    movementDie: z.number().int().min(2).max(100).default(12),
    rushFatigue: z.number().int().min(0).max(100).default(6),
    sprintingFocusFatigueReduction: z.number().int().min(0).max(100).default(3),
    encumbranceRushFatigue: z.number().int().min(0).max(100).default(3),
    rushMediumMargin: z.number().int().min(1).max(100).default(10),
    neighborZoneSteps: z.number().int().min(1).max(2).default(2),
    maxGroupSize: z.number().int().min(2).max(100).default(10),
    maxEngagementSize: z.number().int().min(2).max(200).default(20),
    groupDefenseRatio: z.number().int().min(1).max(20).default(2),
    bodyWeightQuarters: z.number().int().min(0).max(8).default(1),
    itemWeightQuarters: z.number().int().min(0).max(8).default(1),
    maxFreeActionsPerTurn: z.number().int().min(1).max(50).nullable().default(null),
    maxTouchersPerRound: z.number().int().min(1).max(20).default(2),
    minorInventoryOptions: z
      .array(z.enum(['draw', 'stow', 'pickup', 'take', 'accept']))
      .min(1)
      .default(['draw', 'stow', 'pickup', 'take', 'accept']),
    majorInventoryOps: z.number().int().min(1).max(10).default(3),
    unconsciousConditions: z.array(z.string().min(1).max(64)).default(['unconscious', 'incapacitated', 'dead']),
    immobilizedConditions: z.array(z.string().min(1).max(64)).default(['pinned', 'paralyzed', 'stabilized']),
    dropItemsConditions: z.array(z.string().min(1).max(64)).default(['unconscious', 'incapacitated', 'dead', 'paralyzed']),
    skipIncapacitatedTurns: z.boolean().default(true),
    unarmedMelee: z.boolean().default(true),
    firstRoundGroupDefense: z.boolean().default(true),
    breakoutRemovesHindrance: z.enum(['roll', 'outnumbering']).default('roll'),
    bypassCurrent: z.enum(['until-benefit-lapses', 'until-next-turn']).default('until-benefit-lapses'),
    attackOutcome: z.boolean().default(true),
    attackDamage: z
      .string()
      .regex(DICE_FORMULA, 'a dice formula such as 1d6 or 2d4+1')
      .meta({ examples: ['2d4+1'] })
      .default('1d6'),
    unarmedDamage: z
      .string()
      .regex(DICE_FORMULA, 'a dice formula such as 1d3')
      .meta({ examples: ['1d3'] })
      .default('1d3'),
    incompetentHindrance: z.number().int().min(0).max(4).default(1),
    endWhenOneSideStands: z.boolean().default(true),
  })
  .strict();

export type LegendsOptions = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof LegendsOptions, string> = {
  rollMechanic:
    'How "a dN roll on STAT" resolves. roll-under (default): roll the dice, succeed when the total is at most the target number (the stat plus any +TN); margin = TN - total. roll-plus-stat: total = dice + stat + any +TN, succeed at rollPlusTarget or more; margin = total - rollPlusTarget.',
  rollPlusTarget: 'Target number for roll-plus-stat (default 13).',
  hindranceMode:
    'How Hindrance and Easing work. dice (default): each net Hindrance adds one die to the roll and the worst dice are kept (each net Easing adds one die and the best are kept); Hindrance and Easing cancel one for one. tn: each net Hindrance lowers the TN by hindranceTnStep, each Easing raises it.',
  hindranceTnStep: 'TN change per Hindrance/Easing in tn mode (default 2).',
  initialTurnOrderDecisions:
    'After the turn order roll, each character from the second-to-last upward may move down (default true). false skips straight to round 1.',
  movementDie: 'Die size of a movement roll on SPD where no zone trait changes it (default 12).',
  rushFatigue: 'Fatigue taken for rushing (default 6, as the text says).',
  sprintingFocusFatigueReduction:
    'How much Sprinting Focus (Athletics) decreases rushing fatigue per rank (default 3; the excerpt gives no number).',
  encumbranceRushFatigue: 'Extra rushing fatigue with 1 degree of encumbrance (default 3; the excerpt gives no number).',
  rushMediumMargin: 'Margin of success (after the rush +TN) needed to move medium range (default 10, as the text says).',
  neighborZoneSteps:
    'Short-range steps needed to cross into a neighboring zone (default 2 = a medium-range movement; 1 treats the close sections of neighbouring zones as short range).',
  maxGroupSize: 'Largest group (default 10: "cannot usually be larger than 10").',
  maxEngagementSize: 'Largest engagement (default 20: "engagements of more than 20 characters should be split up").',
  groupDefenseRatio:
    'Unprotected characters needed per protected character (default 2: "1 protected character per 2 non-protected"); a zone trait groupDefenseRatio overrides it.',
  bodyWeightQuarters: 'What a defended incapacitated or dead body counts as, in quarters of a character (default 1 = 1/4).',
  itemWeightQuarters: 'What a defended dropped item counts as, in quarters of a character (default 1 = 1/4).',
  maxFreeActionsPerTurn:
    'What a free action is "reasonably" limited to: at most this many free actions a turn (default null = as many different free actions as you wish).',
  maxTouchersPerRound: 'A character can be touched by at most this many characters a round (default 2).',
  minorInventoryOptions:
    'The minor-action inventory options (the excerpt cuts the list): draw one item, stow (put away) one item, pickup one item from the ground, take an item offered by a grouped-up character, accept an item offered from inventory. Default: all five.',
  majorInventoryOps: 'As a major action you may choose up to this many inventory options (default 3).',
  unconsciousConditions: 'Conditions that prevent every action, even purely mental ones (default unconscious, incapacitated, dead).',
  immobilizedConditions: 'Conditions that allow only purely mental actions (default pinned, paralyzed, stabilized).',
  dropItemsConditions:
    'Conditions that make a character drop what is in their hands (default unconscious, incapacitated, dead, paralyzed).',
  skipIncapacitatedTurns: 'Skip the turns of characters with an unconscious condition (default true); durations still tick at their place.',
  unarmedMelee: 'Allow melee attacks without a wielded weapon (default true; the unarmed attack is recorded as such).',
  firstRoundGroupDefense: 'Run the group defense declaration in round 1 too, where there is normally no movement phase (default true).',
  breakoutRemovesHindrance:
    'What the breakout option "Remove 1 Hindrance" removes. roll (default): 1 Hindrance of the roll, whatever its source (the 2 Hindrance of escaping an engagement too); refused when the roll has none. outnumbering: only a Hindrance from outnumbering dice; refused when the outnumbering dice give none (even odds).',
  bypassCurrent:
    'How long a successful bypass of group defense is "current" (an ally "must not currently be bypassing group defense" to be touched). until-benefit-lapses (default): while its benefit can still be used — the rest of the bypasser\'s turn (attacks, guarded objects: "this turn"), and, when the bypassed group guards an area, until the bypasser makes its movement roll or the next round\'s movement phase ends. until-next-turn: until the bypasser\'s next turn begins.',
  attackOutcome:
    "Attacks get an outcome (default true). The server rolls the attack, a d12 roll on DEX with the attacker's degrees of melee disadvantage (melee) and incompetence as Hindrance, and on a hit the damage; the attack then waits for the GM, who confirms or changes the hit and the damage (resolveAttack). Damage adds wounds; at its toughness (stat, default 10) a character is taken out (incapacitated). false: an attack is only declared and the table resolves it, as the rule excerpts do.",
  attackDamage:
    'Damage of a hit with a weapon whose props give no damage formula (default 1d6); a weapon item may set props.damage, e.g. "1d8+1".',
  unarmedDamage: 'Damage of an unarmed hit (default 1d3).',
  incompetentHindrance:
    'Hindrance on an attack roll with a weapon the attacker is not competent with ("Without competence, both melee and ranged attacks are much less effective."; default 1).',
  endWhenOneSideStands:
    'Combat ends by itself when an attack outcome leaves one side alone standing (default true); false leaves the end to the GM.',
};
