import { z } from 'zod';

/** The encounter options. Every option has a default and an entry in `optionDocs`. */
export const optionsSchema = z.object({
  encounterType: z.enum(['combat', 'conflict', 'challenge']).default('combat'),
  roundLength: z.enum(['auto', 'six-seconds', 'six-minutes']).default('auto'),
  powerLevel: z.number().int().min(0).max(30).default(5),
  freeActionLimit: z.number().int().min(0).max(100).default(5),
  degreeStep: z.number().int().min(1).max(20).default(5),
  natural20: z.enum(['extra-degree', 'none']).default('extra-degree'),
  opposedTies: z.enum(['higher-bonus', 'defender']).default('higher-bonus'),
  fortuneDie: z.enum(['d4', 'd6', 'd8', 'd10', 'd12']).default('d6'),
  destinyDie: z.enum(['d4', 'd6', 'd8', 'd10', 'd12']).default('d6'),
  reactionScope: z.enum(['any-turn', 'own-cycle']).default('any-turn'),
  allowSplitMove: z.boolean().default(false),
  delayAfterFreeAction: z.boolean().default(false),
  conversationRange: z.number().int().min(1).max(1000).default(6),
  communicationRange: z.number().int().min(1).max(100000).nullable().default(null),
  damageLimit: z.number().int().min(1).max(20).default(4),
  maxAdvantage: z.number().int().min(1).max(20).default(5),
  variableActionDefault: z.enum(['standard', 'move', 'quick', 'free']).default('standard'),
  variableProvokesDefault: z.boolean().default(false),
  lesserConditions: z
    .array(z.string().min(1).max(40))
    .min(1)
    .max(30)
    .default(['dazed', 'entranced', 'fatigued', 'hindered', 'impaired', 'vulnerable']),
  skillAbilities: z.record(z.string(), z.object({ ability: z.string(), group: z.string() })).default({
    might: { ability: 'strength', group: 'physical' },
    athletics: { ability: 'strength', group: 'physical' },
    acrobatics: { ability: 'agility', group: 'physical' },
    dexterity: { ability: 'agility', group: 'physical' },
    stealth: { ability: 'agility', group: 'physical' },
    endurance: { ability: 'stamina', group: 'physical' },
    investigation: { ability: 'intellect', group: 'mental' },
    lore: { ability: 'intellect', group: 'mental' },
    insight: { ability: 'awareness', group: 'mental' },
    perception: { ability: 'awareness', group: 'mental' },
    intuition: { ability: 'awareness', group: 'mental' },
    reaction: { ability: 'awareness', group: 'mental' },
    persuasion: { ability: 'presence', group: 'social' },
    intimidation: { ability: 'presence', group: 'social' },
    wits: { ability: 'presence', group: 'social' },
    deception: { ability: 'cunning', group: 'social' },
    guile: { ability: 'cunning', group: 'social' },
  }),
});
export type Options = z.infer<typeof optionsSchema>;

export const optionDocs: Record<keyof Options, string> = {
  encounterType:
    'combat (default), conflict or challenge. Combat: melee threat and six-second rounds; conflict: characters with Wits threaten court range and rounds last six minutes; challenge: both kinds of threat.',
  roundLength:
    'auto (default: six seconds for combat and challenge, six minutes for conflict), six-seconds or six-minutes. "Combat uses six-second rounds, while Conflicts typically use six-minute rounds. A Challenge can use either."',
  powerLevel: 'The campaign Power Level used by the DCs: Easy 10, Moderate 10 + PL, Hard 10 + 2 × PL. Default 5.',
  freeActionLimit:
    'Free actions a character may take from the start of one of its turns to the start of the next ("as many free actions in a round as the GM considers reasonable"). Default 5; 0 forbids them. The GM changes it during play with `set-free-action-limit`.',
  degreeStep: 'Points over (under) the DC per extra degree of success (failure). Default 5.',
  natural20: 'extra-degree (default): a natural 20 on the d20 adds one degree of success to a success; none: no special effect.',
  opposedTies:
    'higher-bonus (default): a tie in an opposed check goes to the higher bonus, then the defender; defender: ties go to the defender.',
  fortuneDie: 'The Fortune Die added to an active defense check (Defend). Default d6.',
  destinyDie: 'The die rolled when spending Destiny, Fate or Corruption. Default d6 (the text: "must roll a 6 on the die").',
  reactionScope:
    "any-turn (default): at most one reaction during each character's turn; own-cycle: at most one reaction from the start of one of your turns to the start of the next.",
  allowSplitMove:
    'false (default): "You cannot, however, normally split up your move action before and after your standard action." true lets the GM permit it.',
  delayAfterFreeAction:
    'false (default): a free action taken on your own turn (talk, drop, ammo, maintain aim, a Destiny spend, ...) is an action, so you can no longer delay ("You cannot delay if you have already taken an action on your turn"). true: only standard, move and quick actions count, as tables that read "action" as a slot prefer.',
  conversationRange: 'Conversation range in 5-foot squares (court attacks, court powers, Wits threat). Default 6 (30 feet).',
  communicationRange: 'Communication range in squares for rumor attacks and gossip powers; null (default) = unlimited.',
  damageLimit: 'Damage levels (failed resistance degrees) at which a character is incapacitated. Default 4.',
  maxAdvantage: 'Cap on stacked Advantage from aim, analyze and slam ("up to a maximum bonus of +5 Advantage"). Default 5.',
  variableActionDefault: 'Action type of a skill, tool or complex-weapon use the GM has not ruled on. Default standard.',
  variableProvokesDefault: 'Whether an unruled skill or tool use provokes. Default false (a loaded complex weapon always provokes).',
  lesserConditions:
    'Conditions a trick may inflict ("a lesser condition of your choice"). Default dazed, entranced, fatigued, hindered, impaired, vulnerable.',
  skillAbilities:
    'Skill → ability and ability group, used by Trick ("each of a different ability ... from the same ability group"). Skills not listed cannot be used in a trick.',
};
