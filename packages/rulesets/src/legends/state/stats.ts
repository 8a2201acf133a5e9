import { z } from 'zod';

/** The stats of a legends character (statsSchema, documented in statDocs) and what they refer to: actions and weapons. */

const actionKinds = ['free', 'minor', 'major'] as const;

export type ActionKind = (typeof actionKinds)[number];

const actionTags = [
  'verbal',
  'slowing',
  'purely-mental',
  'melee-attack',
  'ranged-attack',
  'grapple',
  'needs-free-hand',
  'touch',
  'inventory',
] as const;

export type ActionTag = (typeof actionTags)[number];

export const actionDefSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9][a-z0-9-]{0,47}$/),
    name: z.string().min(1).max(80),
    /** the kinds it may be taken as (the first is the default) */
    kinds: z.array(z.enum(actionKinds)).min(1).max(3),
    tags: z.array(z.enum(actionTags)).max(9).default([]),
    /** free hands it needs (a hand used for a major action stays busy until your next turn) */
    hands: z.number().int().min(0).max(2).default(0),
    target: z.enum(['none', 'self', 'combatant', 'ally', 'enemy']).default('none'),
    /** "unless otherwise indicated": may be taken more than once a turn */
    repeatable: z.boolean().default(false),
    /** the rule it comes from (shown with the option) */
    rule: z.string().max(200).default('GM-defined action'),
  })
  .strict();

export type ActionDef = z.infer<typeof actionDefSchema>;

export const statsSchema = z
  .object({
    DEX: z.number().int().min(0).max(40),
    SPD: z.number().int().min(0).max(40),
    STR: z.number().int().min(0).max(40),
    /** degrees of encumbrance (1: rushing costs more fatigue; 2+: no rushing) */
    encumbrance: z.number().int().min(0).max(5).default(0),
    /** degrees of Mobility Injury (any: no rushing) */
    mobilityInjury: z.number().int().min(0).max(5).default(0),
    /** ranks of Sprinting Focus (Athletics) */
    sprintingFocus: z.number().int().min(0).max(5).default(0),
    /** SPD from an outside source (a device): rushing on it alone takes no fatigue */
    externalSPD: z.number().int().min(0).max(40).default(0),
    /** a vehicle does not count for outnumbering dice */
    vehicle: z.boolean().default(false),
    /** the id of the mount this character rides (riders do not count for outnumbering dice) */
    mountId: z.string().min(1).max(64).nullable().default(null),
    /** person (two hands), animal (no hands unless hands is set), tech (hands) */
    kind: z.enum(['person', 'animal', 'tech']).default('person'),
    /** number of hands, overriding the kind's default */
    hands: z.number().int().min(0).max(2).optional(),
    /** may be carried by a sufficiently large and strong ally */
    willingToBeCarried: z.boolean().default(true),
    /** weapon types this character wields competently (Close Combat / Marksmanship Abilities) */
    competences: z.array(z.string().min(1).max(64)).max(64).default([]),
    /** actions this character's Abilities grant */
    actions: z.array(actionDefSchema).max(64).default([]),
    /** wounds this character can take before being taken out (option attackOutcome) */
    toughness: z.number().int().min(1).max(1000).default(10),
  })
  .strict();

export type LegendsStats = z.infer<typeof statsSchema>;

export const statDocs: Record<string, string> = {
  DEX: 'Dexterity: turn order rolls, picking up dropped items.',
  SPD: 'Speed: movement rolls, rushing +TN, bypassing group defense.',
  STR: 'Strength: weapon requirements, breakout tactics.',
  encumbrance: 'Degrees of encumbrance.',
  mobilityInjury: 'Degrees of Mobility Injury.',
  sprintingFocus: 'Ranks of Sprinting Focus (Athletics).',
  externalSPD: 'SPD granted by an outside source such as a device.',
  vehicle: 'A vehicle (does not count for outnumbering dice).',
  mountId: 'The mount this character rides.',
  kind: 'person, animal (no hands) or tech (hands).',
  hands: 'Number of hands, overriding the kind.',
  willingToBeCarried: 'Willing to be carried by an ally.',
  competences: 'Weapon types wielded competently.',
  actions: 'Actions granted by this character’s Abilities.',
  toughness: 'Wounds this character can take; at this many wounds it is taken out (incapacitated). Default 10.',
};

/** A weapon is an item whose props.weapon is set. */
export const weaponSchema = z.object({
  weapon: z.enum(['melee', 'ranged']),
  /** weapon type, matched against stats.competences */
  type: z.string().min(1).max(64),
  /** stat requirements to wield it in one hand */
  oneHanded: z.partialRecord(z.enum(['DEX', 'SPD', 'STR']), z.number().int()).optional(),
  /** stat requirements to wield it in two hands (default: the one-handed ones, or none) */
  twoHanded: z.partialRecord(z.enum(['DEX', 'SPD', 'STR']), z.number().int()).optional(),
  /** true: it cannot be wielded in one hand at all */
  twoHandedOnly: z.boolean().optional(),
});

export type Weapon = z.infer<typeof weaponSchema>;
